// The studio's document flow on real models: open → edit a split → undo →
// redo → save → reopen gives the saved session and the same schedule byte
// for byte; refused edits change nothing; corrupt session files and models
// changed on disk are reported and change nothing.

#include "common/selection.h"
#include "io/schedule_json.h"
#include "io/session_json.h"
#include "studio/session_document.h"
#include "studio_fixture.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QStandardPaths>
#include <QUndoStack>

using namespace stagecraft;

namespace {

/// A split of group \p group other than its current one: a candidate's dim
/// with twice its factor, when that divides the dim.
std::optional<schedule::Overrides> otherSplit(const views::PipelineResult& r,
                                              partition::GroupId group) {
    const auto& g = r.eval.schedule.groups[group];
    const ir::Shape& shape = r.graph->tensor(g.splitInfo.output).shape;
    for (const auto& candidate : g.splitInfo.candidates) {
        int64_t factor = candidate.factor * 2;
        if (shape[static_cast<size_t>(candidate.dim)] % factor != 0)
            continue;
        schedule::Overrides next = r.overrides;
        ir::OpId first = r.eval.schedule.partition.ops(group)[0];
        next.splits.push_back({r.graph->op(first).name, candidate.dim, factor});
        return next;
    }
    return std::nullopt;
}

std::string scheduleBytes(const views::PipelineResult& r) {
    io::ScheduleDocInfo info;
    info.overrides = r.overrides;
    return io::writeScheduleJson(*r.graph, r.eval.schedule, info);
}

QByteArray fileBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestStudioSession : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        model_ = test::writeZooModel(dir_, "fig3-chain");
    }

    void init() {
        window_ = std::make_unique<studio::MainWindow>();
        window_->setInteractive(false);
        window_->setDefaults(test::testDefaults("teaching"));
        QVERIFY(window_->openModel(model_));
        QVERIFY(test::waitForResult(*window_));
    }

    void cleanup() {
        window_->document()->undoStack()->setClean();
        window_.reset();
    }

    void opensTheModelClean() {
        QVERIFY(!window_->document()->isModified());
        QCOMPARE(window_->result()->eval.schedule.groups.size(), size_t{4});
        QCOMPARE(QString::fromStdString(window_->document()->session().modelSha256).size(), 64);
    }

    void splitUndoRedoSaveReopen() {
        auto before = window_->result();
        std::string unsplitBytes = scheduleBytes(*before);
        auto edit = otherSplit(*before, partition::GroupId(1));
        QVERIFY(edit);
        io::Session next = window_->document()->session();
        next.overrides = *edit;
        window_->tryChange(QStringLiteral("split b"), next);
        QVERIFY(test::waitForEdit(*window_, nullptr));
        const auto& group = window_->result()->eval.schedule.groups[partition::GroupId(1)];
        QCOMPARE(group.split->factor, edit->splits.back().factor);
        QVERIFY(group.splitOverridden);
        QVERIFY(window_->document()->isModified());
        std::string editedBytes = scheduleBytes(*window_->result());
        QVERIFY(editedBytes != unsplitBytes);
        // The status bar says what its changes in brackets are against.
        auto* figures = window_->findChild<QLabel*>(QStringLiteral("figures"));
        QVERIFY(figures);
        QVERIFY2(figures->toolTip().contains(QStringLiteral("before “split b”")),
                 qPrintable(figures->toolTip()));
        QVERIFY(!figures->text().contains(QStringLiteral("undoing")));

        window_->document()->undoStack()->undo();
        QVERIFY(test::waitForResult(*window_));
        QCOMPARE(scheduleBytes(*window_->result()), unsplitBytes);
        QVERIFY(!window_->document()->isModified());
        QVERIFY2(figures->text().endsWith(
                     QStringLiteral("changes vs. the schedule before undoing “split b”")),
                 qPrintable(figures->text()));
        window_->document()->undoStack()->redo();
        QVERIFY(test::waitForResult(*window_));
        QCOMPARE(scheduleBytes(*window_->result()), editedBytes);
        QVERIFY2(figures->text().endsWith(
                     QStringLiteral("changes vs. the schedule before redoing “split b”")),
                 qPrintable(figures->text()));

        QString path = dir_.filePath(QStringLiteral("edited.stagecraft"));
        QVERIFY(window_->saveAs(path));
        QVERIFY(!window_->document()->isModified());
        io::Session saved = window_->document()->session();

        studio::MainWindow reopened;
        reopened.setInteractive(false);
        QVERIFY(reopened.openSession(path));
        QVERIFY(test::waitForResult(reopened));
        QVERIFY(reopened.document()->session() == saved);
        QCOMPARE(scheduleBytes(*reopened.result()), editedBytes);
        QCOMPARE(reopened.document()->filePath(), path);
        QVERIFY(!reopened.document()->isModified());
        // Saving the reopened session gives the same bytes.
        QString again = dir_.filePath(QStringLiteral("again.stagecraft"));
        QVERIFY(reopened.saveAs(again));
        QCOMPARE(fileBytes(again), fileBytes(path));
    }

    // The same path as a user: the inspector's split combo → the pipeline →
    // an undoable command; Undo brings the split back.
    void splitChosenInTheInspector() {
        auto* split = window_->findChild<QComboBox*>(QStringLiteral("inspectorSplit"));
        QVERIFY(split);
        window_->selection()->select({views::Selection::Kind::Group, 2});
        QVERIFY(split->isEnabled());
        int64_t before =
            window_->result()->eval.schedule.groups[partition::GroupId(2)].split->factor;
        int choice = -1;
        for (int i = 0; i < split->count() && choice < 0; ++i)
            if (i != split->currentIndex() && split->itemText(i).startsWith(QStringLiteral("dim")))
                choice = i;
        QVERIFY(choice > 0);
        QString text = split->itemText(choice);
        split->setCurrentIndex(choice);
        QVERIFY(test::waitForEdit(*window_, nullptr));
        const auto& group = window_->result()->eval.schedule.groups[partition::GroupId(2)];
        QVERIFY2(text.startsWith(
                     QStringLiteral("dim %1 × %2").arg(group.split->dim).arg(group.split->factor)),
                 qPrintable(text));
        QCOMPARE(window_->document()->undoStack()->count(), 1);
        QVERIFY(
            window_->document()->undoStack()->text(0).startsWith(QStringLiteral("Split group c")));
        window_->document()->undoStack()->undo();
        QVERIFY(test::waitForResult(*window_));
        QCOMPARE(window_->result()->eval.schedule.groups[partition::GroupId(2)].split->factor,
                 before);
    }

    void orderChosenInTheToolBar() {
        auto* order = window_->findChild<QComboBox*>(QStringLiteral("orderCombo"));
        QVERIFY(order);
        QVERIFY(window_->result()->eval.schedule.orderKind == schedule::OrderKind::DFS);
        order->setCurrentIndex(order->findText(QStringLiteral("BFS")));
        QVERIFY(test::waitForEdit(*window_, nullptr));
        QVERIFY(window_->result()->eval.schedule.orderKind == schedule::OrderKind::BFS);
        QVERIFY(window_->document()->session().order == schedule::OrderChoice::BFS);
        // BFS runs group after group: a1..a8 first.
        QCOMPARE(window_->result()
                     ->eval.schedule.instances[window_->result()->eval.schedule.order[0]]
                     .label,
                 std::string("a1"));
        window_->document()->undoStack()->undo();
        QVERIFY(test::waitForResult(*window_));
        QCOMPARE(order->currentData().toInt(), static_cast<int>(schedule::OrderChoice::Best));
        // "best" is by buffer use, and says which order it kept.
        const QString kept = window_->result()->eval.schedule.orderKind == schedule::OrderKind::BFS
                                 ? QStringLiteral("BFS")
                                 : QStringLiteral("DFS");
        QCOMPARE(order->currentText(), QStringLiteral("by buffer use: ") + kept);
        QVERIFY(order->toolTip().contains(QStringLiteral("memory utilization")));
    }

    void mergeMakingACycleIsRefused() {
        const auto& r = *window_->result();
        io::Session next = window_->document()->session();
        // a → b → c is a chain: merging a with c would go through b.
        next.overrides.merges.push_back(
            {r.graph->op(r.eval.schedule.partition.ops(partition::GroupId(0))[0]).name,
             r.graph->op(r.eval.schedule.partition.ops(partition::GroupId(2))[0]).name});
        int commands = window_->document()->undoStack()->count();
        QString refusal;
        window_->tryChange(QStringLiteral("merge a and c"), next);
        QVERIFY(!test::waitForEdit(*window_, &refusal));
        QVERIFY2(refusal.contains(QStringLiteral("cycle")), qPrintable(refusal));
        QCOMPARE(window_->document()->undoStack()->count(), commands);
        QVERIFY(window_->document()->session().overrides.merges.empty());
        QVERIFY(!window_->document()->isModified());
    }

    void orderAgainstADependencyIsRefused() {
        const auto& r = *window_->result();
        io::Session next = window_->document()->session();
        for (auto it = r.eval.schedule.order.rbegin(); it != r.eval.schedule.order.rend(); ++it)
            next.overrides.order.push_back(r.eval.schedule.instances[*it].label);
        QString refusal;
        window_->tryChange(QStringLiteral("reverse order"), next);
        QVERIFY(!test::waitForEdit(*window_, &refusal));
        QVERIFY2(refusal.contains(QStringLiteral("before")) ||
                     refusal.contains(QStringLiteral("depend")),
                 qPrintable(refusal));
        QVERIFY(window_->document()->session().overrides.order.empty());
    }

    void corruptSessionChangesNothing_data() {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << QByteArray("{ nope") << QStringLiteral("corrupt.stagecraft");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("corrupt.stagecraft");
        QTest::newRow("other format")
            << QByteArray(R"({"format": "stagecraft-schedule", "version": 1})")
            << QStringLiteral("format");
    }

    void corruptSessionChangesNothing() {
        QFETCH(QByteArray, contents);
        QFETCH(QString, message);
        QString path = dir_.filePath(QStringLiteral("corrupt.stagecraft"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(contents);
        file.close();
        io::Session before = window_->document()->session();
        auto result = window_->result();
        QVERIFY(!window_->openSession(path));
        QVERIFY2(window_->lastError().contains(message), qPrintable(window_->lastError()));
        QVERIFY(!window_->lastError().contains(QLatin1Char('\n')));
        QVERIFY(window_->document()->session() == before);
        QCOMPARE(window_->result(), result);
        QCOMPARE(fileBytes(path), contents);
    }

    void modelChangedOnDiskIsReported() {
        QString path = dir_.filePath(QStringLiteral("changing.stagecraft"));
        QVERIFY(window_->saveAs(path));
        io::Session session = window_->document()->session();
        session.modelSha256 = std::string(64, '0');
        QVERIFY(io::saveSession(path.toStdString(), session).ok());
        studio::MainWindow other;
        other.setInteractive(false);
        QSignalSpy failed(&other, &studio::MainWindow::failed);
        QVERIFY(other.openSession(path));
        QVERIFY(!test::waitForResult(other));
        QVERIFY(!failed.isEmpty());
        QVERIFY2(failed.front().front().toString().contains(QStringLiteral("changed on disk")),
                 qPrintable(failed.front().front().toString()));
        QVERIFY(!other.document()->hasModel());
    }

    void unsavedChangesAreNotDropped() {
        auto edit = otherSplit(*window_->result(), partition::GroupId(1));
        QVERIFY(edit);
        io::Session next = window_->document()->session();
        next.overrides = *edit;
        window_->tryChange(QStringLiteral("split b"), next);
        QVERIFY(test::waitForEdit(*window_, nullptr));
        QVERIFY(!window_->openModel(model_));
        QVERIFY(window_->lastError().contains(QStringLiteral("unsaved")));
        QVERIFY(window_->document()->session() == next ||
                window_->document()->session().overrides == next.overrides);
    }

    void selectionFollowsValidIds() {
        window_->selection()->select({views::Selection::Kind::Instance, 14});
        auto edit = otherSplit(*window_->result(), partition::GroupId(2));
        QVERIFY(edit);
        io::Session next = window_->document()->session();
        next.overrides = *edit;
        window_->tryChange(QStringLiteral("split a"), next);
        QVERIFY(test::waitForEdit(*window_, nullptr));
        const auto& current = window_->selection()->current();
        QVERIFY(current.kind == views::Selection::Kind::None ||
                static_cast<size_t>(current.id) <
                    window_->result()->eval.schedule.instances.size());
    }

private:
    QTemporaryDir dir_;
    QString model_;
    std::unique_ptr<studio::MainWindow> window_;
};

QTEST_MAIN(TestStudioSession)
#include "test_studio_session.moc"
