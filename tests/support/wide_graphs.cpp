// The shapes of graph that stress the scheduler's complexity (random_graphs.h,
// "Graphs of many ops"): a chain, a wide Concat of parallel Relus and a
// Fibonacci-like Add DAG, each of exactly the op count asked for, on small
// tensors so that the work per op stays the same as the graph grows.

#include "graph_ops.h"
#include "random_graphs.h"

#include <vector>

namespace stagecraft::test {

using namespace graphops;

namespace {

const ir::Shape kImage{1, 4, 8, 8};

} // namespace

ir::Graph chainGraph(int ops) {
    ir::Graph g;
    Builder b(g);
    TensorId x = b.input(kImage);
    for (int i = 0; i < ops; ++i)
        x = unary(b, i % 2 == 0 ? "Relu" : "Sigmoid", x);
    b.finish();
    return g;
}

ir::Graph wideConcatGraph(int ops) {
    ir::Graph g;
    Builder b(g);
    TensorId x = b.input(kImage);
    std::vector<TensorId> parts;
    for (int i = 0; i + 1 < ops; ++i)
        parts.push_back(unary(b, "Relu", x));
    if (parts.empty())
        parts.push_back(x);
    concat(b, parts, 1);
    b.finish();
    return g;
}

ir::Graph fibonacciAddGraph(int ops) {
    ir::Graph g;
    Builder b(g);
    TensorId before = b.input(kImage);
    TensorId last = unary(b, "Relu", before);
    for (int i = 1; i < ops; ++i) {
        TensorId next = binary(b, "Add", last, before);
        before = last;
        last = next;
    }
    b.finish();
    return g;
}

} // namespace stagecraft::test
