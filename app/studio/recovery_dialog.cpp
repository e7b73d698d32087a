#include "studio/recovery_dialog.h"

#include "io/session_json.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace stagecraft::studio {

namespace {

/// One row: "resnet50.onnx, autosaved 2026-12-02 03:41", or the file's name
/// and "unreadable"; the tooltip holds the whole path (and why it is
/// unreadable).
QListWidgetItem* describe(const QString& path) {
    QFileInfo info(path);
    QString when = info.lastModified().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    Expected<io::Session> session = io::loadSession(path.toStdString());
    auto* item = new QListWidgetItem;
    if (session.ok()) {
        QString model = QString::fromStdString(session->modelPath);
        item->setText(QObject::tr("%1, autosaved %2").arg(QFileInfo(model).fileName(), when));
        item->setToolTip(model + QLatin1Char('\n') + path);
    } else {
        item->setText(QObject::tr("%1, autosaved %2: unreadable").arg(info.fileName(), when));
        item->setToolTip(QString::fromStdString(session.error().message()));
    }
    return item;
}

} // namespace

RecoveryDialog::RecoveryDialog(const QStringList& orphans, QWidget* parent)
    : QDialog(parent)
    , orphans_(orphans)
    , list_(new QListWidget(this)) {
    setWindowTitle(tr("Recover sessions"));
    auto* layout = new QVBoxLayout(this);
    QString count = orphans.size() == 1
                        ? tr("One unsaved session was autosaved:")
                        : tr("%1 unsaved sessions were autosaved:").arg(orphans.size());
    layout->addWidget(
        new QLabel(tr("Stagecraft Studio did not exit cleanly. ") + count + QLatin1Char('\n') +
                       tr("Recover the selected one, discard them all, or decide later."),
                   this));
    for (const QString& path : orphans)
        list_->addItem(describe(path));
    setMinimumWidth(560);
    list_->setCurrentRow(0);
    layout->addWidget(list_);
    auto* buttons = new QDialogButtonBox(this);
    QPushButton* recover = buttons->addButton(tr("Recover"), QDialogButtonBox::AcceptRole);
    QPushButton* discard = buttons->addButton(tr("Discard All"), QDialogButtonBox::DestructiveRole);
    buttons->addButton(tr("Later"), QDialogButtonBox::RejectRole);
    recover->setDefault(true);
    connect(recover, &QPushButton::clicked, this, &QDialog::accept);
    connect(discard, &QPushButton::clicked, this, &RecoveryDialog::discardAll);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(list_, &QListWidget::itemDoubleClicked, this, &QDialog::accept);
    layout->addWidget(buttons);
}

QString RecoveryDialog::chosen() const {
    int row = list_->currentRow();
    return row >= 0 && row < orphans_.size() ? orphans_[row] : QString();
}

void RecoveryDialog::discardAll() {
    for (const QString& path : orphans_)
        QFile::remove(path);
    reject();
}

QStringList RecoveryDialog::rows() const {
    QStringList texts;
    for (int i = 0; i < list_->count(); ++i)
        texts << list_->item(i)->text();
    return texts;
}

} // namespace stagecraft::studio
