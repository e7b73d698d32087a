#include "support/divisors.h"

namespace stagecraft {

std::vector<int64_t> divisors(int64_t n) {
    std::vector<int64_t> low, high;
    for (int64_t d = 1; d <= n / d; ++d)
        if (n % d == 0) {
            low.push_back(d);
            if (d != n / d)
                high.push_back(n / d);
        }
    low.insert(low.end(), high.rbegin(), high.rend());
    return low;
}

} // namespace stagecraft
