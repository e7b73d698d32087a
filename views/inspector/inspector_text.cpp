// Text of schedule facts for the inspector (see inspector_text.h).

#include "inspector/inspector_text.h"

#include "common/byte_text.h"
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
    return formatBufferBytes(bytes);
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

QString bindingGloss(const schedule::Binding& binding) {
    QStringList dims;
    for (size_t d = 0; d < binding.size(); ++d)
        if (binding[d] > 1)
            dims << u"dim %1 over %2"_s.arg(d).arg(binding[d]);
    const int64_t cores = schedule::coresUsed(binding);
    const QString used = cores == 1 ? u"1 core"_s : u"%1 cores"_s.arg(cores);
    return bindingText(binding) % u": "_s % used %
           (dims.isEmpty() ? QString() : u", output "_s % dims.join(u", "_s));
}

QString groupLabel(schedule::GroupId group) {
    return QString::fromStdString(partition::Partition::label(group));
}

QString instanceText(const schedule::Schedule& schedule, schedule::InstanceId instance) {
    const schedule::Instance& inst = schedule.instances[instance];
    return u"%1 (group %2, slice %3)"_s
        .arg(QString::fromStdString(inst.label), groupLabel(inst.group))
        .arg(inst.index);
}

QString yesNo(bool value) {
    return value ? u"yes"_s : u"no"_s;
}

} // namespace stagecraft::views::inspector
