#pragma once
/// \file
/// The suite of test_code_plan (test_code_plan.cpp, test_host_layouts.cpp):
/// zoo models written once for the whole program.

#include "codegen_fixture.h"
#include "coretestsupport.h"
#include "suite_fixture.h"

#include <map>
#include <string>

namespace stagecraft::test {

/// State shared by every test, made once for the whole program (the Qt
/// suite's test object and initTestCase).
class TestCodePlan : public OnceSuite<TestCodePlan> {
protected:
    static inline std::map<std::string, ModelFile> zoo_;

    static const ModelFile& zoo(const std::string& name, int64_t seq = 0) {
        if (zoo_.count(name) == 0)
            zoo_[name] = writeZoo(dir_->filePath(name), name, seq);
        return zoo_[name];
    }
};

} // namespace stagecraft::test
