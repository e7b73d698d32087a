#include "dialogs/precision_picker.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

namespace stagecraft::views {

using namespace Qt::StringLiterals;

namespace {

constexpr int kModel = -1;

} // namespace

PrecisionPicker::PrecisionPicker(QWidget* parent)
    : QWidget(parent)
    , choices_(new QComboBox) {
    setObjectName(u"precisionPicker"_s);
    choices_->setObjectName(u"precisionCombo"_s);
    choices_->addItem(tr("model"), kModel);
    choices_->setItemData(0, tr("the element types the model stores"), Qt::ToolTipRole);
    const std::pair<ir::DType, QString> kinds[] = {
        {ir::DType::Float32, tr("every floating-point tensor in f32")},
        {ir::DType::Float16, tr("every floating-point tensor in f16, as the paper runs (§5)")},
        {ir::DType::BFloat16, tr("every floating-point tensor in bf16")},
    };
    for (const auto& [type, tip] : kinds) {
        choices_->addItem(QString::fromUtf8(ir::dtypeName(type)), static_cast<int>(type));
        choices_->setItemData(choices_->count() - 1, tip, Qt::ToolTipRole);
    }
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Precision")));
    layout->addWidget(choices_);
    connect(choices_, &QComboBox::currentIndexChanged, this,
            [this] { emit changed(choices_->currentData().toInt()); });
}

std::optional<ir::DType> PrecisionPicker::precision() const {
    int value = choices_->currentData().toInt();
    if (value == kModel)
        return std::nullopt;
    return static_cast<ir::DType>(value);
}

void PrecisionPicker::setChoice(std::optional<ir::DType> precision) {
    const QSignalBlocker blocker(choices_);
    choices_->setCurrentIndex(
        choices_->findData(precision ? static_cast<int>(*precision) : kModel));
}

} // namespace stagecraft::views
