#include "ir/weight.h"

#include "support/aligned_bytes.h"
#include "support/file.h"

#include <mutex>
#include <optional>

namespace stagecraft::ir {

namespace {

/// Inline and derived bytes are kept at a cache line (support/aligned_bytes.h):
/// the host's kernels read a weight they do not lay out again in place, and a
/// vector load of a weight at 16 bytes past a line touches two lines.
AlignedBytes aligned(std::span<const std::byte> bytes) {
    return AlignedBytes(bytes.begin(), bytes.end());
}

class InlineBytes final : public WeightSource {
public:
    explicit InlineBytes(const std::vector<std::byte>& bytes)
        : bytes_(aligned(bytes)) {}
    WeightStorage storage() const override { return WeightStorage::Inline; }
    int64_t byteSize() const override { return static_cast<int64_t>(bytes_.size()); }
    Expected<std::span<const std::byte>> bytes() const override {
        return std::span<const std::byte>(bytes_);
    }
    std::string describe() const override { return "inline"; }

private:
    AlignedBytes bytes_;
};

class InlineString final : public WeightSource {
public:
    explicit InlineString(const std::string& bytes)
        : bytes_(aligned(std::as_bytes(std::span<const char>(bytes)))) {}
    WeightStorage storage() const override { return WeightStorage::Inline; }
    int64_t byteSize() const override { return static_cast<int64_t>(bytes_.size()); }
    Expected<std::span<const std::byte>> bytes() const override {
        return std::span<const std::byte>(bytes_);
    }
    std::string describe() const override { return "inline"; }

private:
    AlignedBytes bytes_;
};

class ExternalRange final : public WeightSource {
public:
    ExternalRange(std::filesystem::path file, int64_t offset, int64_t length)
        : file_(std::move(file))
        , offset_(offset)
        , length_(length) {}
    WeightStorage storage() const override { return WeightStorage::External; }
    int64_t byteSize() const override { return length_; }

    Expected<std::span<const std::byte>> bytes() const override {
        std::lock_guard lock(mutex_);
        if (!mapped_) {
            auto mapped = mapShared(file_);
            if (!mapped.ok())
                return mapped.error();
            mapped_ = *mapped;
        }
        auto all = mapped_->bytes();
        if (offset_ < 0 || length_ < 0 || static_cast<uint64_t>(offset_ + length_) > all.size())
            return Error(file_.string() + ": external data range " + std::to_string(offset_) + "+" +
                         std::to_string(length_) + " is beyond the end of the file (" +
                         std::to_string(all.size()) + " bytes)");
        return all.subspan(static_cast<size_t>(offset_), static_cast<size_t>(length_));
    }

    std::string describe() const override {
        return "external " + file_.filename().string() + "@" + std::to_string(offset_) + "+" +
               std::to_string(length_);
    }

private:
    std::filesystem::path file_;
    int64_t offset_;
    int64_t length_;
    mutable std::mutex mutex_;
    mutable std::shared_ptr<const MappedFile> mapped_;
};

class DerivedData final : public WeightSource {
public:
    DerivedData(int64_t byteSize, std::string description,
                std::function<Expected<std::vector<std::byte>>()> compute)
        : byteSize_(byteSize)
        , description_(std::move(description))
        , compute_(std::move(compute)) {}
    WeightStorage storage() const override { return WeightStorage::Derived; }
    int64_t byteSize() const override { return byteSize_; }

    Expected<std::span<const std::byte>> bytes() const override {
        std::lock_guard lock(mutex_);
        if (!result_) {
            auto computed = compute_();
            if (!computed.ok())
                return computed.error();
            SC_ASSERT(static_cast<int64_t>(computed->size()) == byteSize_,
                      "derived weight has the wrong size");
            result_ = aligned(*computed);
        }
        return std::span<const std::byte>(*result_);
    }

    std::string describe() const override { return "derived (" + description_ + ")"; }

private:
    int64_t byteSize_;
    std::string description_;
    std::function<Expected<std::vector<std::byte>>()> compute_;
    mutable std::mutex mutex_;
    mutable std::optional<AlignedBytes> result_;
};

} // namespace

WeightPtr makeInlineWeight(std::vector<std::byte> bytes) {
    return std::make_shared<InlineBytes>(bytes);
}

WeightPtr makeInlineWeight(std::string bytes) {
    return std::make_shared<InlineString>(bytes);
}

WeightPtr makeExternalWeight(std::filesystem::path file, int64_t offset, int64_t length) {
    return std::make_shared<ExternalRange>(std::move(file), offset, length);
}

WeightPtr makeDerivedWeight(int64_t byteSize, std::string description,
                            std::function<Expected<std::vector<std::byte>>()> compute) {
    return std::make_shared<DerivedData>(byteSize, std::move(description), std::move(compute));
}

} // namespace stagecraft::ir
