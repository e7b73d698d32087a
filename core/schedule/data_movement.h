#pragma once
/// \file
/// The data-movement rule of GraphTurbo §3.5 (Fig. 9) for one consumer and
/// one tensor, as a pure function: the pieces the producer instances deliver
/// and what the consumer needs in, the ops to insert.

#include "schedule/schedule.h"

#include <span>
#include <vector>

namespace stagecraft::schedule {

/// One producer instance's piece of a tensor.
struct Piece {
    InstanceId instance;
    ir::Shape shape;
    Scope scope = Scope::LB;
    Binding bind;
};

/// Copy ops for pieces not in \p target (the consumer's level, LB in the
/// paper), redistribute ops for pieces whose binding differs from the
/// smaller factors of theirs and \p need on every dim, then a concat into
/// \p joinedShape (in \p target, bound \p need) when there are several
/// pieces. With one piece it is redistributed to \p need itself. A \p need
/// using one core constrains nothing.
std::vector<DataMove> movesForPieces(InstanceId consumer, ir::TensorId tensor,
                                     std::span<const Piece> pieces, const ir::Shape& joinedShape,
                                     const Binding& need, Scope target = Scope::LB);

/// \p binding with each factor lowered (8, 4, 2, 1) until it divides \p shape.
Binding fitBinding(const Binding& binding, const ir::Shape& shape);

} // namespace stagecraft::schedule
