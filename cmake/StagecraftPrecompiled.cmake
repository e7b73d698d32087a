# Precompiled headers: LLVM's IR headers (core/codegen), Qt Widgets'
# (views/, Studio), GoogleTest's (the Qt-free suites) and Qt Test's (the
# CLI's and the GUI's suites) are much of what their sources cost to
# compile; parsed once per build instead of once per source
# (docs/decisions.md, "Precompiled headers"). Only third-party
# and standard headers are precompiled: the project's own stay included
# where they are used. STAGECRAFT_PRECOMPILE_HEADERS=OFF builds without
# them, which shows a source that leans on the precompiled set for an
# include of its own.
option(STAGECRAFT_PRECOMPILE_HEADERS "Precompile LLVM's, Qt's and GoogleTest's headers once per build" ON)

# stagecraft_precompile(<target> <family>): the first target of <family>
# precompiles the family's headers (STAGECRAFT_PCH_<family>, below); every
# later target of the family, built with the same flags, reuses that one
# precompiled header.
function(stagecraft_precompile target family)
    if(NOT STAGECRAFT_PRECOMPILE_HEADERS)
        return()
    endif()
    if(NOT DEFINED STAGECRAFT_PCH_${family})
        message(FATAL_ERROR "stagecraft_precompile: no header family ${family}")
    endif()
    get_property(owner GLOBAL PROPERTY STAGECRAFT_PCH_OWNER_${family})
    if(owner)
        target_precompile_headers(${target} REUSE_FROM ${owner})
    else()
        target_precompile_headers(${target} PRIVATE ${STAGECRAFT_PCH_${family}})
        set_property(GLOBAL PROPERTY STAGECRAFT_PCH_OWNER_${family} ${target})
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
# The Qt Test suites (tests/CMakeLists.txt, stagecraft_add_test): <QtTest>
# brings all of Qt Core; the GUI suites' add what the views use.
set(STAGECRAFT_PCH_QT_TESTS <QtTest> <algorithm> <map> <memory> <set> <string> <utility> <vector>)
set(STAGECRAFT_PCH_GUI_TESTS <QtTest> <QSignalSpy> ${STAGECRAFT_PCH_WIDGETS} <set>)
set(STAGECRAFT_PCH_GTEST
    <gtest/gtest.h> <algorithm> <cstdint> <filesystem> <functional> <map> <memory> <optional>
    <string> <utility> <vector>)
