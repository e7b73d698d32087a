#pragma once
// Binds the dimensions a model leaves open before it can be imported: the
// declared inputs in a grid, one column per dim. Fixed dims are read-only;
// a symbolic dim (shared by every input that names it) and an unknown dim
// take a number; an input without a declared shape takes a whole shape. A
// scalar or vector input may also take a value (`--value`: it folds an If on
// a sample rate or a mode flag). The result is what onnxio::ImportOptions
// (and io::Session) hold.

#include "ir/shape.h"
#include "onnx/declared_inputs.h"

#include <QDialog>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

class QDialogButtonBox;
class QGridLayout;
class QLabel;
class QLineEdit;

namespace stagecraft::views {

class DimsDialog : public QDialog {
    Q_OBJECT
public:
    /// Shows \p inputs (onnxio::declaredInputs). \p dims and \p inputShapes
    /// (the bindings so far) prefill the editors; of the other open dims a
    /// leading one (the batch) starts at 1, the rest empty.
    DimsDialog(std::vector<onnxio::DeclaredInput> inputs,
               const std::map<std::string, int64_t>& dims,
               const std::map<std::string, ir::Shape>& inputShapes, QWidget* parent = nullptr);
    /// As above, with \p values (the input values so far) prefilling the
    /// value editors.
    DimsDialog(std::vector<onnxio::DeclaredInput> inputs,
               const std::map<std::string, int64_t>& dims,
               const std::map<std::string, ir::Shape>& inputShapes,
               const std::map<std::string, std::string>& values, QWidget* parent = nullptr);
    DimsDialog(std::vector<onnxio::DeclaredInput> inputs,
               const std::map<std::string, int64_t>& dims, QWidget* parent = nullptr);
    /// Reads the declared inputs of \p model; a failure is shown in the
    /// dialog, with OK disabled.
    explicit DimsDialog(const std::filesystem::path& model,
                        const std::map<std::string, int64_t>& dims = {},
                        const std::map<std::string, ir::Shape>& inputShapes = {},
                        QWidget* parent = nullptr);

    /// True when \p inputs cannot be imported without bindings.
    static bool needsBinding(const std::vector<onnxio::DeclaredInput>& inputs);
    /// True when some input may take a value (a scalar, a vector or an
    /// input of undeclared shape): the dialog is worth showing.
    static bool offersValues(const std::vector<onnxio::DeclaredInput>& inputs);

    const std::vector<onnxio::DeclaredInput>& inputs() const { return inputs_; }
    /// Why the model's inputs could not be read; empty when they were.
    const QString& loadError() const { return loadError_; }
    /// True when every open dim has a value (OK is enabled).
    bool isComplete() const;

    /// The symbolic dims, by name.
    std::map<std::string, int64_t> dims() const;
    /// Whole shapes of the inputs that have an unnamed unknown dim or no
    /// declared shape (a symbolic dim cannot bind those).
    std::map<std::string, ir::Shape> inputShapes() const;
    /// The values given, by input name, as `--value` takes them ("16000",
    /// "1,2,3"); inputs left empty are not listed.
    std::map<std::string, std::string> values() const;

private:
    struct DimEditor {
        size_t input = 0;
        size_t dim = 0;
        QLineEdit* edit = nullptr;
    };

    void build(Expected<std::vector<onnxio::DeclaredInput>> inputs,
               const std::map<std::string, int64_t>& dims,
               const std::map<std::string, ir::Shape>& inputShapes,
               const std::map<std::string, std::string>& values = {});
    void addValueEditor(int row, size_t input, const std::map<std::string, std::string>& values);
    void buildRows(const std::map<std::string, int64_t>& dims,
                   const std::map<std::string, ir::Shape>& inputShapes);
    /// One value per symbolic name: \p dims, else the dim in a given shape, else none.
    std::map<std::string, int64_t> symbolPrefills(const std::map<std::string, int64_t>& dims,
                                                  const std::vector<const ir::Shape*>& given) const;
    void addInputRow(int row, size_t input, const std::map<std::string, int64_t>& prefills,
                     const ir::Shape* given);
    QLineEdit* addDimEditor(int row, int column, size_t input, size_t dim, const QString& prefill);
    QLineEdit* addShapeEditor(int row, size_t input, const ir::Shape* given);
    void syncSymbol(const QLineEdit* source);
    void updateState();
    /// Names of the dims still without a value, for the status line.
    QStringList openDims() const;
    ir::Shape shapeOf(size_t input) const;

    std::vector<onnxio::DeclaredInput> inputs_;
    QString loadError_;
    std::vector<DimEditor> editors_;
    std::map<size_t, QLineEdit*> shapeEditors_;
    std::map<size_t, QLineEdit*> valueEditors_;
    /// The grid column of the value editors, after the widest shape.
    int valueColumn_ = 0;
    QGridLayout* grid_ = nullptr;
    QLabel* status_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
};

} // namespace stagecraft::views
