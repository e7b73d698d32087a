// Op kinds and their ONNX spellings (op_kind.h). The names are generated
// from the same list as the enum, so the two cannot drift; lookups by name
// search the sorted list.

#include "ir/op_kind.h"

#include <algorithm>
#include <array>

namespace stagecraft::ir {

namespace {

#define STAGECRAFT_OP_KIND_NAME(name) std::string_view(#name),
constexpr std::array kNames{STAGECRAFT_OP_KINDS(STAGECRAFT_OP_KIND_NAME)};
#undef STAGECRAFT_OP_KIND_NAME

#define STAGECRAFT_OP_KIND_VALUE(name) OpKind::name,
constexpr std::array kKinds{STAGECRAFT_OP_KINDS(STAGECRAFT_OP_KIND_VALUE)};
#undef STAGECRAFT_OP_KIND_VALUE

static_assert(std::is_sorted(kNames.begin(), kNames.end()), "STAGECRAFT_OP_KINDS is in name order");

} // namespace

std::span<const OpKind> opKinds() {
    return kKinds;
}

std::string_view opKindName(OpKind kind) {
    if (kind == OpKind::Unknown)
        return "Unknown";
    return kNames[static_cast<size_t>(kind) - 1];
}

bool isDefaultDomain(std::string_view domain) {
    return domain.empty() || domain == "ai.onnx";
}

OpKind opKindOf(std::string_view type, std::string_view domain) {
    if (!isDefaultDomain(domain))
        return OpKind::Unknown;
    auto it = std::lower_bound(kNames.begin(), kNames.end(), type);
    if (it == kNames.end() || *it != type)
        return OpKind::Unknown;
    return kKinds[static_cast<size_t>(it - kNames.begin())];
}

} // namespace stagecraft::ir
