// The generated parts of a model library (model_library.h): model.h and
// model.c (the sc_model the runtime runs: the tensor table with each slot's
// size and weights.bin offset, the kernels in plan order with their cores
// and launches, the graph's inputs and outputs with their slots), a
// CMakeLists.txt and a Makefile that build libmodel.a and the example
// program. Output is deterministic; every name from the model reaches C
// only inside an escaped string literal, and symbols are checked to be C
// identifiers.

#include "codegen/model_library.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace stagecraft::codegen {

namespace {

bool isIdentifier(const std::string& name) {
    return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
           std::all_of(name.begin(), name.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
           });
}

/// \p text as a C string literal: printable ASCII as is (quotes, backslashes
/// and '?' escaped, so no trigraph forms), every other byte in octal.
std::string cString(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\' || c == '?') {
            out += '\\';
            out += c;
        } else if (byte >= 0x20 && byte < 0x7f) {
            out += c;
        } else {
            char octal[8];
            std::snprintf(octal, sizeof octal, "\\%03o", byte);
            out += octal;
        }
    }
    return out + "\"";
}

/// \p text with "*/" and control characters defanged, for a C comment.
std::string commentText(const std::string& text) {
    std::string out;
    for (char c : text)
        out += std::iscntrl(static_cast<unsigned char>(c)) ? '?' : c;
    for (size_t at = out.find("*/"); at != std::string::npos; at = out.find("*/", at))
        out.replace(at, 2, "* /");
    return out;
}

/// The runtime's constant for \p t ("SC_DTYPE_" and Stagecraft's name in
/// capitals: SC_DTYPE_F32, SC_DTYPE_BOOL), or "" for a type it does not take.
std::string dtypeConstant(ir::DType t) {
    if (t == ir::DType::Undefined || t == ir::DType::String)
        return "";
    std::string name(ir::dtypeName(t));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return "SC_DTYPE_" + name;
}

struct Endpoint {
    const ir::Tensor* tensor;
    int32_t slot;
};

/// The graph's inputs or outputs as the runtime sees them; an output must
/// be in the table.
Expected<std::vector<Endpoint>> endpoints(const ir::Graph& graph, const CodePlan& plan,
                                          bool outputs) {
    std::vector<Endpoint> list;
    for (ir::TensorId id : outputs ? graph.outputs() : graph.inputs()) {
        const ir::Tensor& t = graph.tensor(id);
        if (dtypeConstant(t.dtype).empty())
            return Error("model library: " + std::string(outputs ? "output" : "input") + " '" +
                         t.name + "' is " + std::string(ir::dtypeName(t.dtype)) +
                         ", which the runtime does not take");
        const int32_t slot = plan.slotOf(id);
        if (outputs && slot < 0)
            return Error("model library: output '" + t.name + "' is computed by no kernel");
        list.push_back({&t, slot});
    }
    return list;
}

std::string tensorInfos(const std::vector<Endpoint>& list, const std::string& kind) {
    if (list.empty())
        return "";
    std::string shapes, infos;
    for (size_t i = 0; i < list.size(); ++i) {
        const ir::Tensor& t = *list[i].tensor;
        std::string shape = "NULL";
        if (!t.shape.empty()) {
            shape = kind + "_shape_" + std::to_string(i);
            shapes += "static const int64_t " + shape + "[] = {";
            for (size_t d = 0; d < t.shape.size(); ++d)
                shapes += (d ? ", " : "") + std::to_string(t.shape[d]);
            shapes += "};\n";
        }
        infos += "    {" + cString(t.name) + ", " + dtypeConstant(t.dtype) + ", " +
                 std::to_string(t.shape.size()) + ", " + shape + ", " +
                 std::to_string(t.byteSize()) + "u, " + std::to_string(list[i].slot) + "},\n";
    }
    return shapes + "static const sc_tensor_info " + kind + "s[] = {\n" + infos + "};\n\n";
}

std::string endpointComment(const std::vector<Endpoint>& list, const std::string& kind) {
    std::string text;
    for (size_t i = 0; i < list.size(); ++i) {
        const ir::Tensor& t = *list[i].tensor;
        text += " *   " + kind + "s[" + std::to_string(i) + "]: " + commentText(t.name) + ", " +
                std::string(ir::dtypeName(t.dtype)) + " " + ir::formatShape(t.shape) + ", " +
                std::to_string(t.byteSize()) + " bytes\n";
    }
    return text;
}

std::string modelHeader(const std::string& model, const std::vector<Endpoint>& inputs,
                        const std::vector<Endpoint>& outputs) {
    return "/* Generated by stagecraft emit: the model library of " + commentText(model) +
           " (docs/codegen.md, \"The model library\").\n *\n" + endpointComment(inputs, "input") +
           endpointComment(outputs, "output") +
           " */\n#ifndef SC_MODEL_H\n#define SC_MODEL_H\n\n#include \"sc_runtime.h\"\n\n"
           "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n#define SC_MODEL_INPUT_COUNT " +
           std::to_string(inputs.size()) + "\n#define SC_MODEL_OUTPUT_COUNT " +
           std::to_string(outputs.size()) +
           "\n\n/* The model's tensor table, kernels, inputs and outputs. */\n"
           "extern const sc_model sc_model_info;\n\n"
           "/* A context of this model, its weights read from weights_path (weights.bin). */\n"
           "int sc_model_context_create(const char *weights_path, sc_context **context);\n\n"
           "/* Runs the model: inputs[i] for sc_model_info.inputs[i], outputs[i] receives\n"
           " * sc_model_info.outputs[i]. Returns SC_OK or a status (sc_status_message). */\n"
           "int sc_model_run(const sc_tensor *inputs, sc_tensor *outputs, sc_context *context);"
           "\n\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* SC_MODEL_H */\n";
}

/// The kernels in plan order; a host kernel of several layers and cores
/// with its layer table (<symbol>_layers), so that fewer threads than cores
/// can run it.
std::string kernelTable(const CodePlan& plan, const EmittedProgram& program) {
    std::string declarations, table;
    for (size_t k = 0; k < program.kernels.size(); ++k) {
        const std::string& symbol = program.kernels[k].symbol;
        const KernelCode& code = plan.kernels[k];
        declarations += "void " + symbol + "(void **, void *, void *, int64_t, int64_t, void *);\n";
        std::string layers = "NULL";
        if (program.target == Target::Host && code.cores > 1 && code.layers.size() > 1) {
            layers = symbol + "_layers";
            declarations += "extern const sc_kernel_fn " + layers + "[];\n";
        }
        table += "    {" + symbol + ", \"" + symbol + "\", " + std::to_string(code.cores) + ", " +
                 (code.continuesLaunch ? "1" : "0") + ", " + layers + ", " +
                 std::to_string(code.layers.size()) + "},\n";
    }
    return declarations + "\nstatic const sc_kernel_info kernels[] = {\n" + table + "};\n\n";
}

std::string slotTable(const ir::Graph& graph, const CodePlan& plan, const WeightsImage& weights) {
    std::string table = "static const sc_slot_info slots[] = {\n";
    for (size_t s = 0; s < plan.globals.size(); ++s) {
        const GlobalTensor& g = plan.globals[s];
        const int64_t bytes =
            weights.offsets[s] >= 0
                ? weights.storedBytes[s]
                : std::max({g.bytes, graph.tensor(g.tensor).byteSize(), int64_t{1}});
        table += "    {" + std::to_string(bytes) + "u, " + std::to_string(weights.offsets[s]) +
                 "}, /* " + std::to_string(s) + ": " + std::string(roleName(g.role)) + " " +
                 commentText(graph.tensor(g.tensor).name) + " */\n";
    }
    return table + "};\n\n";
}

struct Sizes {
    int64_t arena = 1;
    int64_t scratch = 1;
};

Sizes bufferSizes(const ir::Graph& graph, const CodePlan& plan, Target target) {
    Sizes sizes;
    for (const KernelCode& k : plan.kernels) {
        sizes.arena = std::max(sizes.arena, k.arenaBytes);
        const int64_t perCore =
            target == Target::Host ? hostScratchBytes(graph, k) : k.scratchBytes;
        sizes.scratch = std::max(sizes.scratch, perCore * k.cores);
    }
    return sizes;
}

std::string modelSource(const ir::Graph& graph, const CodePlan& plan, const EmittedProgram& program,
                        const ModelLibrary& library, const std::string& model,
                        const std::vector<Endpoint>& inputs, const std::vector<Endpoint>& outputs) {
    const Sizes sizes = bufferSizes(graph, plan, program.target);
    char checksum[32];
    std::snprintf(checksum, sizeof checksum, "0x%016llxull",
                  static_cast<unsigned long long>(library.weights.fnv1a64));
    std::string text = "/* Generated by stagecraft emit: " + commentText(model) + " for " +
                       std::string(targetName(program.target)) + " (" + program.machine.triple +
                       ", " + program.machine.cpu + "). */\n#include \"model.h\"\n\n";
    text += kernelTable(plan, program) + slotTable(graph, plan, library.weights) +
            tensorInfos(inputs, "input") + tensorInfos(outputs, "output");
    text += "const sc_model sc_model_info = {\n    " + std::to_string(kLibraryAbiVersion) +
            ",\n    " + cString(model) + ",\n    " + std::to_string(plan.globals.size()) +
            "u, slots,\n    " + std::to_string(plan.kernels.size()) + "u, kernels,\n    " +
            std::to_string(inputs.size()) + "u, " + (inputs.empty() ? "NULL" : "inputs") +
            ",\n    " + std::to_string(outputs.size()) + "u, " +
            (outputs.empty() ? "NULL" : "outputs") + ",\n    " + std::to_string(sizes.arena) +
            "u, " + std::to_string(sizes.scratch) + "u,\n    " +
            std::to_string(library.weights.bytes.size()) + "u, " + checksum + ", " +
            std::to_string(kWeightsAlignment) + "u};\n\n";
    text += "int sc_model_context_create(const char *weights_path, sc_context **context) {\n"
            "    return sc_context_create(&sc_model_info, weights_path, context);\n}\n\n"
            "int sc_model_run(const sc_tensor *inputs, sc_tensor *outputs, sc_context *context) "
            "{\n    if (sc_context_model(context) != &sc_model_info)\n"
            "        return SC_ERROR_ARGUMENT;\n    return sc_run(context, inputs, outputs);\n}\n";
    return text;
}

/// The kernel objects, in plan order (a kernel's parts after it).
std::vector<std::string> objectFiles(const EmittedProgram& program) {
    std::vector<std::string> files;
    for (const EmittedKernel& k : program.kernels)
        for (size_t p = 0; p < k.parts.size(); ++p)
            files.push_back(k.fileStem(p) + ".o");
    return files;
}

std::string cmakeLists(const std::vector<std::string>& objects) {
    std::string list;
    for (const std::string& o : objects)
        list += "    " + o + "\n";
    return "# Generated by stagecraft emit: builds libmodel.a (the kernels, model.c and the\n"
           "# runtime) and the example program. docs/codegen.md, \"The model library\".\n"
           "cmake_minimum_required(VERSION 3.13)\nproject(stagecraft_model C)\n\n"
           "find_package(Threads REQUIRED)\n\nset(SC_KERNEL_OBJECTS\n" +
           list +
           ")\nset_source_files_properties(${SC_KERNEL_OBJECTS} PROPERTIES EXTERNAL_OBJECT TRUE)\n"
           "\nadd_library(model STATIC model.c runtime/sc_runtime.c ${SC_KERNEL_OBJECTS})\n"
           "set_target_properties(model PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON)\n"
           "target_include_directories(model PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}\n"
           "                                        ${CMAKE_CURRENT_SOURCE_DIR}/runtime)\n"
           "target_link_libraries(model PUBLIC Threads::Threads m)\n\n"
           "add_executable(example example.c runtime/sc_tensors.c)\n"
           "set_target_properties(example PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON)\n"
           "target_link_libraries(example PRIVATE model m)\n";
}

std::string makefile(const std::vector<std::string>& objects) {
    std::string list;
    for (const std::string& o : objects)
        list += " \\\n    " + o;
    return "# Generated by stagecraft emit: builds libmodel.a (the kernels, model.c and the\n"
           "# runtime) and the example program. Cross builds: make CC=riscv64-linux-gnu-gcc\n"
           "# AR=riscv64-linux-gnu-ar LDFLAGS=-static. docs/codegen.md, \"The model library\".\n"
           "CFLAGS ?= -O2\nLDLIBS = -lm -lpthread\nSC_CFLAGS = -std=c99 -pthread -I. -Iruntime\n"
           "KERNEL_OBJECTS =" +
           list +
           "\n\nall: example\n\nlibmodel.a: model.o runtime/sc_runtime.o $(KERNEL_OBJECTS)\n"
           "\trm -f $@\n\t$(AR) rcs $@ $^\n\n"
           "example: example.o runtime/sc_tensors.o libmodel.a\n"
           "\t$(CC) $(LDFLAGS) -pthread -o $@ example.o runtime/sc_tensors.o libmodel.a "
           "$(LDLIBS)\n\n"
           "model.o example.o runtime/sc_runtime.o runtime/sc_tensors.o: %.o: %.c\n"
           "\t$(CC) $(SC_CFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<\n\n"
           "model.o example.o: model.h runtime/sc_runtime.h\n"
           "runtime/sc_runtime.o runtime/sc_tensors.o: runtime/sc_runtime.h\n"
           "example.o runtime/sc_tensors.o: runtime/sc_tensors.h\n\n"
           "clean:\n\trm -f example libmodel.a model.o example.o runtime/sc_runtime.o "
           "runtime/sc_tensors.o\n\n.PHONY: all clean\n";
}

} // namespace

Expected<ModelLibrary> buildModelLibrary(const ir::Graph& graph, const CodePlan& plan,
                                         const EmittedProgram& program,
                                         const std::string& modelName) {
    if (program.kernels.size() != plan.kernels.size())
        return Error("model library: the program has " + std::to_string(program.kernels.size()) +
                     " kernels, the plan " + std::to_string(plan.kernels.size()));
    for (const EmittedKernel& k : program.kernels)
        if (!isIdentifier(k.symbol))
            return Error("model library: kernel symbol '" + k.symbol + "' is not a C name");
    ModelLibrary library;
    SC_ASSIGN_OR_RETURN(library.weights, weightsImage(graph, plan, program.target));
    SC_ASSIGN_OR_RETURN(auto inputs, endpoints(graph, plan, false));
    SC_ASSIGN_OR_RETURN(auto outputs, endpoints(graph, plan, true));
    const std::vector<std::string> objects = objectFiles(program);
    library.files.push_back({"model.h", modelHeader(modelName, inputs, outputs)});
    library.files.push_back(
        {"model.c", modelSource(graph, plan, program, library, modelName, inputs, outputs)});
    for (LibraryFile& f : libraryRuntimeFiles())
        library.files.push_back(std::move(f));
    library.files.push_back({"CMakeLists.txt", cmakeLists(objects)});
    library.files.push_back({"Makefile", makefile(objects)});
    return library;
}

} // namespace stagecraft::codegen
