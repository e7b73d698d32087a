// Core binding and buffer scopes (GraphTurbo §3.4, Algorithm 4).
//
// Instances are visited in reverse schedule order. An instance without an
// inferred binding (or whose output is not in LB) gets a plain binding:
// cores are allocated greedily from the outermost dim inwards with factors
// 8, 4, 2, 1 (a factor must divide the extent and fit the cores left; dims
// annotated as not bindable are skipped). Its binding is then inferred onto
// each producer instance through the access maps (the matched dims of the
// tensor it reads carry the same factors): an unbound producer takes it, a
// producer bound otherwise gets its output scope set to GB (a communication
// is needed, §3.5). An instance with an inferred binding keeps it, repaired
// to its own annotations, unless the plain binding uses more cores
// (line 16). Around the algorithm (docs/decisions.md): instances that do not
// fit LB declare their output in GB, graph outputs in DDR.

#include "schedule/internal/stages.h"
#include "support/strings.h"

#include <algorithm>

namespace stagecraft::schedule::detail {

namespace {

constexpr int64_t kFactors[] = {8, 4, 2, 1};

std::string tupleText(const Binding& b) {
    Binding t = trimmed(b);
    std::vector<std::string> parts;
    for (int64_t f : t)
        parts.push_back(std::to_string(f));
    return "[" + join(parts, ",") + "]";
}

/// The bindable flags of the group output's dims (Algorithm 4's annotations).
std::vector<bool> bindableDims(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                               const Schedule& s, GroupId group) {
    ir::TensorId out = groupOutput(s, group);
    ir::OpId producer = graph.tensor(out).producer;
    const ir::Op& op = graph.op(producer);
    size_t slot = static_cast<size_t>(std::find(op.outputs.begin(), op.outputs.end(), out) -
                                      op.outputs.begin());
    const ops::LoopNest& nest = semantics.of(producer).nests[slot];
    std::vector<bool> flags;
    for (int i = 0; i < nest.outputRank; ++i)
        flags.push_back(nest.loops[static_cast<size_t>(i)].bindable);
    return flags;
}

Binding plainBinding(const ir::Shape& shape, const std::vector<bool>& bindable, int64_t cores) {
    Binding b(shape.size(), 1);
    int64_t left = cores;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (d < bindable.size() && !bindable[d])
            continue;
        for (int64_t f : kFactors)
            if (f <= left && shape[d] % f == 0) {
                b[d] = f;
                left /= f;
                break;
            }
    }
    return b;
}

/// update_binding (line 16): the inferred binding kept where it is allowed.
Binding repaired(const Binding& inferred, const ir::Shape& shape, const std::vector<bool>& bindable,
                 int64_t cores) {
    Binding b(shape.size(), 1);
    int64_t left = cores;
    for (size_t d = 0; d < shape.size() && d < inferred.size(); ++d) {
        if (d < bindable.size() && !bindable[d])
            continue;
        for (int64_t f : kFactors)
            if (f <= inferred[d] && f <= left && shape[d] % f == 0) {
                b[d] = f;
                left /= f;
                break;
            }
    }
    return b;
}

bool isValid(const Binding& b, const ir::Shape& shape, const std::vector<bool>& bindable,
             int64_t cores) {
    for (size_t d = 0; d < b.size(); ++d)
        if (b[d] > 1 && ((d < bindable.size() && !bindable[d]) || shape[d] % b[d] != 0))
            return false;
    return coresUsed(b) <= cores;
}

class BindingPass {
public:
    BindingPass(const ir::Graph& graph, const arch::Arch& arch,
                const partition::SemanticsCache& semantics, DimMatcher& matcher, const Adjacency& a,
                Schedule& s, partition::Trace* trace)
        : graph_(graph)
        , s_(s)
        , trace_(trace)
        , matcher_(matcher)
        , a_(a)
        , cores_(arch::coresPerCluster(arch)) {
        for (GroupId g : s.groups.ids())
            bindable_.push_back(bindableDims(graph, semantics, s, g));
        bound_.assign(s.instances.size(), false);
    }

    void run() {
        for (Instance& inst : s_.instances) {
            inst.bind.assign(inst.shape.size(), 1);
            inst.scope = levelScope(s_.level);
        }
        for (auto it = s_.order.rbegin(); it != s_.order.rend(); ++it)
            visit(*it);
    }

private:
    Instance& at(InstanceId i) { return s_.instances[i]; }
    const std::vector<bool>& flags(InstanceId i) { return bindable_[at(i).group]; }

    void visit(InstanceId i) {
        Instance& inst = at(i);
        if (!bound_[i] || inst.scope != levelScope(s_.level)) {
            inst.bind = plainBinding(inst.shape, flags(i), cores_);
            bound_[i] = true;
            note(i, "plain", [&] {
                return "plain binding " + tupleText(inst.bind) +
                       " from the outermost dims (line 5)";
            });
            for (InstanceId p : a_.preds[i])
                inferOnto(i, p);
            return;
        }
        Binding updated = repaired(inst.bind, inst.shape, flags(i), cores_);
        Binding plain = plainBinding(inst.shape, flags(i), cores_);
        bool keep = coresUsed(updated) >= coresUsed(plain);
        inst.bind = keep ? updated : plain;
        note(i, "updated", [&] {
            return std::string(keep ? "keeps its inferred binding " : "takes the plain binding ") +
                   tupleText(inst.bind) + " (" + std::to_string(coresUsed(updated)) +
                   " cores inferred, " + std::to_string(coresUsed(plain)) + " plain; line 16)";
        });
    }

    /// Lines 6-14 for producer \p p of instance \p i.
    void inferOnto(InstanceId i, InstanceId p) {
        Instance& producer = at(p);
        const std::vector<ir::TensorId>& read = matcher_.shared(producer.group, at(i).group);
        ir::TensorId tensor = read.empty() ? groupOutput(s_, producer.group) : read.front();
        Binding onTensor =
            inferBinding(matcher_, s_, i, tensor, graph_.tensor(tensor).shape.size());
        Binding inferred = matcher_.toOutputDims(producer.group, tensor, onTensor);
        if (coresUsed(inferred) <= 1 || !isValid(inferred, producer.shape, flags(p), cores_)) {
            note(p, "skipped", [&] {
                return "the binding of " + at(i).label + " cannot be inferred onto it (line 7)";
            });
            return;
        }
        if (!bound_[p]) {
            producer.bind = inferred;
            bound_[p] = true;
            note(p, "inferred", [&] {
                return "inferred " + tupleText(inferred) + " from its consumer " + at(i).label +
                       " (line 10)";
            });
        } else if (producer.bind != inferred) {
            // Line 12: the cores exchange the output through the GB, which
            // every core of the cluster reads (docs/decisions.md).
            producer.scope = Scope::GB;
            note(p, "mismatch", [&] {
                return "bound " + tupleText(producer.bind) + " but " + at(i).label + " needs " +
                       tupleText(inferred) + ": output declared in " +
                       std::string(scopeName(producer.scope)) + " (line 12)";
            });
        }
    }

    /// Records a step; \p what (a callable giving the sentence) runs only
    /// when the trace is kept, so large schedules build no strings.
    template <class Text>
    void note(InstanceId i, const char* action, Text&& what) {
        if (trace_ == nullptr || s_.instances.size() > kTraceLimit)
            return;
        partition::BindStep step;
        step.instance = at(i).label;
        step.action = action;
        step.bind = trimmed(at(i).bind);
        step.scope = std::string(scopeName(at(i).scope));
        step.explanation = "§3.4 Algorithm 4: " + at(i).label + " " + what();
        trace_->binding.push_back(std::move(step));
    }

    static constexpr size_t kTraceLimit = 256;

    const ir::Graph& graph_;
    Schedule& s_;
    partition::Trace* trace_;
    DimMatcher& matcher_;
    const Adjacency& a_;
    int64_t cores_;
    IdVector<GroupId, std::vector<bool>> bindable_;
    IdVector<InstanceId, bool> bound_;
};

void applyScopeRules(const ir::Graph& graph, Schedule& s) {
    for (Instance& inst : s.instances) {
        if (!inst.fitsLocalBuffer && inst.scope == levelScope(s.level))
            inst.scope = slowerScope(inst.scope);
        if (graph.isGraphOutput(groupOutput(s, inst.group)))
            inst.scope = Scope::DDR;
    }
}

} // namespace

Binding inferBinding(DimMatcher& matcher, const Schedule& s, InstanceId consumer,
                     ir::TensorId tensor, size_t rank) {
    const Instance& c = s.instances[consumer];
    const std::vector<int>& dims = matcher.map(c.group, tensor);
    Binding b(rank, 1);
    for (size_t k = 0; k < c.bind.size() && k < dims.size(); ++k)
        if (c.bind[k] > 1 && dims[k] >= 0 && static_cast<size_t>(dims[k]) < b.size())
            b[static_cast<size_t>(dims[k])] = c.bind[k];
    return b;
}

void bindAndScope(const ir::Graph& graph, const arch::Arch& arch,
                  const partition::SemanticsCache& semantics, DimMatcher& matcher,
                  const Adjacency& a, Schedule& s, partition::Trace* trace) {
    BindingPass(graph, arch, semantics, matcher, a, s, trace).run();
    applyScopeRules(graph, s);
}

} // namespace stagecraft::schedule::detail
