#pragma once
// The schedule diff of two results of one model (two strategies or two
// sessions): a summary paragraph and a tree of what differs (regrouped ops,
// groups only in A or only in B, split changes, instance counts, order
// changes). A is the result the other views show: the highlights index A's
// graph and schedule. On setPair every difference is highlighted; clicking a
// tree item narrows the highlights to that item and selects it (an op, group
// or instance of A) in the shared selection. "Side by side" adds the two
// graphs in a window (side_by_side.h).

#include "common/highlight.h"
#include "common/pipeline_result.h"
#include "common/selection.h"
#include "schedule/diff.h"

#include <QString>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace stagecraft::views {

class ComparisonRunner;
class SideBySideDiff;
struct DiffCategory;

class DiffView : public QWidget {
    Q_OBJECT
public:
    explicit DiffView(QWidget* parent = nullptr);
    ~DiffView() override;

    /// Diffs \p a (shown by the views) against \p b; both must be of the same
    /// graph (otherwise the view says so and shows no diff).
    void setPair(ResultPtr a, const QString& labelA, ResultPtr b, const QString& labelB);
    /// Keeps B, replaces A (the views now show \p a).
    void setShownResult(ResultPtr a, const QString& label);
    /// Offers the runner's results as B in a combo ("Compare with").
    void setRunner(ComparisonRunner* runner);
    /// Not owned; written on setPair and item clicks.
    void setHighlightModel(HighlightModel* model);
    /// Whether the diff marks the shared highlights (on by default): off
    /// while its dock is hidden, so a comparison run for Compare alone does
    /// not mark the graph; turning it on marks the current diff.
    void setMarking(bool on);
    /// Not owned; an item click selects its op, group or instance of A.
    void setSelectionModel(SelectionModel* model);

    const schedule::ScheduleDiff& diff() const { return diff_; }
    QString summary() const;
    QTreeWidget* tree() const { return tree_; }
    QComboBox* compareWith() const { return compareWith_; }
    /// The highlights of the whole diff (what setPair sets).
    const Highlights& allMarks() const { return all_; }

    /// Shows the two schedules' graphs side by side in a window of their
    /// own, with synchronized selection (built on first use); the "Side by
    /// side" button, checked while the window is open.
    void setSideBySide(bool on);
    /// Null until first shown.
    SideBySideDiff* sideBySide() const { return sideBySide_; }
    /// The side-by-side graphs are shown and one is still being laid out.
    bool isLayingOut() const;

private:
    void rebuild();
    void fillTree();
    void onItemClicked(QTreeWidgetItem* item);
    void refreshChoices();
    void chooseB(int index);
    /// Sets the highlights (the model's and the side-by-side graphs').
    void mark(const Highlights& marks);
    void updateSideBySide();

    ResultPtr a_;
    ResultPtr b_;
    QString labelA_;
    QString labelB_;
    schedule::ScheduleDiff diff_;
    std::vector<DiffCategory> categories_;
    Highlights all_;
    bool marking_ = true;
    HighlightModel* highlights_ = nullptr;
    SelectionModel* selection_ = nullptr;
    ComparisonRunner* runner_ = nullptr;
    QLabel* summary_ = nullptr;
    QComboBox* compareWith_ = nullptr;
    QTreeWidget* tree_ = nullptr;
    QPushButton* sideBySideButton_ = nullptr;
    SideBySideDiff* sideBySide_ = nullptr;
    /// The pair changed while the side-by-side window was hidden (or before
    /// it existed): it lays out when shown.
    bool sideBySideStale_ = true;
};

} // namespace stagecraft::views
