// The dimension dialog's values (see dims_dialog.h): what the editors hold,
// what is still open, and the bindings they make.

#include "dialogs/dims_dialog.h"
#include "support/strings.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

#include <optional>

namespace stagecraft::views {

using namespace Qt::StringLiterals;
using onnxio::DeclaredDim;
using onnxio::DeclaredInput;

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

/// A dim value: a whole number >= 1 (0 would make the tensor empty).
std::optional<int64_t> dimValue(const QLineEdit* edit) {
    std::optional<int64_t> value = parseInt(edit->text().toStdString());
    if (!value || *value < 1)
        return std::nullopt;
    return value;
}

std::optional<ir::Shape> shapeValue(const QLineEdit* edit) {
    if (edit->text().trimmed().isEmpty())
        return std::nullopt;
    Expected<ir::Shape> shape = ir::parseShape(edit->text().trimmed().toStdString());
    if (!shape.ok())
        return std::nullopt;
    return *shape;
}

bool hasUnknownDim(const DeclaredInput& input) {
    for (const DeclaredDim& dim : input.dims)
        if (dim.unknown())
            return true;
    return false;
}

} // namespace

// A symbolic dim is one binding: every editor of the same name shows it.
void DimsDialog::syncSymbol(const QLineEdit* source) {
    std::string param;
    for (const DimEditor& editor : editors_)
        if (editor.edit == source)
            param = inputs_[editor.input].dims[editor.dim].param;
    if (param.empty())
        return;
    for (const DimEditor& editor : editors_)
        if (editor.edit != source && inputs_[editor.input].dims[editor.dim].param == param)
            editor.edit->setText(source->text());
}

bool DimsDialog::isComplete() const {
    return loadError_.isEmpty() && openDims().isEmpty();
}

QStringList DimsDialog::openDims() const {
    QStringList open;
    for (const DimEditor& editor : editors_) {
        if (dimValue(editor.edit))
            continue;
        const DeclaredDim& dim = inputs_[editor.input].dims[editor.dim];
        QString name = dim.symbolic() ? qs(dim.param) : editor.edit->objectName();
        if (!open.contains(name))
            open << name;
    }
    for (const auto& [input, edit] : shapeEditors_)
        if (!shapeValue(edit))
            open << tr("the shape of %1").arg(qs(inputs_[input].name));
    return open;
}

void DimsDialog::updateState() {
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(isComplete());
    if (!loadError_.isEmpty()) {
        status_->setText(loadError_);
        return;
    }
    QStringList open = openDims();
    if (!open.isEmpty())
        status_->setText(tr("Still open: %1").arg(open.join(u", "_s)));
    else if (needsBinding(inputs_))
        status_->setText(tr("Every dimension has a value."));
    else
        status_->setText(tr("Every dimension is fixed: nothing to bind."));
}

std::map<std::string, int64_t> DimsDialog::dims() const {
    std::map<std::string, int64_t> bound;
    for (const DimEditor& editor : editors_) {
        const DeclaredDim& dim = inputs_[editor.input].dims[editor.dim];
        if (std::optional<int64_t> value = dimValue(editor.edit); value && dim.symbolic())
            bound[dim.param] = *value;
    }
    return bound;
}

ir::Shape DimsDialog::shapeOf(size_t input) const {
    const DeclaredInput& declared = inputs_[input];
    ir::Shape shape;
    for (const DeclaredDim& dim : declared.dims)
        shape.push_back(dim.value.value_or(0));
    for (const DimEditor& editor : editors_)
        if (editor.input == input)
            shape[editor.dim] = dimValue(editor.edit).value_or(0);
    return shape;
}

std::map<std::string, ir::Shape> DimsDialog::inputShapes() const {
    std::map<std::string, ir::Shape> shapes;
    for (size_t i = 0; i < inputs_.size(); ++i) {
        if (auto editor = shapeEditors_.find(i); editor != shapeEditors_.end()) {
            if (std::optional<ir::Shape> shape = shapeValue(editor->second))
                shapes[inputs_[i].name] = *shape;
        } else if (hasUnknownDim(inputs_[i])) {
            shapes[inputs_[i].name] = shapeOf(i);
        }
    }
    return shapes;
}

std::map<std::string, std::string> DimsDialog::values() const {
    std::map<std::string, std::string> values;
    for (const auto& [input, edit] : valueEditors_) {
        QString text = edit->text().simplified().remove(u' ');
        if (!text.isEmpty())
            values[inputs_[input].name] = text.toStdString();
    }
    return values;
}

} // namespace stagecraft::views
