# Precompiled headers: LLVM's IR headers (core/codegen), Qt Widgets'
# (views/, Studio) and GoogleTest's (the Qt-free suites) are much of what
# their sources cost to compile; parsed once per build instead of once per
# source (docs/decisions.md, "Precompiled headers"). Only third-party
# and standard headers are precompiled: the project's own stay included
# where they are used. STAGECRAFT_PRECOMPILE_HEADERS=OFF builds without
# them, which shows a source that leans on the precompiled set for an
# include of its own.
option(STAGECRAFT_PRECOMPILE_HEADERS "Precompile LLVM's, Qt Widgets' and GoogleTest's headers once per build" ON)

# stagecraft_precompile(<target> <family> <header>...): the first target of
# <family> precompiles the headers; every later target of the family, built
# with the same flags, reuses that one precompiled header.
function(stagecraft_precompile target family)
    if(NOT STAGECRAFT_PRECOMPILE_HEADERS)
        return()
    endif()
    get_property(owner GLOBAL PROPERTY STAGECRAFT_PCH_${family})
    if(owner)
        target_precompile_headers(${target} REUSE_FROM ${owner})
    else()
        target_precompile_headers(${target} PRIVATE ${ARGN})
        set_property(GLOBAL PROPERTY STAGECRAFT_PCH_${family} ${target})
    endif()
endfunction()

# The headers of each family: what most of its sources include.
set(STAGECRAFT_PCH_LLVM
    <llvm/IR/IRBuilder.h> <llvm/IR/DIBuilder.h> <llvm/IR/LLVMContext.h> <llvm/IR/Module.h>
    <llvm/IR/Intrinsics.h> <llvm/TargetParser/Triple.h>
    <algorithm> <functional> <map> <memory> <optional> <string> <utility> <vector>)
set(STAGECRAFT_PCH_WIDGETS
    <QString> <QStringList> <QObject> <QWidget> <QLabel> <QVBoxLayout> <QHBoxLayout>
    <QPainter> <QComboBox> <QPushButton> <QMouseEvent> <QPointer> <QColor> <QFileInfo>
    <algorithm> <cmath> <cstdint> <map> <memory> <optional> <string> <utility> <vector>)
set(STAGECRAFT_PCH_GTEST
    <gtest/gtest.h> <algorithm> <cstdint> <filesystem> <functional> <map> <memory> <optional>
    <string> <utility> <vector>)
