#pragma once
// The algorithm step-through panel (teaching): plays, steps forward and back
// through the steps of buildSteps() — Algorithm 2 merges, Algorithm 3's
// visit/ready/order lists (Fig. 7b-e), Algorithm 4 decisions, §4.3 liveness
// and spills — showing one explanation sentence per step and lighting up
// the step's ops and instances through the shared HighlightModel.

#include "common/highlight.h"
#include "common/pipeline_result.h"
#include "stepper/algorithm_steps.h"

#include <QPointer>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace stagecraft::views {

/// Which steps the panel walks through.
enum class StepFilter { All, Grouping, Ordering, Binding, Memory };

class StepperView : public QWidget {
    Q_OBJECT
public:
    explicit StepperView(QWidget* parent = nullptr);

    /// Shows the steps of \p result from the first one; nullptr empties the panel.
    void setResult(ResultPtr result);
    /// The model the current step's highlights go to (not owned; may be null).
    void setHighlightModel(HighlightModel* model);

    /// Position of the current step among the filtered steps, -1 when none.
    int currentStep() const { return current_; }
    /// Number of steps the filter keeps.
    int stepCount() const { return static_cast<int>(visible_.size()); }
    /// The filtered step at \p position, or nullptr.
    const AlgorithmStep* stepAt(int position) const;
    /// Every step of the result, unfiltered.
    const std::vector<AlgorithmStep>& allSteps() const { return steps_; }

    void setFilter(StepFilter filter);
    StepFilter filter() const { return filter_; }
    /// Milliseconds between steps while playing.
    void setInterval(int milliseconds);
    int interval() const;
    bool isPlaying() const;

public slots:
    void stepForward();
    void stepBack();
    void goToStep(int position);
    void goToFirst();
    void goToLast();
    void play();
    void pause();
    void togglePlay();

signals:
    /// The current position among the filtered steps changed.
    void stepChanged(int position);
    void playingChanged(bool playing);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void buildUi();
    QWidget* buildControls();
    QWidget* buildLists();
    void connectControls();
    void applyFilter();
    void refresh();
    void showLists(const AlgorithmStep* step);
    void updateHighlights();
    void clearOwnHighlights();
    void advanceWhilePlaying();

    ResultPtr result_;
    std::vector<AlgorithmStep> steps_;
    /// Indices into steps_ the filter keeps.
    std::vector<int> visible_;
    int current_ = -1;
    StepFilter filter_ = StepFilter::All;
    QPointer<HighlightModel> highlights_;
    /// What this panel last set, so it only clears its own highlights.
    Highlights applied_;

    QTimer* timer_ = nullptr;
    QToolButton* first_ = nullptr;
    QToolButton* back_ = nullptr;
    QToolButton* play_ = nullptr;
    QToolButton* forward_ = nullptr;
    QToolButton* last_ = nullptr;
    QComboBox* speed_ = nullptr;
    QComboBox* filterBox_ = nullptr;
    QSlider* slider_ = nullptr;
    QLabel* counter_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* explanation_ = nullptr;
    QWidget* lists_ = nullptr;
    QLabel* visit_ = nullptr;
    QLabel* ready_ = nullptr;
    QLabel* order_ = nullptr;
};

} // namespace stagecraft::views
