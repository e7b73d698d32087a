// The "model changed on disk since the session was saved" message (model_check.h).

#include "driver/model_check.h"

namespace stagecraft::driver {

std::optional<std::string> modelChangedMessage(const std::string& path,
                                               const std::string& savedSha256,
                                               const std::string& nowSha256) {
    if (savedSha256.empty() || savedSha256 == nowSha256)
        return std::nullopt;
    return path + " changed on disk since the session was saved (sha256 " +
           savedSha256.substr(0, 12) + "… now " + nowSha256.substr(0, 12) + "…)";
}

} // namespace stagecraft::driver
