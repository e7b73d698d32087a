#pragma once
// The instance view of stagecraft-studio (GraphTurbo Fig. 6–9): the
// sub-graph instances of every group with their needed (dark) and redundant
// (gray) edges, their position in the order, binding and scope, and the
// inserted concat/copy/redistribute ops. It follows the shared selection
// (an op or a group lights up its group's instances) and selects what is
// clicked. objectName "instanceView".

#include "common/highlight.h"
#include "common/pipeline_result.h"
#include "common/selection.h"
#include "instances/instance_layout.h"

#include <QPointer>
#include <QWidget>

#include <array>
#include <memory>

class QAction;
class QLabel;
class QToolBar;

namespace stagecraft::views {

class InstanceCanvas;
struct InstanceDrawing;

class InstanceView : public QWidget {
    Q_OBJECT
public:
    explicit InstanceView(QWidget* parent = nullptr);
    ~InstanceView() override;

    void setResult(ResultPtr result);
    const ResultPtr& result() const { return result_; }
    void setSelectionModel(SelectionModel* model);
    /// Marks the instances a teaching or diff tool highlights (directly, or
    /// through their group or one of its ops) and reveals the first.
    void setHighlightModel(HighlightModel* model);

    bool showsRedundantEdges() const;
    bool showsDataMovement() const;
    /// The data movement drawn as one node per pair of groups.
    bool bundlesDataMovement() const;

    /// The whole drawing as SVG, or as PNG on white; false with \p error when it fails.
    bool exportSvg(const QString& path, QString* error) const;
    bool exportPng(const QString& path, QString* error) const;

    InstanceCanvas* canvas() const { return canvas_; }
    /// The drawing shown now (none before a result).
    const InstanceDrawing* drawing() const;

    /// A schedule with more inserted data-movement ops opens with them
    /// bundled by pair of groups and the redundant edges hidden, until the
    /// user chooses otherwise.
    static constexpr size_t kBusyMoves = 48;

public slots:
    void setShowRedundantEdges(bool show);
    void setShowDataMovement(bool show);
    void setBundleDataMovement(bool bundle);
    void fitToView();

private:
    void openUncluttered();
    QToolBar* createToolBar();
    QLabel* createLegend();
    std::shared_ptr<const InstanceDrawing> drawingFor(bool withMoves, bool bundled);
    /// Shows the drawing of the buttons' choice, the same instance in the middle.
    void showChosenDrawing();
    void onCanvasClicked(const LayoutHit& hit);
    void followSelection(const Selection& selection);
    void highlight(const Selection& selection, bool reveal);
    void applyMarks(bool reveal);
    template <typename Exporter>
    bool exportWith(Exporter exporter, const QString& path, QString* error) const;

    ResultPtr result_;
    /// Without data-movement ops, with each, with them bundled: each laid
    /// out when first shown.
    std::array<std::shared_ptr<const InstanceDrawing>, 3> drawings_;
    QPointer<SelectionModel> selection_;
    QPointer<HighlightModel> highlights_;
    InstanceCanvas* canvas_ = nullptr;
    QAction* redundantAction_ = nullptr;
    QAction* movesAction_ = nullptr;
    QAction* bundleAction_ = nullptr;
    /// The tool bar's legend of Algorithm 3's states (its action shows it).
    QAction* stepLegend_ = nullptr;
    QAction* bindLegend_ = nullptr;
    /// "312 inserted data-movement ops … bundled": a busy schedule opened uncluttered.
    QAction* busyNote_ = nullptr;
    QLabel* busyLabel_ = nullptr;
    bool userChoseView_ = false;
    bool selecting_ = false;
};

} // namespace stagecraft::views
