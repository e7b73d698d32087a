#include "kernel/kernel_view.h"

#include "codegen/kernel_explain.h"
#include "common/selection.h"
#include "driver/pipeline.h"
#include "kernel/code_pane.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>

namespace stagecraft::views {

namespace {

std::vector<CodeLine> codeLines(const std::vector<codegen::ExplainedLine>& lines) {
    std::vector<CodeLine> result;
    result.reserve(lines.size());
    for (const codegen::ExplainedLine& line : lines)
        result.push_back({QString::fromStdString(line.text), line.op.value(), line.sourceLine});
    return result;
}

std::vector<CodeLine> codeLines(const codegen::KernelListing& listing) {
    std::vector<CodeLine> result;
    for (size_t i = 0; i < listing.lines.size(); ++i)
        result.push_back({QString::fromStdString(listing.lines[i].text),
                          listing.lines[i].op.value(), static_cast<int>(i) + 1});
    return result;
}

/// A light tint per op of the kernel, hues a golden angle apart.
QColor opTint(int rank) {
    const int hue = static_cast<int>(std::fmod(rank * 137.508, 360.0));
    return QColor::fromHsv(hue, 48, 255);
}

} // namespace

KernelView::KernelView(QWidget* parent)
    : QWidget(parent)
    , worker_(QStringLiteral("kernel explain")) {
    buildUi();
}

KernelView::~KernelView() {
    worker_.stop();
}

void KernelView::buildUi() {
    title_ = new QLabel(tr("Select an instance, a group or an op to see its kernel."), this);
    title_->setObjectName(QStringLiteral("kernelTitle"));
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long title is cut, never a reason for the window to be wider.
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    target_ = new QComboBox(this);
    target_->setObjectName(QStringLiteral("kernelTarget"));
    target_->addItem(tr("DSA cores (riscv64, RVV)"), QStringLiteral("riscv64"));
    target_->addItem(tr("This host"), QStringLiteral("host"));
    target_->setToolTip(tr("The machine the IR is optimized and the assembly printed for"));
    level_ = new QComboBox(this);
    level_->setObjectName(QStringLiteral("kernelLevel"));
    for (int level = 0; level <= 3; ++level)
        level_->addItem(QStringLiteral("O%1").arg(level), level);
    level_->setCurrentIndex(2);
    level_->setToolTip(tr("LLVM's optimization pipeline (O2 and O3 vectorize), as `stagecraft "
                          "emit -O`"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(title_, 1);
    bar->addWidget(target_);
    bar->addWidget(level_);

    loops_ = new CodePane(this);
    loops_->setObjectName(QStringLiteral("kernelLoops"));
    ir_ = new CodePane(this);
    ir_->setObjectName(QStringLiteral("kernelIr"));
    assembly_ = new CodePane(this);
    assembly_->setObjectName(QStringLiteral("kernelAssembly"));
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("kernelTabs"));
    tabs_->addTab(loops_, tr("Loop nest (§4.1, Fig. 11)"));
    tabs_->addTab(ir_, tr("LLVM IR"));
    tabs_->addTab(assembly_, tr("Assembly"));
    auto* hint = new QLabel(tr("Each line is tinted by the op it comes from (hover names it). "
                               "Select an op, or click a line, to mark its lines in all three "
                               "texts. Untinted code serves no one op: set-up, or code the "
                               "optimizer merged."),
                            this);
    hint->setObjectName(QStringLiteral("kernelHint"));
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(hint);
    layout->addWidget(tabs_, 1);

    for (CodePane* pane : {loops_, ir_, assembly_})
        connect(pane, &CodePane::opClicked, this,
                [this, pane](int32_t op) { onLineClicked(op, pane); });
    connect(tabs_, &QTabWidget::currentChanged, this, [this] { explainIfShown(); });
    connect(target_, &QComboBox::currentIndexChanged, this, [this] { explainIfShown(); });
    connect(level_, &QComboBox::currentIndexChanged, this, [this] { explainIfShown(); });
}

void KernelView::setSelectionModel(SelectionModel* selection) {
    if (selection_)
        disconnect(selection_, nullptr, this, nullptr);
    selection_ = selection;
    if (selection_)
        connect(selection_, &SelectionModel::changed, this, &KernelView::follow);
}

void KernelView::setResult(ResultPtr result) {
    result_ = std::move(result);
    plan_.reset();
    planError_.clear();
    explainedKey_.clear();
    kernel_ = -1;
    worker_.cancel();
    compiling_ = false;
    if (!result_)
        return;
    Expected<codegen::CodePlan> plan = driver::planCode(*result_->graph, result_->eval);
    if (plan.ok())
        plan_ = std::make_shared<const codegen::CodePlan>(std::move(plan).value());
    else
        planError_ = QString::fromStdString(plan.error().message());
    follow(selection_ ? selection_->current() : Selection{});
}

QString KernelView::kernelSymbol() const {
    return plan_ && kernel_ >= 0
               ? QString::fromStdString(plan_->kernels[static_cast<size_t>(kernel_)].symbol)
               : QString();
}

CodePane* KernelView::pane(Pane pane) const {
    switch (pane) {
    case Pane::Loops:
        return loops_;
    case Pane::Ir:
        return ir_;
    case Pane::Assembly:
        return assembly_;
    }
    return loops_;
}

void KernelView::showPane(Pane which) {
    tabs_->setCurrentWidget(pane(which));
}

void KernelView::setTarget(const QString& target, int optLevel) {
    QSignalBlocker block(target_);
    QSignalBlocker blockLevel(level_);
    target_->setCurrentIndex(std::max(0, target_->findData(target)));
    level_->setCurrentIndex(std::clamp(optLevel, 0, 3));
    explainIfShown();
}

int KernelView::kernelOfOp(int32_t op) const {
    for (size_t k = 0; k < plan_->kernels.size(); ++k)
        for (const codegen::LayerCode& layer : plan_->kernels[k].layers)
            for (const codegen::OpStep& step : layer.ops)
                if (step.op.value() == op)
                    return static_cast<int>(k);
    return -1;
}

void KernelView::follow(const Selection& selection) {
    if (!result_)
        return;
    if (!plan_) {
        title_->setText(tr("No kernels: %1").arg(planError_));
        loops_->setMessage(planError_);
        return;
    }
    int index = kernel_ >= 0 ? kernel_ : (plan_->kernels.empty() ? -1 : 0);
    int32_t op = -1;
    const schedule::Schedule& schedule = result_->eval.schedule;
    auto kernelOfInstance = [this](int32_t instance) {
        for (size_t k = 0; k < plan_->kernels.size(); ++k)
            if (plan_->kernels[k].instance.value() == instance)
                return static_cast<int>(k);
        return -1;
    };
    switch (selection.kind) {
    case Selection::Kind::Instance:
        index = kernelOfInstance(selection.id);
        op = selection.op;
        break;
    case Selection::Kind::Op: {
        op = selection.id;
        bool here = false;
        if (kernel_ >= 0)
            for (const codegen::LayerCode& layer :
                 plan_->kernels[static_cast<size_t>(kernel_)].layers)
                for (const codegen::OpStep& step : layer.ops)
                    here = here || step.op.value() == op;
        index = here ? kernel_ : kernelOfOp(op);
        break;
    }
    case Selection::Kind::Group: {
        auto group = schedule::GroupId(selection.id);
        if (selection.id >= 0 && group.index() < schedule.groups.size() &&
            !schedule.groups[group].instances.empty())
            index = kernelOfInstance(schedule.groups[group].instances.front().value());
        break;
    }
    case Selection::Kind::Tensor:
    case Selection::Kind::None:
        break;
    }
    if (index < 0) {
        title_->setText(plan_->kernels.empty() ? tr("This schedule has no kernels.")
                                               : tr("The selection is computed by no kernel."));
        return;
    }
    if (index != kernel_)
        showKernel(index, op);
    else
        markOp(op);
}

void KernelView::showKernel(int index, int32_t op) {
    worker_.cancel(); // a compilation of the kernel shown before is stale
    compiling_ = false;
    kernel_ = index;
    marked_ = op;
    const codegen::KernelCode& kernel = plan_->kernels[static_cast<size_t>(index)];
    const ir::Graph& graph = *result_->graph;
    names_.clear();
    colors_.clear();
    int rank = 0;
    for (const codegen::LayerCode& layer : kernel.layers)
        for (const codegen::OpStep& step : layer.ops) {
            const ir::Op& o = graph.op(step.op);
            names_.insert(step.op.value(), QString::fromStdString(o.name + " (" + o.type + ")"));
            colors_.insert(step.op.value(), opTint(rank++));
        }
    const auto layers = static_cast<qsizetype>(kernel.layers.size());
    title_->setText(tr("<b>%1</b> · instance %2 · %3 · %4, %5")
                        .arg(QString::fromStdString(kernel.symbol),
                             QString::fromStdString(kernel.label),
                             kernel.cores == 1 ? tr("1 core") : tr("%1 cores").arg(kernel.cores),
                             layers == 1 ? tr("1 layer") : tr("%1 layers").arg(layers),
                             rank == 1 ? tr("1 op") : tr("%1 ops").arg(rank)));
    codegen::KernelListing listing = codegen::listKernel(graph, *plan_, static_cast<size_t>(index));
    loops_->setMarkedOp(op, false);
    loops_->setLines(codeLines(listing), names_, colors_);
    for (CodePane* pane : {ir_, assembly_}) {
        pane->setMarkedOp(op, false);
        pane->setMessage(tr("Open this tab to compile %1.").arg(kernelSymbol()));
    }
    explainedKey_.clear();
    explainIfShown();
}

void KernelView::markOp(int32_t op) {
    marked_ = op;
    for (CodePane* pane : {loops_, ir_, assembly_})
        pane->setMarkedOp(op, pane != clicked_);
    clicked_ = nullptr;
}

void KernelView::onLineClicked(int32_t op, CodePane* source) {
    if (!selection_ || !plan_ || kernel_ < 0)
        return;
    clicked_ = source;
    int32_t instance = plan_->kernels[static_cast<size_t>(kernel_)].instance.value();
    selection_->select({Selection::Kind::Instance, instance, op});
    clicked_ = nullptr;
}

void KernelView::explainIfShown() {
    if (!plan_ || kernel_ < 0 || tabs_->currentWidget() == loops_)
        return;
    const QString target = target_->currentData().toString();
    const int level = level_->currentData().toInt();
    const QString key =
        QStringLiteral("%1/%2/%3/%4").arg(result_->serial).arg(kernel_).arg(target).arg(level);
    if (key == explainedKey_)
        return;
    explainedKey_ = key;
    compiling_ = true;
    for (CodePane* pane : {ir_, assembly_})
        pane->setMessage(tr("Compiling %1 for %2 at O%3…")
                             .arg(kernelSymbol(), target_->currentText())
                             .arg(level));
    const quint64 ticket = worker_.nextTicket();
    auto plan = plan_;
    auto result = result_;
    const size_t index = static_cast<size_t>(kernel_);
    auto parsed = codegen::parseTarget(target.toStdString());
    worker_.post([this, ticket, plan, result, index, parsed, level] {
        codegen::KernelListing listing = codegen::listKernel(*result->graph, *plan, index);
        auto outcome =
            codegen::explainKernel(*result->graph, *result->eval.schedule.semantics, *plan, index,
                                   listing, parsed.value_or(codegen::Target::RiscV64), level);
        auto shared = std::make_shared<Expected<codegen::KernelExplanation>>(std::move(outcome));
        QMetaObject::invokeMethod(
            this,
            [this, ticket, shared] {
                if (!worker_.isCurrent(ticket))
                    return;
                compiling_ = false;
                if (shared->ok()) {
                    ir_->setLines(codeLines((*shared)->ir), names_, colors_);
                    assembly_->setLines(codeLines((*shared)->assembly), names_, colors_);
                } else {
                    QString message = QString::fromStdString(shared->error().message());
                    ir_->setMessage(message);
                    assembly_->setMessage(message);
                }
                emit explained();
            },
            Qt::QueuedConnection);
    });
}

} // namespace stagecraft::views
