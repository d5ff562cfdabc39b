#pragma once
// An enum's names for files, flags and JSON as one table, read both ways: the table is the
// single place a value's spelling is written, and a name not in it is refused (nullopt),
// never mapped to a default.
//
//     constexpr EnumName<Colour> kColourNames[] = {{Colour::Red, "red"}, {Colour::Blue, "blue"}};
//     const char *toString(Colour c) { return nameOf(kColourNames, c); }

#include <cstddef>
#include <optional>
#include <string_view>

namespace plimsoll {

template <class E>
struct EnumName
{
    E value;
    const char *name;
};

// The value's name; a value missing from the table (a table kept short of the enum by
// mistake) gets the first entry's name.
template <class E, std::size_t N>
constexpr const char *nameOf(const EnumName<E> (&table)[N], E value)
{
    for (const EnumName<E> &entry : table)
        if (entry.value == value)
            return entry.name;
    return table[0].name;
}

template <class E, std::size_t N>
constexpr std::optional<E> valueOf(const EnumName<E> (&table)[N], std::string_view name)
{
    for (const EnumName<E> &entry : table)
        if (name == entry.name)
            return entry.value;
    return std::nullopt;
}

} // namespace plimsoll
