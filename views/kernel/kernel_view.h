#pragma once
// The kernel of an instance (GraphTurbo Fig. 11, right): its fused, tiled
// loop nest as pseudo-code (codegen/kernel_listing.h) and, when its tab is
// opened, the LLVM IR and the assembly the emitter produces for it
// (codegen/kernel_explain.h), compiled off the GUI thread. Every line is
// tinted by the op it comes from; selecting an op anywhere lights up its
// lines in the three texts, and clicking a line selects its op. It follows
// the shared selection: an instance shows its kernel, an op or a group the
// first kernel that computes it.

#include "common/latest_worker.h"
#include "common/pipeline_result.h"

#include <QWidget>

#include <cstdint>
#include <memory>

class QComboBox;
class QLabel;
class QTabWidget;

namespace stagecraft::codegen {
struct CodePlan;
}

namespace stagecraft::views {

class CodePane;
class SelectionModel;
struct Selection;

class KernelView : public QWidget {
    Q_OBJECT
public:
    enum class Pane { Loops, Ir, Assembly };

    explicit KernelView(QWidget* parent = nullptr);
    ~KernelView() override;

    void setSelectionModel(SelectionModel* selection);
    void setResult(ResultPtr result);

    /// The kernel shown (its index in the code plan), or -1.
    int kernelIndex() const { return kernel_; }
    QString kernelSymbol() const;
    CodePane* pane(Pane pane) const;
    void showPane(Pane pane);
    /// "riscv64" (the DSA's cores) or "host", and the LLVM level 0-3.
    void setTarget(const QString& target, int optLevel);
    /// True while the IR and assembly of the shown kernel are being compiled.
    bool isCompiling() const { return compiling_; }

signals:
    /// The IR and assembly of the shown kernel arrived (or failed).
    void explained();

private:
    void buildUi();
    void follow(const Selection& selection);
    void showKernel(int index, int32_t op);
    void markOp(int32_t op);
    void explainIfShown();
    void onLineClicked(int32_t op, CodePane* source);
    int kernelOfOp(int32_t op) const;

    SelectionModel* selection_ = nullptr;
    ResultPtr result_;
    std::shared_ptr<const codegen::CodePlan> plan_;
    QString planError_;
    int kernel_ = -1;
    int32_t marked_ = -1;
    QHash<int32_t, QString> names_;
    QHash<int32_t, QColor> colors_;
    /// What the IR and assembly panes show: result serial, kernel, target, level.
    QString explainedKey_;
    bool compiling_ = false;
    CodePane* clicked_ = nullptr;

    QLabel* title_ = nullptr;
    QComboBox* target_ = nullptr;
    QComboBox* level_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    CodePane* loops_ = nullptr;
    CodePane* ir_ = nullptr;
    CodePane* assembly_ = nullptr;
    LatestWorker worker_;
};

} // namespace stagecraft::views
