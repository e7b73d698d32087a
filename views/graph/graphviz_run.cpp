// The Graphviz adapter proper, after QGV's QGVCore and KGraphViewer's layout
// thread: build a cgraph graph from the request (nodes "n<index>", clusters
// "cluster_<index>"), run dot, read positions back and free everything.
// Graphviz works in points with y up; node sizes are in inches. Scene
// coordinates are points with y down, so y is flipped against the top of the
// bounding box and sizes are multiplied by 72.
//
// Graphviz 2.42 keeps state across contexts (the pango plugin's font cache
// outlives the context that filled it and is read after free by the next),
// so one context serves the whole process. Cluster labels are fixed-size
// empty HTML tables: the caller draws the text, Graphviz only reserves room.

#include "graph/graphviz_run.h"

#include <graphviz/gvc.h>

#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <locale.h>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace stagecraft::views::graphview {

namespace {

constexpr double kPointsPerInch = 72.0;
/// Above this many nodes dot's x positioning (network simplex) stops after
/// one iteration per node: BERT-large expanded (1,225 nodes, 123 clusters)
/// drops from 48 s to under a second, and the drawing gets no wider.
constexpr size_t kFullPositioningNodes = 300;

std::mutex& graphvizMutex() {
    static std::mutex mutex;
    return mutex;
}

std::atomic<int64_t> layoutsRun{0};

struct ContextDeleter {
    void operator()(GVC_t* context) const { gvFreeContext(context); }
};

/// Created on first use, under the mutex.
GVC_t* context() {
    static std::unique_ptr<GVC_t, ContextDeleter> context(gvContext());
    return context.get();
}

/// cgraph's messages of the current call; guarded by the mutex.
std::string& graphvizErrors() {
    static std::string errors;
    return errors;
}

int collectError(char* message) {
    graphvizErrors() += message;
    return 0;
}

/// cgraph takes mutable strings it never modifies.
void set(void* object, const char* name, std::string value) {
    std::string attribute = name;
    std::string none;
    agsafeset(object, attribute.data(), value.data(), none.data());
}

/// Locale-free, unlike std::to_string.
std::string inches(double points) {
    char buffer[32];
    auto [end, status] = std::to_chars(buffer, buffer + sizeof buffer, points / kPointsPerInch,
                                       std::chars_format::fixed, 4);
    return status == std::errc() ? std::string(buffer, end) : std::string("1");
}

/// Graphviz reads numbers with strtod, which follows the locale Qt takes
/// from the environment ("0,25" in de_DE); for the call, this thread reads
/// them the C way.
class CNumericLocale {
public:
    CNumericLocale()
        : c_(newlocale(LC_NUMERIC_MASK, "C", nullptr))
        , previous_(c_ ? uselocale(c_) : nullptr) {}
    ~CNumericLocale() {
        if (c_) {
            uselocale(previous_);
            freelocale(c_);
        }
    }
    CNumericLocale(const CNumericLocale&) = delete;
    CNumericLocale& operator=(const CNumericLocale&) = delete;

private:
    locale_t c_;
    locale_t previous_;
};

const char* shapeName(NodeShape shape) {
    switch (shape) {
    case NodeShape::Box:
        return "box";
    case NodeShape::Ellipse:
        return "ellipse";
    case NodeShape::House:
        return "house";
    case NodeShape::InvHouse:
        return "invhouse";
    }
    return "box";
}

/// An empty table of the label's size, so dot reserves exactly that room.
std::string reservedLabel(const QSizeF& size) {
    auto points = [](double v) {
        return std::to_string(static_cast<int>(std::ceil(v)));
    };
    return "<TABLE FIXEDSIZE=\"TRUE\" WIDTH=\"" + points(size.width()) + "\" HEIGHT=\"" +
           points(size.height()) +
           "\" BORDER=\"0\" CELLBORDER=\"0\" CELLPADDING=\"0\" CELLSPACING=\"0\">"
           "<TR><TD></TD></TR></TABLE>";
}

/// A cgraph graph with its layout; frees both, layout first.
class DotGraph {
public:
    DotGraph() {
        std::string name = "layout";
        graph_ = agopen(name.data(), Agdirected, nullptr);
    }
    ~DotGraph() {
        if (laidOut_)
            gvFreeLayout(context(), graph_);
        agclose(graph_);
    }
    DotGraph(const DotGraph&) = delete;
    DotGraph& operator=(const DotGraph&) = delete;

    void build(const LayoutInput& input) {
        set(graph_, "rankdir", "TB");
        set(graph_, "nodesep", "0.25");
        set(graph_, "ranksep", "0.4");
        if (input.nodes.size() > kFullPositioningNodes)
            set(graph_, "nslimit", "1");
        for (size_t n = 0; n < input.nodes.size(); ++n)
            nodes_.push_back(addNode(n, input.nodes[n]));
        for (size_t c = 0; c < input.clusters.size(); ++c)
            clusters_.push_back(addCluster(c, input.clusters[c]));
        for (const LayoutEdge& edge : input.edges)
            edges_.push_back(agedge(graph_, nodes_[static_cast<size_t>(edge.from)],
                                    nodes_[static_cast<size_t>(edge.to)], nullptr, 1));
    }

    bool layout() {
        laidOut_ = gvLayout(context(), graph_, "dot") == 0;
        if (laidOut_)
            top_ = GD_bb(graph_).UR.y;
        return laidOut_;
    }

    GraphLayout read() const {
        GraphLayout layout;
        layout.bounds = rect(GD_bb(graph_));
        for (Agnode_t* node : nodes_)
            layout.nodes.push_back(
                {flip(ND_coord(node)),
                 QSizeF(ND_width(node) * kPointsPerInch, ND_height(node) * kPointsPerInch)});
        for (Agraph_t* cluster : clusters_)
            layout.clusters.push_back(readCluster(cluster));
        for (Agedge_t* edge : edges_)
            layout.edges.push_back(readEdge(edge));
        return layout;
    }

private:
    Agnode_t* addNode(size_t index, const LayoutNode& spec) {
        std::string name = "n" + std::to_string(index);
        Agnode_t* node = agnode(graph_, name.data(), 1);
        set(node, "shape", shapeName(spec.shape));
        set(node, "fixedsize", "true");
        set(node, "label", "");
        set(node, "width", inches(spec.size.width()));
        set(node, "height", inches(spec.size.height()));
        return node;
    }

    Agraph_t* addCluster(size_t index, const LayoutCluster& spec) {
        std::string name = "cluster_" + std::to_string(index);
        Agraph_t* cluster = agsubg(graph_, name.data(), 1);
        if (!spec.labelSize.isEmpty()) {
            std::string html = reservedLabel(spec.labelSize);
            char* label = agstrdup_html(graph_, html.data());
            std::string attribute = "label";
            std::string none;
            agsafeset(cluster, attribute.data(), label, none.data());
            agstrfree(graph_, label);
        }
        for (int node : spec.nodes)
            agsubnode(cluster, nodes_[static_cast<size_t>(node)], 1);
        return cluster;
    }

    QPointF flip(pointf p) const { return {p.x, top_ - p.y}; }
    QRectF rect(boxf box) const { return QRectF(flip(box.LL), flip(box.UR)).normalized(); }

    ClusterGeometry readCluster(Agraph_t* cluster) const {
        ClusterGeometry geometry;
        geometry.rect = rect(GD_bb(cluster));
        textlabel_t* label = GD_label(cluster);
        geometry.labelCenter =
            label ? flip(label->pos) : QPointF(geometry.rect.center().x(), geometry.rect.top());
        return geometry;
    }

    EdgeGeometry readEdge(Agedge_t* edge) const {
        EdgeGeometry geometry;
        const splines* spline = ED_spl(edge);
        if (!spline)
            return geometry;
        for (int b = 0; b < spline->size; ++b) {
            const bezier& curve = spline->list[b];
            if (curve.size < 1)
                continue;
            geometry.path.moveTo(flip(curve.list[0]));
            for (int i = 1; i + 2 < curve.size; i += 3)
                geometry.path.cubicTo(flip(curve.list[i]), flip(curve.list[i + 1]),
                                      flip(curve.list[i + 2]));
            if (curve.eflag) {
                geometry.hasArrow = true;
                geometry.arrowBase = flip(curve.list[curve.size - 1]);
                geometry.arrowTip = flip(curve.ep);
            }
        }
        return geometry;
    }

    Agraph_t* graph_ = nullptr;
    bool laidOut_ = false;
    double top_ = 0;
    std::vector<Agnode_t*> nodes_;
    std::vector<Agraph_t*> clusters_;
    std::vector<Agedge_t*> edges_;
};

Expected<LayoutPtr> layoutLocked(const LayoutInput& input) {
    graphvizErrors().clear();
    DotGraph graph;
    graph.build(input);
    ++layoutsRun;
    if (!graph.layout()) {
        std::string errors = graphvizErrors();
        while (!errors.empty() && std::isspace(static_cast<unsigned char>(errors.back())))
            errors.pop_back();
        return Error("graphviz could not lay the graph out" +
                     (errors.empty() ? std::string() : ": " + errors));
    }
    return LayoutPtr(std::make_shared<const GraphLayout>(graph.read()));
}

} // namespace

Expected<LayoutPtr> runDotLayout(const LayoutInput& input) {
    SC_RETURN_IF_ERROR(validateLayoutInput(input));
    std::lock_guard lock(graphvizMutex());
    CNumericLocale numbers;
    agusererrf previousHandler = agseterrf(collectError);
    agerrlevel_t previousLevel = agseterr(AGERR);
    Expected<LayoutPtr> layout = layoutLocked(input);
    agseterr(previousLevel);
    agseterrf(previousHandler);
    return layout;
}

int64_t dotLayoutsRun() {
    return layoutsRun.load();
}

} // namespace stagecraft::views::graphview
