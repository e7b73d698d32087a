#pragma once
// The form half of the architecture editor: the numbers people change most
// (clusters; per core group the count, LB bytes and weight reserve; GB and
// DDR bytes; each path's bandwidth, latency and channels; overheads) as text
// fields named by their JSON path in the architecture file, and the op types
// the accelerator takes (comma-separated; blank: all). The structure
// (which groups, units and paths exist) comes from the architecture last
// shown; the editor's JSON tab changes it.

#include "arch/arch.h"
#include "support/expected.h"

#include <QWidget>

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

class QFormLayout;
class QLineEdit;
class QScrollArea;

namespace stagecraft::views {

class ArchForm : public QWidget {
    Q_OBJECT
public:
    explicit ArchForm(QWidget* parent = nullptr);

    /// Shows \p arch; rebuilds the fields when its structure differs from
    /// the one shown.
    void setArch(const arch::Arch& arch);
    /// The shown architecture with the fields' values. Fails when a field is
    /// not a number; the values themselves are arch::parseArch's to judge.
    Expected<arch::Arch> arch() const;
    /// Marks the field that \p message (a "<JSON path>: <reason>" error) is
    /// about, and clears the mark of every other field.
    void markError(const QString& message);

signals:
    /// The user changed a field.
    void edited();

private:
    using IntRef = std::function<int64_t&(arch::Arch&)>;
    using NumberRef = std::function<double&(arch::Arch&)>;
    using TextRef = std::function<std::string&(arch::Arch&)>;
    using OpsRef = std::function<std::optional<std::vector<ir::OpKind>>&(arch::Arch&)>;
    using Ref = std::variant<IntRef, NumberRef, TextRef, OpsRef>;
    struct Field {
        QLineEdit* edit = nullptr;
        /// The JSON path of the value, e.g. "cluster.core_groups[0].count".
        QString path;
        Ref ref;
    };

    void rebuild(const arch::Arch& arch);
    void addGroupFields(QFormLayout* form, const arch::Arch& arch, size_t group);
    void addPathFields(QFormLayout* form, const arch::Arch& arch, size_t path);
    void addField(QFormLayout* form, const QString& label, const QString& path, Ref ref);
    void showValues();

    arch::Arch shown_;
    std::vector<Field> fields_;
    QScrollArea* scroll_ = nullptr;
    QWidget* content_ = nullptr;
};

} // namespace stagecraft::views
