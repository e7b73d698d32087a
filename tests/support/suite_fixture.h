#pragma once
// The fixture base of the suites whose state is made once for the whole
// program: a temporary directory, and whatever the suite adds to it.

#include "coretestsupport.h"

#include <memory>

namespace stagecraft::test {

/// Whether a OnceSuite makes a temporary directory dir_ for its suite.
enum class SuiteDir { Make, None };

/// Makes dir_ once (unless SuiteDir::None), then Derived::prepare() (a
/// public static that may use ASSERT_*; none by default); a test of the
/// suite fails at once when that setup failed. CRTP: every Derived has its
/// own dir_ and ready_.
template <typename Derived, SuiteDir kDir = SuiteDir::Make>
class OnceSuite : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (ready_)
            return;
        if constexpr (kDir == SuiteDir::Make) {
            dir_ = std::make_unique<TempDir>();
            ASSERT_TRUE(dir_->isValid());
        }
        Derived::prepare();
        if (HasFatalFailure())
            return;
        ready_ = true;
    }
    void SetUp() override { ASSERT_TRUE(ready_) << "the suite's setup failed"; }

    /// What a suite adds to its setup: nothing.
    static void prepare() {}

    static inline bool ready_ = false;
    static inline std::unique_ptr<TempDir> dir_;
};

} // namespace stagecraft::test
