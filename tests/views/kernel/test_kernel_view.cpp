// The kernel view on fig3-chain (teaching, LB, GraphTurbo): it follows the
// shared selection (an instance shows its kernel, a group its first, an op
// the kernel that computes it), marks the selected op's lines in the loop
// nest, the IR and the assembly (and only those), and a click on a line
// selects its op; the IR and assembly are compiled when their tab opens.

#include "common/selection.h"
#include "kernel/code_pane.h"
#include "kernel/kernel_view.h"
#include "result_fixture.h"

#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

using namespace stagecraft;
using views::CodePane;
using views::KernelView;
using views::Selection;

namespace {

/// The first op with lines in \p pane other than \p not.
int32_t someOp(const CodePane* pane, int32_t other = -1) {
    for (const views::CodeLine& line : pane->lines())
        if (line.op >= 0 && line.op != other)
            return line.op;
    return -1;
}

/// Every marked line is \p op's, and \p op has lines.
bool marksExactly(const CodePane* pane, int32_t op) {
    std::vector<int> lines = pane->linesOf(op);
    if (lines.empty() || pane->markedOp() != op)
        return false;
    for (int line : lines)
        if (pane->lines()[static_cast<size_t>(line)].op != op)
            return false;
    return true;
}

} // namespace

class TestKernelView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        result_ = test::resultFor({});
        QVERIFY(result_->eval.schedule.instances.size() > 1);
    }

    void showsTheSelectedInstancesKernel() {
        views::SelectionModel selection;
        KernelView view;
        view.setSelectionModel(&selection);
        view.setResult(result_);
        QCOMPARE(view.kernelIndex(), 0);
        QVERIFY(!view.pane(KernelView::Pane::Loops)->lines().empty());
        const auto& instances = result_->eval.schedule.instances;
        const auto last = static_cast<int32_t>(instances.size() - 1);
        selection.select({Selection::Kind::Instance, last, -1});
        QVERIFY(view.kernelIndex() > 0);
        QVERIFY(view.kernelSymbol().endsWith(QString::fromStdString(instances.back().label)));
        const QString text = view.pane(KernelView::Pane::Loops)->toPlainText();
        QVERIFY(text.contains(QStringLiteral("instance ") +
                              QString::fromStdString(instances.back().label)));
        // A group shows its first instance's kernel.
        const auto group = instances.front().group;
        selection.select({Selection::Kind::Group, group.value(), -1});
        const auto first = result_->eval.schedule.groups[group].instances.front();
        QVERIFY2(view.kernelSymbol().endsWith(QString::fromStdString(instances[first].label)),
                 qPrintable(view.kernelSymbol()));
    }

    void selectingAnOpMarksItsLinesAndAClickSelectsTheOp() {
        views::SelectionModel selection;
        KernelView view;
        view.resize(900, 600);
        view.setSelectionModel(&selection);
        view.setResult(result_);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        CodePane* loops = view.pane(KernelView::Pane::Loops);
        const int32_t op = someOp(loops);
        QVERIFY(op >= 0);
        selection.select({Selection::Kind::Op, op, -1});
        QVERIFY(marksExactly(loops, op));
        const int32_t other = someOp(loops, op);
        QVERIFY(other >= 0);
        const int markedLine = loops->linesOf(op).front();
        const int otherLine = loops->linesOf(other).front();
        QVERIFY(loops->tintOf(markedLine) != loops->tintOf(otherLine));
        QVERIFY(loops->tintOf(markedLine).hsvSaturation() >
                loops->tintOf(otherLine).hsvSaturation());
        // Click the other op's statement.
        loops->setMarkedOp(other, true); // scrolls it into view
        QTest::mouseClick(loops->viewport(), Qt::LeftButton, {},
                          loops->lineRect(otherLine).center());
        QCOMPARE(selection.current().kind, Selection::Kind::Instance);
        QCOMPARE(selection.current().op, other);
        QVERIFY(marksExactly(loops, other));
    }

    void irAndAssemblyTieTheirLinesToTheOps() {
        views::SelectionModel selection;
        KernelView view;
        view.setSelectionModel(&selection);
        view.setResult(result_);
        QSignalSpy explained(&view, &KernelView::explained);
        view.showPane(KernelView::Pane::Assembly);
        QVERIFY(view.isCompiling());
        QVERIFY(explained.wait(120000));
        QVERIFY(!view.isCompiling());
        CodePane* assembly = view.pane(KernelView::Pane::Assembly);
        CodePane* ir = view.pane(KernelView::Pane::Ir);
        const int32_t op = someOp(view.pane(KernelView::Pane::Loops));
        selection.select({Selection::Kind::Op, op, -1});
        QVERIFY(marksExactly(assembly, op));
        QVERIFY(marksExactly(ir, op));
        for (const views::CodeLine& line : assembly->lines())
            if (line.op >= 0)
                QVERIFY(line.sourceLine > 0);
        // The same tab again compiles nothing new; another target does.
        view.showPane(KernelView::Pane::Ir);
        QVERIFY(!view.isCompiling());
        view.setTarget(QStringLiteral("host"), 1);
        QVERIFY(view.isCompiling());
        QVERIFY(explained.wait(120000));
        QVERIFY(marksExactly(ir, op));
    }

private:
    views::ResultPtr result_;
};

QTEST_MAIN(TestKernelView)
#include "test_kernel_view.moc"
