#include "model/formats/prometheustext.h"

#include "model/core/textpattern.h"

#include <QDateTime>
#include <QString>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

namespace plimsoll {

namespace {

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}

// A failure while reading one line: the message and the 0-based byte column.
struct LineFailure
{
    std::string message;
    size_t column = 0;
    std::string field;
};

// A cursor over one line; every read reports where it failed.
class LineReader
{
public:
    explicit LineReader(std::string_view line) : m_line(line) {}

    size_t pos() const { return m_pos; }
    bool atEnd() const { return m_pos >= m_line.size(); }
    char peek() const { return atEnd() ? '\0' : m_line[m_pos]; }
    void skipBlanks()
    {
        while (!atEnd() && (m_line[m_pos] == ' ' || m_line[m_pos] == '\t'))
            ++m_pos;
    }
    bool consume(char c)
    {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    std::string_view name(bool allowColon)
    {
        const size_t start = m_pos;
        if (atEnd() || !isNameStart(m_line[m_pos]) || (!allowColon && m_line[m_pos] == ':'))
            return {};
        while (!atEnd() && isNameChar(m_line[m_pos]) && (allowColon || m_line[m_pos] != ':'))
            ++m_pos;
        return m_line.substr(start, m_pos - start);
    }
    std::string_view token()
    {
        const size_t start = m_pos;
        while (!atEnd() && m_line[m_pos] != ' ' && m_line[m_pos] != '\t')
            ++m_pos;
        return m_line.substr(start, m_pos - start);
    }
    std::string_view rest() const { return m_line.substr(std::min(m_pos, m_line.size())); }

private:
    std::string_view m_line;
    size_t m_pos = 0;
};

std::optional<double> parseValue(std::string_view s)
{
    // Go's strconv.ParseFloat, which client_golang's parser uses, accepts these spellings.
    std::string lower(s);
    for (char &c : lower)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "+inf" || lower == "inf")
        return std::numeric_limits<double>::infinity();
    if (lower == "-inf")
        return -std::numeric_limits<double>::infinity();
    if (lower == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    std::string_view body = s;
    bool negative = false;
    if (!body.empty() && (body.front() == '+' || body.front() == '-')) {
        negative = body.front() == '-';
        body.remove_prefix(1);
    }
    double v = 0;
    const auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), v);
    if (body.empty() || ec != std::errc() || ptr != body.data() + body.size())
        return std::nullopt;
    return negative ? -v : v;
}

std::optional<PromType> parseType(std::string_view s)
{
    if (s == "counter")
        return PromType::Counter;
    if (s == "gauge")
        return PromType::Gauge;
    if (s == "histogram")
        return PromType::Histogram;
    if (s == "summary")
        return PromType::Summary;
    if (s == "untyped" || s == "unknown")
        return PromType::Untyped;
    return std::nullopt;
}

// A line a harness writes between scrapes with `date`: "2026-08-11 03:00:05", ISO-8601 with
// an optional zone (no zone reads as UTC), or "# scrape <that>". Milliseconds since the epoch.
std::optional<int64_t> separatorTime(std::string_view line)
{
    static const TextPattern re(
        R"(^(?:#\s*scrape\s+)?(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?)(Z|[+-]\d{2}:?\d{2})?,?\s*$)");
    PatternMatch m;
    if (!re.fullMatch(line, &m))
        return std::nullopt;
    const QString iso = QString::fromStdString(m.str(1) + "T" + m.str(2) +
                                               (m.matched(3) ? m.str(3) : std::string("Z")));
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (!t.isValid())
        return std::nullopt;
    return t.toMSecsSinceEpoch();
}

std::optional<LineFailure> readLabels(LineReader &r, PromLabels &labels)
{
    // After '{'.
    for (;;) {
        r.skipBlanks();
        if (r.consume('}'))
            return std::nullopt;
        const size_t nameAt = r.pos();
        const std::string key(r.name(false));
        if (key.empty())
            return LineFailure{"expected a label name or '}'", nameAt, {}};
        r.skipBlanks();
        if (!r.consume('='))
            return LineFailure{"expected '=' after the label name", r.pos(), key};
        r.skipBlanks();
        if (!r.consume('"'))
            return LineFailure{"expected '\"' to open the label value", r.pos(), key};
        std::string value;
        for (;;) {
            if (r.atEnd())
                return LineFailure{"the label value is not closed by '\"'", r.pos(), key};
            const char c = r.peek();
            r.consume(c);
            if (c == '"')
                break;
            if (c != '\\') {
                value += c;
                continue;
            }
            const size_t escAt = r.pos() - 1;
            const char e = r.peek();
            if (e == '\\' || e == '"')
                value += e;
            else if (e == 'n')
                value += '\n';
            else
                return LineFailure{"unknown escape in the label value (only \\\\, \\\" and \\n)",
                                   escAt, key};
            r.consume(e);
        }
        for (const auto &[k, v] : labels)
            if (k == key)
                return LineFailure{"the label appears twice", nameAt, key};
        labels.emplace_back(key, std::move(value));
        r.skipBlanks();
        // A trailing comma before '}' is accepted: old jmx_exporter writes it.
        if (r.consume(','))
            continue;
        if (r.consume('}'))
            return std::nullopt;
        return LineFailure{"expected ',' or '}' after the label value", r.pos(), key};
    }
}

std::optional<LineFailure> readSample(std::string_view line, PromSample &sample)
{
    LineReader r(line);
    r.skipBlanks();
    const size_t nameAt = r.pos();
    sample.name = std::string(r.name(true));
    if (sample.name.empty())
        return LineFailure{"expected a metric name", nameAt, {}};
    size_t before = r.pos();
    r.skipBlanks();
    if (r.consume('{')) {
        if (auto failure = readLabels(r, sample.labels)) {
            if (failure->field.empty())
                failure->field = sample.name;
            return failure;
        }
        before = r.pos();
        r.skipBlanks();
    }
    if (r.pos() == before && !r.atEnd())
        return LineFailure{"expected a blank before the value", r.pos(), sample.name};
    const size_t valueAt = r.pos();
    const std::string_view valueText = r.token();
    if (valueText.empty())
        return LineFailure{"the sample has no value", valueAt, sample.name};
    const auto value = parseValue(valueText);
    if (!value)
        return LineFailure{"'" + std::string(valueText) + "' is not a number", valueAt,
                           sample.name};
    sample.value = *value;
    r.skipBlanks();
    if (!r.atEnd()) {
        const size_t tsAt = r.pos();
        const std::string_view ts = r.token();
        int64_t ms = 0;
        const auto [ptr, ec] = std::from_chars(ts.data(), ts.data() + ts.size(), ms);
        if (ec != std::errc() || ptr != ts.data() + ts.size())
            return LineFailure{"'" + std::string(ts) + "' is not a timestamp in milliseconds",
                               tsAt, sample.name};
        sample.timestampMs = ms;
        r.skipBlanks();
        if (!r.atEnd())
            return LineFailure{"unexpected text after the timestamp", r.pos(), sample.name};
    }
    return std::nullopt;
}

// The family a sample belongs to: its own name, or the name without a histogram's or
// summary's suffix when such a family was declared.
std::string familyNameOf(const std::string &sample, const std::map<std::string, size_t> &index,
                         const std::vector<PromFamily> &families)
{
    for (const char *suffix : {"_bucket", "_sum", "_count", "_created"}) {
        const std::string_view s(suffix);
        if (sample.size() > s.size() && sample.ends_with(s)) {
            const std::string base = sample.substr(0, sample.size() - s.size());
            auto it = index.find(base);
            if (it != index.end() && (families[it->second].type == PromType::Histogram ||
                                      families[it->second].type == PromType::Summary))
                return base;
        }
    }
    return sample;
}

class Builder
{
public:
    PromParseResult result;

    PromSnapshot &current()
    {
        if (result.snapshots.empty() || m_closed) {
            result.snapshots.emplace_back();
            m_index.clear();
            m_last = std::string_view::npos;
            m_closed = false;
        }
        return result.snapshots.back();
    }
    bool currentHasData() const
    {
        return !m_closed && !result.snapshots.empty() && !result.snapshots.back().families.empty();
    }
    void close() { m_closed = !result.snapshots.empty(); }
    PromFamily &family(const std::string &name, int64_t line, bool declaring)
    {
        PromSnapshot &open = current();
        // A sample of the family the last one belonged to (most are): no lookup by name.
        if (!declaring && m_last != std::string_view::npos && open.families[m_last].name == name)
            return open.families[m_last];
        // A TYPE or HELP of a family this scrape already has samples for starts the next scrape.
        auto it = m_index.find(name);
        if (declaring && it != m_index.end() && !current().families[it->second].samples.empty())
            close();
        PromSnapshot &snap = current(); // after close(): a new scrape with an empty index
        it = m_index.find(name);
        if (snap.line == 0)
            snap.line = line;
        if (it == m_index.end()) {
            it = m_index.emplace(name, snap.families.size()).first;
            snap.families.push_back({});
            snap.families.back().name = name;
            snap.families.back().line = line;
        }
        m_last = it->second;
        return snap.families[it->second];
    }
    const std::map<std::string, size_t> &index() const { return m_index; }

private:
    std::map<std::string, size_t> m_index;
    size_t m_last = std::string_view::npos; // the family family() last returned, in current()
    bool m_closed = false;
};

} // namespace

std::string promTypeName(PromType type)
{
    switch (type) {
    case PromType::Counter: return "counter";
    case PromType::Gauge: return "gauge";
    case PromType::Histogram: return "histogram";
    case PromType::Summary: return "summary";
    case PromType::Untyped: break;
    }
    return "untyped";
}

std::optional<std::string> PromSample::label(std::string_view key) const
{
    for (const auto &[k, v] : labels)
        if (k == key)
            return v;
    return std::nullopt;
}

const PromFamily *PromSnapshot::family(std::string_view name) const
{
    for (const PromFamily &f : families)
        if (f.name == name)
            return &f;
    return nullptr;
}

std::string promSeriesName(std::string_view name, const PromLabels &labels,
                           const std::vector<std::string> &drop)
{
    // Built in place, in one allocation, the values copied between the characters they escape:
    // this runs once per sample of every scrape.
    size_t size = name.size() + 2;
    for (const auto &[k, v] : labels)
        size += k.size() + v.size() + 4;
    std::string out;
    out.reserve(size);
    out += name;
    bool any = false;
    for (const auto &[k, v] : labels) {
        if (!drop.empty() && std::find(drop.begin(), drop.end(), k) != drop.end())
            continue;
        out += any ? ',' : '{';
        any = true;
        out += k;
        out += "=\"";
        for (size_t from = 0;;) {
            const size_t at = v.find_first_of("\\\"\n", from);
            out.append(v, from, at == std::string::npos ? std::string::npos : at - from);
            if (at == std::string::npos)
                break;
            out += v[at] == '\n' ? "\\n" : v[at] == '"' ? "\\\"" : "\\\\";
            from = at + 1;
        }
        out += '"';
    }
    if (any)
        out += '}';
    return out;
}

PromParseResult parsePrometheusText(std::string_view text)
{
    Builder b;
    size_t start = 0;
    int64_t number = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        const bool terminated = end != std::string_view::npos;
        if (!terminated)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (number == 1 && line.substr(0, 3) == "\xEF\xBB\xBF")
            line.remove_prefix(3);
        const size_t first = line.find_first_not_of(" \t");
        if (first == std::string_view::npos)
            continue;
        const std::string_view body = line.substr(first);
        // The regex only runs on lines that can be a separator: the rest are most of a scrape.
        const bool maybeSeparator = (body.front() >= '0' && body.front() <= '9') ||
                                    body.substr(0, 8) == "# scrape" || body.substr(0, 7) == "#scrape";
        if (auto t = maybeSeparator ? separatorTime(body) : std::nullopt) {
            if (b.currentHasData())
                b.close();
            PromSnapshot &snap = b.current();
            snap.timeMs = *t;
            snap.line = number;
            continue;
        }
        if (body.front() == '#') {
            LineReader r(body.substr(1));
            r.skipBlanks();
            const std::string_view keyword = r.token();
            if (keyword == "EOF") {
                b.close();
                continue;
            }
            if (keyword != "HELP" && keyword != "TYPE")
                continue; // a free comment
            r.skipBlanks();
            const std::string name(r.name(true));
            const int64_t column = int64_t(first + 2 + r.pos());
            if (name.empty()) {
                b.result.error = PromParseError{"expected a metric name after # " +
                                                    std::string(keyword),
                                                number, column, {}};
                return b.result;
            }
            r.skipBlanks();
            PromFamily &f = b.family(name, number, true);
            if (keyword == "HELP") {
                std::string help;
                const std::string_view raw = r.rest();
                for (size_t i = 0; i < raw.size(); ++i) {
                    if (raw[i] == '\\' && i + 1 < raw.size() && (raw[i + 1] == '\\' || raw[i + 1] == 'n')) {
                        help += raw[i + 1] == 'n' ? '\n' : '\\';
                        ++i;
                    } else {
                        help += raw[i];
                    }
                }
                f.help = help;
            } else {
                const size_t typeAt = first + 2 + r.pos();
                const std::string_view typeText = r.token();
                const auto type = parseType(typeText);
                if (!type) {
                    b.result.error = PromParseError{"'" + std::string(typeText) +
                                                        "' is not a metric type (counter, gauge, "
                                                        "histogram, summary, untyped)",
                                                    number, int64_t(typeAt) + 1, name};
                    return b.result;
                }
                f.type = *type;
            }
            continue;
        }
        PromSample sample;
        sample.line = number;
        if (auto failure = readSample(body, sample)) {
            if (!terminated) {
                b.result.warnings.push_back(
                    {"truncated-line", number,
                     "the last line has no line end and does not parse (" + failure->message +
                         "): left out as cut short"});
                break;
            }
            b.result.error = PromParseError{failure->message, number,
                                            int64_t(first + failure->column) + 1, failure->field};
            return b.result;
        }
        const std::string familyName = familyNameOf(sample.name, b.index(),
                                                    b.current().families);
        PromFamily &f = b.family(familyName, number, false);
        f.samples.push_back(std::move(sample));
    }
    for (PromSnapshot &snap : b.result.snapshots) {
        if (snap.timeMs)
            continue;
        for (const PromFamily &f : snap.families)
            for (const PromSample &s : f.samples)
                if (s.timestampMs && (!snap.timeMs || *s.timestampMs > *snap.timeMs)) {
                    snap.timeMs = s.timestampMs;
                    snap.timeFromSamples = true;
                }
    }
    std::erase_if(b.result.snapshots, [](const PromSnapshot &s) { return s.families.empty(); });
    return std::move(b.result); // a member: returned as it is, not copied
}

} // namespace plimsoll
