#pragma once
/// \file
/// Typed ids: `Id<Tag>` is the index of one kind of thing (an instance, a
/// group, a memory pool…), so an instance id cannot be passed where a group
/// id is wanted, and `IdVector<IdT, T>` is a vector indexed by that kind of id
/// only. Both are as cheap as the int32_t they wrap (issue 17, item 3).
///
/// Conventions: a default id is 0, as the plain integers were; "no such
/// thing" is a named constant of value -1 (`kNoPool`); `value()` is for
/// files, messages and arithmetic on positions, `index()` for raw arrays.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <utility>
#include <vector>

namespace stagecraft {

template <typename Tag>
class Id {
public:
    using Rep = int32_t;

    constexpr Id() = default;
    constexpr explicit Id(Rep value)
        : value_(value) {}
    /// The id at position \p index of a table.
    static constexpr Id at(size_t index) { return Id(static_cast<Rep>(index)); }

    constexpr Rep value() const { return value_; }
    constexpr size_t index() const { return static_cast<size_t>(value_); }

    friend constexpr bool operator==(Id, Id) = default;
    friend constexpr auto operator<=>(Id, Id) = default;

    template <typename Char, typename Traits>
    friend std::basic_ostream<Char, Traits>& operator<<(std::basic_ostream<Char, Traits>& out,
                                                        Id id) {
        return out << id.value_;
    }

private:
    Rep value_ = 0;
};

/// The ids 0 … count-1 of a table, for range-for.
template <typename IdT>
class IdRange {
public:
    class iterator {
    public:
        using value_type = IdT;
        using difference_type = std::ptrdiff_t;
        constexpr iterator() = default;
        constexpr explicit iterator(size_t at)
            : at_(at) {}
        constexpr IdT operator*() const { return IdT::at(at_); }
        constexpr iterator& operator++() {
            ++at_;
            return *this;
        }
        constexpr iterator operator++(int) { return iterator(at_++); }
        friend constexpr bool operator==(iterator, iterator) = default;

    private:
        size_t at_ = 0;
    };

    constexpr explicit IdRange(size_t count)
        : count_(count) {}
    constexpr iterator begin() const { return iterator(0); }
    constexpr iterator end() const { return iterator(count_); }
    constexpr size_t size() const { return count_; }

private:
    size_t count_ = 0;
};

/// A std::vector whose elements are reached by one kind of id. Everything
/// else (iteration, size, push_back…) is std::vector's.
template <typename IdT, typename T>
class IdVector : private std::vector<T> {
    using Base = std::vector<T>;

public:
    using typename Base::const_iterator;
    using typename Base::const_reference;
    using typename Base::iterator;
    using typename Base::reference;
    using typename Base::size_type;
    using typename Base::value_type;

    IdVector() = default;
    explicit IdVector(size_t count)
        : Base(count) {}
    IdVector(size_t count, const T& value)
        : Base(count, value) {}
    explicit IdVector(Base values)
        : Base(std::move(values)) {}
    IdVector(std::initializer_list<T> values)
        : Base(values) {}

    reference operator[](IdT id) { return Base::operator[](id.index()); }
    const_reference operator[](IdT id) const { return Base::operator[](id.index()); }
    /// True when \p id names an element.
    bool contains(IdT id) const { return id.value() >= 0 && id.index() < Base::size(); }
    /// The id push_back would give the next element.
    IdT nextId() const { return IdT::at(Base::size()); }
    /// Every id, ascending.
    IdRange<IdT> ids() const { return IdRange<IdT>(Base::size()); }
    /// The elements as a plain vector, for code that works on positions.
    const Base& values() const { return *this; }

    using Base::assign;
    using Base::back;
    using Base::begin;
    using Base::cbegin;
    using Base::cend;
    using Base::clear;
    using Base::emplace_back;
    using Base::empty;
    using Base::end;
    using Base::front;
    using Base::pop_back;
    using Base::push_back;
    using Base::reserve;
    using Base::resize;
    using Base::size;

    friend bool operator==(const IdVector& a, const IdVector& b) {
        return a.values() == b.values();
    }
};

} // namespace stagecraft

template <typename Tag>
struct std::hash<stagecraft::Id<Tag>> {
    size_t operator()(stagecraft::Id<Tag> id) const noexcept {
        return std::hash<int32_t>()(id.value());
    }
};
