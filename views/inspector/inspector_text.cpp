// Text of schedule facts for the inspector (see inspector_text.h).

#include "inspector/inspector_text.h"

#include "support/strings.h"

namespace stagecraft::views::inspector {

using namespace Qt::StringLiterals;

QString toQString(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString shapeText(const ir::Shape& shape) {
    return QString::fromStdString(ir::formatShape(shape));
}

QString bytesText(int64_t bytes) {
    return QString::fromStdString(formatBytes(bytes));
}

QString tensorTypeText(const ir::Tensor& tensor) {
    return u'[' % shapeText(tensor.shape) % u"] "_s % toQString(ir::dtypeName(tensor.dtype));
}

QString splitText(const std::optional<partition::SplitCandidate>& split) {
    if (!split || split->factor <= 1)
        return u"unsplit"_s;
    return u"dim %1 × %2"_s.arg(split->dim).arg(split->factor);
}

QString bindingText(const schedule::Binding& binding) {
    QStringList factors;
    for (int64_t factor : schedule::trimmed(binding))
        factors << QString::number(factor);
    return u'[' % factors.join(u',') % u']';
}

QString groupLabel(schedule::GroupId group) {
    return QString::fromStdString(partition::Partition::label(group));
}

QString instanceText(const schedule::Schedule& schedule, schedule::InstanceId instance) {
    const schedule::Instance& inst = schedule.instances[instance];
    return u"%1 (group %2, #%3)"_s.arg(QString::fromStdString(inst.label), groupLabel(inst.group))
        .arg(inst.index);
}

QString yesNo(bool value) {
    return value ? u"yes"_s : u"no"_s;
}

} // namespace stagecraft::views::inspector
