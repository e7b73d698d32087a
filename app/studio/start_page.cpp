// The start page: an introduction, Open, zoo models to start from, recent
// files and a guide to the views (see start_page.h).

#include "start_page.h"

#include "zoo/zoo.h"

#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace stagecraft::studio {

namespace {

/// A button that reads as a link: the name, then what it opens.
QPushButton* choiceButton(const QString& name, const QString& detail, QWidget* parent) {
    auto* button = new QPushButton(name + QStringLiteral(" — ") + detail, parent);
    button->setFlat(true);
    button->setStyleSheet(QStringLiteral("text-align: left; padding: 3px 6px;"));
    button->setCursor(Qt::PointingHandCursor);
    return button;
}

QLabel* wrappedLabel(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    return label;
}

} // namespace

StartPage::StartPage(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("startPage"));
    auto* content = new QWidget;
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(40, 30, 40, 30);
    column->setSpacing(14);
    auto* title = new QLabel(tr("Stagecraft Studio"), content);
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 1.8);
    big.setBold(true);
    title->setFont(big);
    column->addWidget(title);
    column->addWidget(wrappedLabel(
        tr("How a deep-learning model is scheduled onto an accelerator: its ops grouped into "
           "sub-graphs, each group split into instances that fit the local buffers, ordered, "
           "bound to cores and given scopes (GraphTurbo), simulated against TVM, AStitch, AGO, "
           "IOS and DLA; change the schedule and emit its kernels."),
        content));
    auto* open = new QPushButton(tr("Open a model or session…"), content);
    open->setObjectName(QStringLiteral("startOpen"));
    open->setToolTip(tr("An ONNX model (.onnx) or a saved session (.stagecraft); Ctrl+O"));
    connect(open, &QPushButton::clicked, this, &StartPage::openRequested);
    column->addWidget(open, 0, Qt::AlignLeft);
    column->addWidget(zooBox());
    auto* recent = new QGroupBox(tr("Recent"), content);
    recentList_ = new QVBoxLayout(recent);
    column->addWidget(recent);
    column->addWidget(guideBox());
    column->addStretch(1);
    content->setMaximumWidth(980);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    setRecent({});
}

QStringList StartPage::suggestedModels() {
    return {QStringLiteral("zoo:fig3-chain"), QStringLiteral("zoo:fig2-blocks"),
            QStringLiteral("zoo:resnet50"), QStringLiteral("zoo:mobilenet-v2"),
            QStringLiteral("zoo:bert-base")};
}

QWidget* StartPage::zooBox() {
    auto* box = new QGroupBox(tr("Start from a model of the zoo (generated, seeded weights)"));
    auto* list = new QVBoxLayout(box);
    for (const QString& path : suggestedModels()) {
        const zoo::ZooModelInfo* info = zoo::findZooModel(path.mid(4).toStdString());
        if (info == nullptr)
            continue;
        QString description = QString::fromStdString(info->description);
        if (info->setup)
            description += tr(" — opens on %1 at the %2 level")
                               .arg(QString::fromStdString(info->setup->arch),
                                    QString::fromStdString(info->setup->level).toUpper());
        QPushButton* button = choiceButton(QString::fromStdString(info->name), description, box);
        button->setObjectName(QStringLiteral("start-") + path.mid(4));
        connect(button, &QPushButton::clicked, this, [this, path] { emit pathChosen(path); });
        list->addWidget(button);
    }
    return box;
}

QWidget* StartPage::guideBox() {
    auto* box = new QGroupBox(tr("What the views show"));
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(wrappedLabel(
        tr("<b>Graph</b> (centre): the ops, boxed by group, with each group's split and "
           "footprint. <b>Instances</b>: each group's instances with their binding and scope, "
           "numbered in execution order. <b>Timeline</b>, <b>occupancy</b> and <b>overlap</b>: "
           "the simulated run: tasks per unit, the LB and GB over time with spills, busy "
           "compute units. <b>Costs</b>: groups or kernels sorted by time, bytes and spills. "
           "<b>Inspector</b>: what is selected in any view, the schedule's "
           "overview when nothing is, and the edits (split, merge, order). <b>Compare</b>: every "
           "strategy on the same model; <b>Diff</b>: two schedules side by side; <b>Steps</b>: "
           "the algorithms step by step. The tool bar's <b>Level</b> says where instances must "
           "fit: auto simulates the LB and the GB and keeps the faster."),
        box));
    return box;
}

void StartPage::setRecent(const QStringList& paths) {
    while (QLayoutItem* item = recentList_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    QStringList existing;
    for (const QString& path : paths)
        if (QFileInfo(path).isFile())
            existing << path;
    if (existing.isEmpty()) {
        recentList_->addWidget(new QLabel(tr("Nothing opened yet."), this));
        return;
    }
    for (const QString& path : std::as_const(existing)) {
        QPushButton* button = choiceButton(QFileInfo(path).fileName(), path, this);
        connect(button, &QPushButton::clicked, this, [this, path] { emit pathChosen(path); });
        recentList_->addWidget(button);
    }
}

} // namespace stagecraft::studio
