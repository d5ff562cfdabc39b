#include "model/core/factorwords.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace plimsoll {

namespace {

enum Order : unsigned
{
    Before = 1, // the word comes first: "brokers-3", "c-50"
    After = 2,  // the number comes first: "3-brokers", "4p"
    Both = 3,
};

struct Word
{
    std::string_view word;
    const char *factor;
    unsigned order;
    bool whole; // a whole word, read from paths too (not only from scenario names)
};

// The offered rate's words stand for the pseudo-factor "offered_rate" in workloadOf().
constexpr const char *kOfferedRate = "offered_rate";

constexpr Word kWords[] = {
    {"partition", "partitions", Both, true},   {"partitions", "partitions", Both, true},
    {"producer", "producers", Both, true},     {"producers", "producers", Both, true},
    {"consumer", "consumers", Both, true},     {"consumers", "consumers", Both, true},
    {"client", "clients", Both, true},         {"clients", "clients", Both, true},
    {"connection", "connections", Both, true}, {"connections", "connections", Both, true},
    {"conns", "connections", Both, true},      {"conn", "connections", Both, false},
    {"broker", "brokers", Both, true},         {"brokers", "brokers", Both, true},
    {"shard", "shards", Both, true},           {"shards", "shards", Both, true},
    {"thread", "threads", Both, true},         {"threads", "threads", Both, true},
    {"agent", "agents", Both, true},           {"agents", "agents", Both, true},
    {"replica", "replication", Both, true},    {"replicas", "replication", Both, true},
    {"replication", "replication", Both, true}, {"rf", "replication", Before, true},
    {"pipeline", "pipeline", Both, true},
    {"rate", kRateWord, After, true},          {"throughput", kThroughputWord, After, true},
    // One-letter and unit forms, read only in scenario names.
    {"c", "clients", Before, false},           {"c", "connections", Before, false},
    {"p", "pipeline", Before, false},
    {"t", "threads", Before, false},           {"p", "producers", After, false},
    {"c", "consumers", After, false},          {"b", "record_size_bytes", After, false},
    {"kb", "record_size_bytes", After, false}, {"kib", "record_size_bytes", After, false},
    {"mb", "record_size_bytes", After, false}, {"mib", "record_size_bytes", After, false},
    {"bytes", "record_size_bytes", After, false},
};

bool isLetter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool isSeparator(char c) { return c == '-' || c == '_' || c == ' ' || c == '='; }

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

// One number in the text and the words on either side of it.
struct NumberToken
{
    size_t begin = 0, end = 0; // the digits (and fraction)
    size_t unitEnd = 0;        // after a k/M multiplier, when one follows
    double value = 0;
    double multiplier = 1;
    std::string before; // the letters just before (one separator between), lower case
    std::string after;  // the letters just after (a multiplier and one separator between)
    size_t beforeBegin = 0, afterEnd = 0;
    std::string afterNoUnit; // the letters just after the digits, when no multiplier is read
    size_t afterNoUnitEnd = 0;
};

std::string lettersAt(std::string_view s, size_t from, size_t *end)
{
    size_t e = from;
    while (e < s.size() && isLetter(s[e]))
        ++e;
    *end = e;
    return lower(s.substr(from, e - from));
}

std::vector<NumberToken> numbers(std::string_view s)
{
    std::vector<NumberToken> out;
    for (size_t i = 0; i < s.size();) {
        if (!isDigit(s[i]) || (i > 0 && (isDigit(s[i - 1]) || s[i - 1] == '.'))) {
            ++i;
            continue;
        }
        NumberToken t;
        t.begin = i;
        size_t e = i;
        while (e < s.size() && isDigit(s[e]))
            ++e;
        if (e + 1 < s.size() && s[e] == '.' && isDigit(s[e + 1])) {
            ++e;
            while (e < s.size() && isDigit(s[e]))
                ++e;
        }
        t.end = e;
        std::from_chars(s.data() + t.begin, s.data() + t.end, t.value);
        // The word before: letters ending at the number or one separator before it, starting at
        // a boundary (not glued to a longer run of letters and digits).
        size_t b = t.begin;
        if (b > 0 && isSeparator(s[b - 1]))
            --b;
        size_t wb = b;
        while (wb > 0 && isLetter(s[wb - 1]))
            --wb;
        if (wb < b && (wb == 0 || !isDigit(s[wb - 1]))) {
            t.before = lower(s.substr(wb, b - wb));
            t.beforeBegin = wb;
        }
        // The word after, with no multiplier read.
        size_t a = t.end;
        if (a < s.size() && isSeparator(s[a]))
            ++a;
        size_t we = a;
        t.afterNoUnit = lettersAt(s, a, &we);
        t.afterNoUnitEnd = we;
        // With a multiplier: "200K-rate", "1.5M_rate".
        t.unitEnd = t.end;
        if (t.end < s.size() && (s[t.end] == 'k' || s[t.end] == 'K' || s[t.end] == 'm' || s[t.end] == 'M') &&
            t.end + 1 < s.size() && (isSeparator(s[t.end + 1]) || !isLetter(s[t.end + 1]))) {
            size_t a2 = t.end + 1;
            if (a2 < s.size() && isSeparator(s[a2]))
                ++a2;
            size_t we2 = a2;
            const std::string w = lettersAt(s, a2, &we2);
            if (w == "rate") {
                t.multiplier = (s[t.end] == 'k' || s[t.end] == 'K') ? 1e3 : 1e6;
                t.unitEnd = t.end + 1;
                t.after = w;
                t.afterEnd = we2;
            }
        }
        if (t.after.empty()) {
            t.after = t.afterNoUnit;
            t.afterEnd = t.afterNoUnitEnd;
        }
        out.push_back(std::move(t));
        i = e;
    }
    return out;
}

const Word *wholeWord(const std::string &word, unsigned order)
{
    for (const Word &w : kWords)
        if (w.word == word && (w.order & order) && w.whole)
            return &w;
    return nullptr;
}

// The word after the number is one the table knows, in any form.
bool claimedAfter(const NumberToken &t)
{
    return std::any_of(std::begin(kWords), std::end(kWords), [&](const Word &w) {
        return (w.order & After) && (w.word == t.after || w.word == t.afterNoUnit);
    });
}

bool wanted(const Word &w, const std::vector<std::string> &factors)
{
    const std::string_view f = w.factor;
    const bool rate = f == kRateWord || f == kThroughputWord;
    return std::any_of(factors.begin(), factors.end(), [&](const std::string &x) {
        return x == f || (rate && x == kOfferedRate);
    });
}

} // namespace

std::vector<FactorInName> factorsInName(std::string_view name)
{
    std::vector<FactorInName> out;
    for (const NumberToken &t : numbers(name)) {
        const Word *w = nullptr;
        size_t from = t.begin, to = t.unitEnd;
        // A number is the word's after it when that names anything ("partitions-1kb" is a
        // record size, not one partition); only a number with no such word takes the one before.
        if (claimedAfter(t))
            w = wholeWord(t.after, After);
        if (w)
            to = t.afterEnd;
        else if (!claimedAfter(t) && !t.before.empty()) {
            w = wholeWord(t.before, Before);
            from = t.beforeBegin;
        }
        if (!w)
            continue;
        const bool rate = std::string_view(w->factor) == kRateWord;
        const double value = t.value * (rate ? t.multiplier : 1);
        const bool count = !rate && std::string_view(w->factor) != kThroughputWord;
        if (!(value > 0) || (count && std::trunc(value) != value))
            continue;
        FactorInName f{w->factor, value, std::string(name.substr(from, to - from))};
        std::erase_if(out, [&](const FactorInName &o) { return o.factor == f.factor; });
        out.push_back(std::move(f));
    }
    return out;
}

std::string workloadOf(std::string_view scenario, const std::vector<std::string> &factors)
{
    // "4p-4c": one letter names one factor after a number and another before one.
    auto names = [&](const std::string &word, unsigned order) {
        return !word.empty() && std::any_of(std::begin(kWords), std::end(kWords), [&](const Word &w) {
                   return w.word == word && (w.order & order) && wanted(w, factors);
               });
    };
    std::string out;
    size_t copied = 0;
    for (const NumberToken &t : numbers(scenario)) {
        const bool withUnit = t.multiplier != 1 && names(t.after, After);
        // The word after a number claims it when it is any factor's ("partitions-1kb").
        const bool before = !claimedAfter(t) && (t.before == "step" || names(t.before, Before));
        if (!withUnit && !names(t.afterNoUnit, After) && !before)
            continue;
        out.append(scenario.substr(copied, t.begin - copied));
        out += '*';
        copied = withUnit ? t.unitEnd : t.end;
    }
    out.append(scenario.substr(copied));
    return out;
}

} // namespace plimsoll
