// Results and model lookups of the inspector suites (see inspector_fixture.h).

#include "inspector_fixture.h"

#include <QtTest>

namespace stagecraft::test {

ResultSpec specFor(const std::string& zoo, const std::string& arch, int64_t batch) {
    ResultSpec spec;
    spec.zoo = zoo;
    spec.arch = arch;
    spec.batch = batch;
    return spec;
}

views::ResultPtr fig3Chain() {
    static views::ResultPtr result = resultFor(specFor("fig3-chain", "teaching"));
    return result;
}

views::ResultPtr resnet50() {
    static views::ResultPtr result = resultFor(specFor("resnet50", "stcp920", 16));
    return result;
}

views::Selection opNamed(const views::PipelineResult& result, const std::string& name) {
    auto op = result.graph->findOp(name);
    if (!op)
        qFatal("no op %s", name.c_str());
    return {views::Selection::Kind::Op, op->value()};
}

views::Selection tensorNamed(const views::PipelineResult& result, const std::string& name) {
    auto tensor = result.graph->findTensor(name);
    if (!tensor)
        qFatal("no tensor %s", name.c_str());
    return {views::Selection::Kind::Tensor, tensor->value()};
}

views::Selection instanceLabelled(const views::PipelineResult& result, const std::string& label) {
    const auto& instances = result.eval.schedule.instances;
    for (schedule::InstanceId i : instances.ids())
        if (instances[i].label == label)
            return {views::Selection::Kind::Instance, i.value()};
    qFatal("no instance %s", label.c_str());
}

views::Selection groupOfOp(const views::PipelineResult& result, const std::string& name) {
    return {views::Selection::Kind::Group,
            result.eval.schedule.partition.groupOf(ir::OpId(opNamed(result, name).id)).value()};
}

namespace {

QModelIndex rowAt(const QAbstractItemModel& model, const QStringList& path) {
    QModelIndex parent;
    for (const QString& name : path) {
        QModelIndex found;
        for (int row = 0; row < model.rowCount(parent) && !found.isValid(); ++row)
            if (model.index(row, 0, parent).data().toString() == name)
                found = model.index(row, 0, parent);
        if (!found.isValid())
            return {};
        parent = found;
    }
    return parent;
}

} // namespace

QVariant valueAt(const QAbstractItemModel& model, const QStringList& path) {
    QModelIndex row = rowAt(model, path);
    return row.isValid() ? row.siblingAtColumn(1).data() : QVariant();
}

QStringList childNames(const QAbstractItemModel& model, const QStringList& path) {
    QModelIndex row = rowAt(model, path);
    QStringList names;
    for (int r = 0; row.isValid() && r < model.rowCount(row); ++r)
        names << model.index(r, 0, row).data().toString();
    return names;
}

} // namespace stagecraft::test
