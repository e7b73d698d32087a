#include "ir/weight.h"

#include "support/file.h"

#include <mutex>
#include <optional>

namespace stagecraft::ir {

namespace {

class InlineBytes final : public WeightSource {
public:
    explicit InlineBytes(std::vector<std::byte> bytes)
        : bytes_(std::move(bytes)) {}
    WeightStorage storage() const override { return WeightStorage::Inline; }
    int64_t byteSize() const override { return static_cast<int64_t>(bytes_.size()); }
    Expected<std::span<const std::byte>> bytes() const override {
        return std::span<const std::byte>(bytes_);
    }
    std::string describe() const override { return "inline"; }

private:
    std::vector<std::byte> bytes_;
};

class InlineString final : public WeightSource {
public:
    explicit InlineString(std::string bytes)
        : bytes_(std::move(bytes)) {}
    WeightStorage storage() const override { return WeightStorage::Inline; }
    int64_t byteSize() const override { return static_cast<int64_t>(bytes_.size()); }
    Expected<std::span<const std::byte>> bytes() const override {
        return std::as_bytes(std::span<const char>(bytes_));
    }
    std::string describe() const override { return "inline"; }

private:
    std::string bytes_;
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
            result_ = std::move(*computed);
        }
        return std::span<const std::byte>(*result_);
    }

    std::string describe() const override { return "derived (" + description_ + ")"; }

private:
    int64_t byteSize_;
    std::string description_;
    std::function<Expected<std::vector<std::byte>>()> compute_;
    mutable std::mutex mutex_;
    mutable std::optional<std::vector<std::byte>> result_;
};

} // namespace

WeightPtr makeInlineWeight(std::vector<std::byte> bytes) {
    return std::make_shared<InlineBytes>(std::move(bytes));
}

WeightPtr makeInlineWeight(std::string bytes) {
    return std::make_shared<InlineString>(std::move(bytes));
}

WeightPtr makeExternalWeight(std::filesystem::path file, int64_t offset, int64_t length) {
    return std::make_shared<ExternalRange>(std::move(file), offset, length);
}

WeightPtr makeDerivedWeight(int64_t byteSize, std::string description,
                            std::function<Expected<std::vector<std::byte>>()> compute) {
    return std::make_shared<DerivedData>(byteSize, std::move(description), std::move(compute));
}

} // namespace stagecraft::ir
