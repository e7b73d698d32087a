#pragma once
// Picks the precision the model runs at (docs/simulator.md, "Precision"):
// as the model stores its tensors, or every floating-point tensor at f32,
// f16 or bf16 (GraphTurbo §5 runs FP16).

#include "ir/dtype.h"

#include <QWidget>

#include <optional>

class QComboBox;

namespace stagecraft::views {

class PrecisionPicker : public QWidget {
    Q_OBJECT
public:
    explicit PrecisionPicker(QWidget* parent = nullptr);

    /// nullopt: as the model stores it.
    std::optional<ir::DType> precision() const;
    /// Shows \p precision without emitting changed() (undo, open).
    void setChoice(std::optional<ir::DType> precision);

signals:
    /// The user chose another precision; -1 stands for "as the model stores it".
    void changed(int dtype);

private:
    QComboBox* choices_ = nullptr;
};

} // namespace stagecraft::views
