#pragma once
/// \file
/// Box: one closed interval per dimension of a tensor, the slice an instance
/// reads or writes. Stored inline up to rank 6 (every op of the zoo and of
/// real models), on the heap beyond: the scheduler builds millions of boxes
/// on large graphs and a heap allocation each dominated its time.

#include "ops/loop_nest.h"

#include <array>
#include <cstddef>
#include <vector>

namespace stagecraft::partition {

class Box {
public:
    Box() = default;
    /// \p rank empty intervals.
    explicit Box(size_t rank) { resize(rank); }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    ops::Interval& operator[](size_t i) { return data()[i]; }
    const ops::Interval& operator[](size_t i) const { return data()[i]; }
    ops::Interval* begin() { return data(); }
    ops::Interval* end() { return data() + size_; }
    const ops::Interval* begin() const { return data(); }
    const ops::Interval* end() const { return data() + size_; }

    void push_back(ops::Interval interval) {
        if (size_ < kInline) {
            inline_[size_++] = interval;
            return;
        }
        if (size_ == kInline)
            heap_.assign(inline_.begin(), inline_.end());
        heap_.push_back(interval);
        ++size_;
    }
    void reserve(size_t) {}
    void resize(size_t rank) {
        while (size_ < rank)
            push_back({});
    }

    bool operator==(const Box& other) const {
        if (size_ != other.size_)
            return false;
        for (size_t i = 0; i < size_; ++i)
            if (!((*this)[i] == other[i]))
                return false;
        return true;
    }

private:
    static constexpr size_t kInline = 6;
    ops::Interval* data() { return size_ <= kInline ? inline_.data() : heap_.data(); }
    const ops::Interval* data() const { return size_ <= kInline ? inline_.data() : heap_.data(); }

    std::array<ops::Interval, kInline> inline_{};
    std::vector<ops::Interval> heap_;
    size_t size_ = 0;
};

} // namespace stagecraft::partition
