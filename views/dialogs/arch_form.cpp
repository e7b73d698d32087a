// The architecture form (see arch_form.h). Each field keeps a reference
// function into arch::Arch, so reading the form back is one loop and the
// field's JSON path is the one parseArch's messages name.

#include "dialogs/arch_form.h"

#include "support/strings.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <type_traits>

namespace stagecraft::views {

using namespace Qt::StringLiterals;

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString numberText(double value) {
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

/// What decides which fields the form has: groups (names, LB or not), GB or
/// not, paths (their levels).
std::string layoutOf(const arch::Arch& arch) {
    std::string layout;
    for (const arch::CoreGroup& group : arch.cluster.coreGroups)
        layout += group.name + (group.localBuffer ? "+LB;" : ";");
    layout += arch.cluster.globalBuffer ? "GB;" : "-;";
    for (const arch::Path& path : arch.paths)
        layout += std::string(arch::memoryName(path.from)) + ">" +
                  std::string(arch::memoryName(path.to)) + ";";
    return layout;
}

QFormLayout* addSection(QVBoxLayout* layout, const QString& title) {
    auto* box = new QGroupBox(title);
    auto* form = new QFormLayout(box);
    layout->addWidget(box);
    return form;
}

/// "Conv, Relu", or "" for no list.
QString opsText(const std::optional<std::vector<ir::OpKind>>& kinds) {
    if (!kinds)
        return {};
    QStringList names;
    for (ir::OpKind kind : *kinds)
        names << qs(ir::opKindName(kind));
    return names.join(u", "_s);
}

/// The op types of \p text, separated by commas or spaces; blank: no list.
Expected<std::optional<std::vector<ir::OpKind>>> parseOps(const QString& text) {
    QStringList names = text.split(QRegularExpression(u"[,\\s]+"_s), Qt::SkipEmptyParts);
    if (names.isEmpty())
        return std::optional<std::vector<ir::OpKind>>();
    std::vector<ir::OpKind> kinds;
    for (const QString& name : names) {
        ir::OpKind kind = ir::opKindOf(name.toStdString());
        if (kind == ir::OpKind::Unknown)
            return Error("supported_ops: unknown op type " + quote(name.toStdString()) +
                         " (expected an ONNX op type such as Conv or Relu)");
        if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
            kinds.push_back(kind);
    }
    std::sort(kinds.begin(), kinds.end());
    return std::optional<std::vector<ir::OpKind>>(std::move(kinds));
}

QString groupPath(size_t group) {
    return u"cluster.core_groups[%1]"_s.arg(group);
}

} // namespace

ArchForm::ArchForm(QWidget* parent)
    : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    scroll_ = new QScrollArea;
    scroll_->setObjectName(u"archFormScroll"_s);
    scroll_->setWidgetResizable(true);
    layout->addWidget(scroll_);
}

void ArchForm::setArch(const arch::Arch& arch) {
    bool sameFields = content_ != nullptr && layoutOf(arch) == layoutOf(shown_);
    shown_ = arch;
    if (!sameFields)
        rebuild(arch);
    showValues();
}

void ArchForm::rebuild(const arch::Arch& arch) {
    fields_.clear();
    content_ = new QWidget;
    auto* layout = new QVBoxLayout(content_);
    QFormLayout* chip = addSection(layout, tr("Chip"));
    addField(chip, tr("Name"), u"name"_s, TextRef([](arch::Arch & a) -> auto& { return a.name; }));
    addField(chip, tr("Clock (GHz)"), u"clock_ghz"_s,
             NumberRef([](arch::Arch & a) -> auto& { return a.clockGhz; }));
    addField(chip, tr("Clusters"), u"clusters"_s,
             IntRef([](arch::Arch & a) -> auto& { return a.clusters; }));
    for (size_t g = 0; g < arch.cluster.coreGroups.size(); ++g)
        addGroupFields(
            addSection(layout, tr("Core group '%1'").arg(qs(arch.cluster.coreGroups[g].name))),
            arch, g);
    QFormLayout* memory = addSection(layout, tr("Memory"));
    if (arch.cluster.globalBuffer)
        addField(memory, tr("GB bytes (per cluster)"), u"cluster.global_buffer.bytes"_s,
                 IntRef([](arch::Arch & a) -> auto& { return a.cluster.globalBuffer->bytes; }));
    addField(memory, tr("DDR bytes"), u"ddr.bytes"_s,
             IntRef([](arch::Arch & a) -> auto& { return a.ddr.bytes; }));
    if (!arch.paths.empty()) {
        QFormLayout* paths = addSection(layout, tr("Paths"));
        for (size_t p = 0; p < arch.paths.size(); ++p)
            addPathFields(paths, arch, p);
    }
    QFormLayout* overheads = addSection(layout, tr("Overheads"));
    addField(overheads, tr("Kernel launch (ns)"), u"overheads.kernel_launch_ns"_s,
             NumberRef([](arch::Arch & a) -> auto& { return a.overheads.kernelLaunchNs; }));
    addField(overheads, tr("Synchronization (ns)"), u"overheads.sync_ns"_s,
             NumberRef([](arch::Arch & a) -> auto& { return a.overheads.syncNs; }));
    QFormLayout* accelerator = addSection(layout, tr("Accelerator"));
    addField(accelerator, tr("Op types it runs (blank: all)"), u"supported_ops"_s,
             OpsRef([](arch::Arch & a) -> auto& { return a.supportedOps; }));
    layout->addStretch();
    // Replaces (and deletes) the previous fields.
    scroll_->setWidget(content_);
}

void ArchForm::addGroupFields(QFormLayout* form, const arch::Arch& arch, size_t group) {
    const QString path = groupPath(group);
    auto at = [group](arch::Arch& a) -> arch::CoreGroup& {
        return a.cluster.coreGroups[group];
    };
    addField(form, tr("Cores per cluster"), path + u".count"_s,
             IntRef([at](arch::Arch & a) -> auto& { return at(a).count; }));
    if (!arch.cluster.coreGroups[group].localBuffer)
        return;
    addField(form, tr("LB bytes (per core)"), path + u".local_buffer.bytes"_s,
             IntRef([at](arch::Arch & a) -> auto& { return at(a).localBuffer->bytes; }));
    addField(
        form, tr("LB weight reserve (bytes)"), path + u".local_buffer.weight_reserve_bytes"_s,
        IntRef([at](arch::Arch & a) -> auto& { return at(a).localBuffer->weightReserveBytes; }));
}

void ArchForm::addPathFields(QFormLayout* form, const arch::Arch& arch, size_t path) {
    const arch::Path& p = arch.paths[path];
    const QString name = qs(arch::memoryName(p.from)) + u" → "_s + qs(arch::memoryName(p.to));
    const QString at = u"paths[%1]"_s.arg(path);
    addField(form, tr("%1 bandwidth (GB/s)").arg(name), at + u".bandwidth_gbps"_s,
             NumberRef([path](arch::Arch & a) -> auto& { return a.paths[path].bandwidthGBps; }));
    addField(form, tr("%1 latency (ns)").arg(name), at + u".latency_ns"_s,
             NumberRef([path](arch::Arch & a) -> auto& { return a.paths[path].latencyNs; }));
    addField(form, tr("%1 channels").arg(name), at + u".channels"_s,
             IntRef([path](arch::Arch & a) -> auto& { return a.paths[path].channels; }));
}

void ArchForm::addField(QFormLayout* form, const QString& label, const QString& path, Ref ref) {
    auto* edit = new QLineEdit;
    edit->setObjectName(path);
    edit->setToolTip(path);
    form->addRow(label, edit);
    connect(edit, &QLineEdit::textEdited, this, &ArchForm::edited);
    fields_.push_back({edit, path, std::move(ref)});
}

void ArchForm::showValues() {
    arch::Arch values = shown_;
    for (Field& field : fields_) {
        QString text = std::visit(
            [&values](auto& ref) -> QString {
                auto& value = ref(values);
                using Value = std::decay_t<decltype(value)>;
                if constexpr (std::is_same_v<Value, std::string>)
                    return QString::fromStdString(value);
                else if constexpr (std::is_same_v<Value, std::optional<std::vector<ir::OpKind>>>)
                    return opsText(value);
                else if constexpr (std::is_same_v<std::decay_t<decltype(value)>, double>)
                    return numberText(value);
                else
                    return QString::number(value);
            },
            field.ref);
        // Keeps the cursor of the field being typed in when nothing changed.
        if (field.edit->text() != text)
            field.edit->setText(text);
    }
}

Expected<arch::Arch> ArchForm::arch() const {
    arch::Arch result = shown_;
    for (const Field& field : fields_) {
        const std::string text = field.edit->text().trimmed().toStdString();
        const std::string path = field.path.toStdString();
        if (const auto* textRef = std::get_if<TextRef>(&field.ref)) {
            (*textRef)(result) = field.edit->text().toStdString();
        } else if (const auto* opsRef = std::get_if<OpsRef>(&field.ref)) {
            SC_ASSIGN_OR_RETURN((*opsRef)(result), parseOps(field.edit->text()));
        } else if (const auto* intRef = std::get_if<IntRef>(&field.ref)) {
            std::optional<int64_t> value = parseInt(text);
            if (!value)
                return Error(path + ": must be an integer (got " + quote(text) + ")");
            (*intRef)(result) = *value;
        } else {
            std::optional<double> value = parseDouble(text);
            if (!value)
                return Error(path + ": must be a number (got " + quote(text) + ")");
            std::get<NumberRef>(field.ref)(result) = *value;
        }
    }
    return result;
}

void ArchForm::markError(const QString& message) {
    for (const Field& field : fields_) {
        bool wrong = message.startsWith(field.path + u": "_s);
        field.edit->setStyleSheet(wrong ? u"QLineEdit { background: #ffd8d8; }"_s : QString());
    }
}

} // namespace stagecraft::views
