// The dimension dialog (see dims_dialog.h): its layout, one grid row per
// input. dims_dialog_values.cpp reads the editors back.

#include "dialogs/dims_dialog.h"

#include <QDialogButtonBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QVBoxLayout>

#include <algorithm>

namespace stagecraft::views {

using namespace Qt::StringLiterals;
using onnxio::DeclaredDim;
using onnxio::DeclaredInput;

namespace {

constexpr int kFirstDimColumn = 2;

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString shapeText(const ir::Shape& shape) {
    QStringList dims;
    for (int64_t dim : shape)
        dims << QString::number(dim);
    return dims.join(u'x');
}

QLineEdit* fixedDim(int64_t value) {
    auto* edit = new QLineEdit(QString::number(value));
    edit->setReadOnly(true);
    // Read-only alone looks editable.
    edit->setStyleSheet(u"QLineEdit { background: palette(window); }"_s);
    edit->setToolTip(DimsDialog::tr("fixed by the model"));
    return edit;
}

/// \p edit with the dim's name (or "?" when it has none) in front.
QWidget* captioned(const QString& caption, QLineEdit* edit) {
    auto* cell = new QWidget;
    auto* layout = new QHBoxLayout(cell);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(new QLabel(caption));
    layout->addWidget(edit, 1);
    return cell;
}

} // namespace

DimsDialog::DimsDialog(std::vector<DeclaredInput> inputs,
                       const std::map<std::string, int64_t>& dims,
                       const std::map<std::string, ir::Shape>& inputShapes, QWidget* parent)
    : QDialog(parent) {
    build(std::move(inputs), dims, inputShapes);
}

DimsDialog::DimsDialog(std::vector<DeclaredInput> inputs,
                       const std::map<std::string, int64_t>& dims,
                       const std::map<std::string, ir::Shape>& inputShapes,
                       const std::map<std::string, std::string>& values, QWidget* parent)
    : QDialog(parent) {
    build(std::move(inputs), dims, inputShapes, values);
}

DimsDialog::DimsDialog(std::vector<DeclaredInput> inputs,
                       const std::map<std::string, int64_t>& dims, QWidget* parent)
    : DimsDialog(std::move(inputs), dims, {}, parent) {}

DimsDialog::DimsDialog(const std::filesystem::path& model,
                       const std::map<std::string, int64_t>& dims,
                       const std::map<std::string, ir::Shape>& inputShapes, QWidget* parent)
    : QDialog(parent) {
    build(onnxio::declaredInputs(model), dims, inputShapes);
}

void DimsDialog::build(Expected<std::vector<DeclaredInput>> inputs,
                       const std::map<std::string, int64_t>& dims,
                       const std::map<std::string, ir::Shape>& inputShapes,
                       const std::map<std::string, std::string>& values) {
    setObjectName(u"dimsDialog"_s);
    setWindowTitle(tr("Bind dimensions"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Give each open input dimension a size. A value given to a "
                                "scalar or vector input is compiled in: it folds an If on it "
                                "(a sample rate, a mode flag) and the kernels hold for it only."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    grid_ = new QGridLayout;
    layout->addLayout(grid_);
    status_ = new QLabel;
    status_->setObjectName(u"dimsStatus"_s);
    status_->setWordWrap(true);
    layout->addWidget(status_);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    layout->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

    if (inputs.ok()) {
        inputs_ = std::move(inputs).value();
        buildRows(dims, inputShapes);
        for (size_t i = 0; i < inputs_.size(); ++i)
            addValueEditor(static_cast<int>(i) + 1, i, values);
    } else {
        loadError_ = qs(inputs.error().message());
        status_->setStyleSheet(u"color: #c00000;"_s);
    }
    updateState();
}

bool DimsDialog::needsBinding(const std::vector<DeclaredInput>& inputs) {
    return onnxio::needsBinding(inputs);
}

bool DimsDialog::offersValues(const std::vector<DeclaredInput>& inputs) {
    for (const DeclaredInput& input : inputs)
        if (!input.hasShape || input.dims.size() <= 1)
            return true;
    return false;
}

void DimsDialog::buildRows(const std::map<std::string, int64_t>& dims,
                           const std::map<std::string, ir::Shape>& inputShapes) {
    grid_->addWidget(new QLabel(tr("<b>Input</b>")), 0, 0);
    grid_->addWidget(new QLabel(tr("<b>Type</b>")), 0, 1);
    grid_->addWidget(new QLabel(tr("<b>Dimensions</b>")), 0, kFirstDimColumn);
    size_t widest = 1;
    for (const DeclaredInput& input : inputs_)
        widest = std::max(widest, input.dims.size());
    valueColumn_ = kFirstDimColumn + static_cast<int>(widest);
    if (offersValues(inputs_))
        grid_->addWidget(new QLabel(tr("<b>Value</b>")), 0, valueColumn_);
    // A whole shape given for another rank does not apply to the declaration.
    std::vector<const ir::Shape*> given(inputs_.size(), nullptr);
    for (size_t i = 0; i < inputs_.size(); ++i) {
        auto shape = inputShapes.find(inputs_[i].name);
        if (shape != inputShapes.end() &&
            (!inputs_[i].hasShape || shape->second.size() == inputs_[i].dims.size()))
            given[i] = &shape->second;
    }
    const std::map<std::string, int64_t> prefills = symbolPrefills(dims, given);
    for (size_t i = 0; i < inputs_.size(); ++i)
        addInputRow(static_cast<int>(i) + 1, i, prefills, given[i]);
}

std::map<std::string, int64_t>
DimsDialog::symbolPrefills(const std::map<std::string, int64_t>& dims,
                           const std::vector<const ir::Shape*>& given) const {
    std::map<std::string, int64_t> prefills = dims;
    for (size_t i = 0; i < inputs_.size(); ++i) {
        if (given[i] == nullptr || !inputs_[i].hasShape)
            continue;
        for (size_t d = 0; d < inputs_[i].dims.size(); ++d)
            if (inputs_[i].dims[d].symbolic())
                prefills.try_emplace(inputs_[i].dims[d].param, (*given[i])[d]);
    }
    // A symbol leading some input is taken for the batch: one sample.
    for (const DeclaredInput& input : inputs_)
        if (!input.dims.empty() && input.dims.front().symbolic())
            prefills.try_emplace(input.dims.front().param, 1);
    return prefills;
}

void DimsDialog::addInputRow(int row, size_t input, const std::map<std::string, int64_t>& prefills,
                             const ir::Shape* given) {
    const DeclaredInput& declared = inputs_[input];
    grid_->addWidget(new QLabel(qs(declared.name)), row, 0);
    grid_->addWidget(new QLabel(qs(declared.dtype)), row, 1);
    if (!declared.hasShape) {
        addShapeEditor(row, input, given);
        return;
    }
    for (size_t d = 0; d < declared.dims.size(); ++d) {
        const DeclaredDim& dim = declared.dims[d];
        int column = kFirstDimColumn + static_cast<int>(d);
        if (dim.fixed()) {
            QLineEdit* edit = fixedDim(*dim.value);
            edit->setObjectName(u"%1[%2]"_s.arg(qs(declared.name)).arg(d));
            grid_->addWidget(edit, row, column);
            continue;
        }
        // An open dim starts empty (OK waits for it), but for the leading
        // one, taken for the batch: a made-up height would schedule nothing real.
        QString prefill = given != nullptr ? QString::number((*given)[d])
                          : d == 0         ? u"1"_s
                                           : QString();
        if (auto bound = prefills.find(dim.param); dim.symbolic() && bound != prefills.end())
            prefill = QString::number(bound->second);
        addDimEditor(row, column, input, d, prefill);
    }
}

QLineEdit* DimsDialog::addDimEditor(int row, int column, size_t input, size_t dim,
                                    const QString& prefill) {
    const DeclaredDim& declared = inputs_[input].dims[dim];
    auto* edit = new QLineEdit(prefill);
    edit->setObjectName(u"%1[%2]"_s.arg(qs(inputs_[input].name)).arg(dim));
    edit->setValidator(
        new QRegularExpressionValidator(QRegularExpression(u"[1-9][0-9]{0,17}"_s), edit));
    // The caption names the dim; an empty editor asks for a size.
    edit->setPlaceholderText(tr("size"));
    if (declared.symbolic()) {
        edit->setToolTip(tr("symbolic dimension '%1': every input that names it gets this value")
                             .arg(qs(declared.param)));
    } else {
        edit->setToolTip(tr("unknown dimension: binds this input's whole shape"));
    }
    grid_->addWidget(captioned(declared.symbolic() ? qs(declared.param) : u"?"_s, edit), row,
                     column);
    editors_.push_back({input, dim, edit});
    connect(edit, &QLineEdit::textEdited, this, [this, edit] { syncSymbol(edit); });
    connect(edit, &QLineEdit::textChanged, this, &DimsDialog::updateState);
    return edit;
}

QLineEdit* DimsDialog::addShapeEditor(int row, size_t input, const ir::Shape* given) {
    auto* edit = new QLineEdit(given != nullptr ? shapeText(*given) : QString());
    edit->setObjectName(u"%1.shape"_s.arg(qs(inputs_[input].name)));
    edit->setPlaceholderText(u"1x3x224x224"_s);
    edit->setToolTip(tr("the model declares no shape for this input: give the whole shape"));
    grid_->addWidget(edit, row, kFirstDimColumn, 1, valueColumn_ - kFirstDimColumn);
    shapeEditors_[input] = edit;
    connect(edit, &QLineEdit::textChanged, this, &DimsDialog::updateState);
    return edit;
}

void DimsDialog::addValueEditor(int row, size_t input,
                                const std::map<std::string, std::string>& values) {
    const DeclaredInput& declared = inputs_[input];
    if (declared.hasShape && declared.dims.size() > 1)
        return;
    auto given = values.find(declared.name);
    auto* edit = new QLineEdit(given != values.end() ? qs(given->second) : QString());
    edit->setObjectName(u"%1.value"_s.arg(qs(declared.name)));
    edit->setPlaceholderText(tr("optional"));
    edit->setToolTip(tr("a value for '%1' (V, or V,V,... for a vector), compiled in as "
                        "--value %1=V does; empty: given at run time")
                         .arg(qs(declared.name)));
    grid_->addWidget(edit, row, valueColumn_);
    valueEditors_[input] = edit;
}

} // namespace stagecraft::views
