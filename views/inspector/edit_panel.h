#pragma once
// The inspector's edit controls for the current selection, offering only
// values that make sense for it: the split of its group (unsplit or one of
// Algorithm 1's candidates), a merge with a neighbouring group, an ungroup at
// the selected op, the scope of a group output. Each choice emits one
// EditRequest (edit_requests.h); the pipeline decides whether it is valid.

#include "common/edit_request.h"
#include "common/pipeline_result.h"
#include "common/selection.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPushButton;

namespace stagecraft::views {

class EditPanel : public QWidget {
    Q_OBJECT
public:
    explicit EditPanel(QWidget* parent = nullptr);

    /// Fills the controls for \p selection of \p result (null: all disabled).
    void setContext(const ResultPtr& result, const Selection& selection);

signals:
    void editRequested(const stagecraft::views::EditRequest& request);

private:
    void fillSplit();
    void fillMerge();
    void fillUngroup();
    void fillHost();
    void fillScope();
    void splitChosen(int index);
    void mergeClicked();
    void ungroupClicked();
    void hostClicked();
    void scopeChosen(int index);

    ResultPtr result_;
    Selection selection_;
    std::optional<schedule::GroupId> group_;
    std::optional<ir::TensorId> pinnable_;
    QComboBox* split_ = nullptr;
    QComboBox* mergeTarget_ = nullptr;
    QPushButton* merge_ = nullptr;
    QPushButton* ungroup_ = nullptr;
    QPushButton* host_ = nullptr;
    QLabel* scopeTensor_ = nullptr;
    QComboBox* scope_ = nullptr;
};

} // namespace stagecraft::views
