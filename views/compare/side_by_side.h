#pragma once
// Two schedules of one model side by side: the graph of each, grouped its
// own way, with a heading of its strategy and figures. Selection is
// synchronized: A's graph shares the studio's selection; B's has its own,
// kept in step through translateSelection (an op or tensor is the same in
// both, a group goes to the group of the other schedule that shares most of
// its ops, an instance to its op or its group's counterpart). B's graph
// marks the ops the diff marks in A.

#include "common/highlight.h"
#include "common/pipeline_result.h"
#include "common/selection.h"
#include "compare/diff_items.h"

#include <QString>
#include <QWidget>

#include <vector>

class QLabel;

namespace stagecraft::views {

class GraphView;

/// \p selection of result \p from as the selection of the same thing in \p
/// to (same graph), through \p mapping (mapGroups(from, to)); None when
/// nothing corresponds.
Selection translateSelection(const Selection& selection, const PipelineResult& from,
                             const std::vector<GroupMapping>& mapping);

class SideBySideDiff : public QWidget {
    Q_OBJECT
public:
    explicit SideBySideDiff(QWidget* parent = nullptr);
    ~SideBySideDiff() override;

    /// Shows \p a and \p b (same graph) with their labels.
    void setPair(ResultPtr a, const QString& labelA, ResultPtr b, const QString& labelB);
    /// The diff's highlights in A; B marks their ops.
    void setMarks(const Highlights& marks);
    /// A's selection (not owned): usually the studio's shared one.
    void setSelectionModel(SelectionModel* model);

    GraphView* graphA() const { return graphA_; }
    GraphView* graphB() const { return graphB_; }
    SelectionModel* selectionB() const { return selectionB_; }
    QString headingA() const;
    QString headingB() const;

signals:
    /// The user closed the window (minimizing it is not closing it).
    void closed();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void followA(const Selection& selection);
    void followB(const Selection& selection);

    ResultPtr a_;
    ResultPtr b_;
    std::vector<GroupMapping> aToB_;
    std::vector<GroupMapping> bToA_;
    SelectionModel* selectionA_ = nullptr;
    SelectionModel* ownSelectionA_;
    SelectionModel* selectionB_;
    HighlightModel* marksA_;
    HighlightModel* marksB_;
    QLabel* headingA_;
    QLabel* headingB_;
    GraphView* graphA_;
    GraphView* graphB_;
    /// A selection is being passed to the other side: do not pass it back.
    bool syncing_ = false;
};

} // namespace stagecraft::views
