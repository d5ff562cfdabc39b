#include "importers/textsource.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QIODevice>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <regex>

namespace plimsoll {

namespace {
constexpr int64_t kChunk = 64 * 1024;
}

bool readWholeSource(QIODevice &in, const Progress &progress, int64_t maxBytes,
                     const std::string &what, std::string &text, ImportResult &result)
{
    const int64_t total = in.isSequential() ? -1 : in.size();
    while (true) {
        const QByteArray chunk = in.read(kChunk);
        if (chunk.isEmpty())
            break;
        text.append(chunk.constData(), size_t(chunk.size()));
        if (int64_t(text.size()) > maxBytes) {
            result.error = ImportError{"is larger than " + std::to_string(maxBytes / kMiB) +
                                           " MiB, too large for " + what,
                                       0, int64_t(text.size()), {}};
            return false;
        }
        if (progress && !progress(int64_t(text.size()), total)) {
            result.error = ImportError{"import cancelled", 0, -1, {}};
            return false;
        }
    }
    return true;
}

std::vector<TextLine> splitLines(std::string_view text)
{
    std::vector<TextLine> lines;
    size_t start = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        start = 3;
    int64_t number = 1;
    while (start < text.size()) {
        const size_t end = text.find_first_of("\r\n", start);
        if (end == std::string_view::npos) {
            lines.push_back({text.substr(start), number, int64_t(start)});
            break;
        }
        lines.push_back({text.substr(start, end - start), number++, int64_t(start)});
        start = end + 1;
        if (text[end] == '\r' && start < text.size() && text[start] == '\n')
            ++start;
    }
    return lines;
}

std::string_view trimmed(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

std::optional<double> parseNumber(std::string_view s)
{
    s = trimmed(s);
    if (s.empty())
        return std::nullopt;
    bool negative = false;
    if (s.front() == '+' || s.front() == '-') {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    // from_chars takes no sign and no leading '.'-less forms issue; ".5" needs a leading 0.
    std::string buffer;
    if (!s.empty() && s.front() == '.') {
        buffer = "0" + std::string(s);
        s = buffer;
    }
    double value = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(value))
        return std::nullopt;
    return negative ? -value : value;
}

std::optional<int64_t> parseInteger(std::string_view s)
{
    s = trimmed(s);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size())
        return std::nullopt;
    return value;
}

std::string contentRunKey(const std::string &format, std::string_view text)
{
    const QByteArray hash = QCryptographicHash::hash(
        QByteArrayView(text.data(), qsizetype(text.size())), QCryptographicHash::Sha256);
    return format + ":" + hash.toHex().left(16).toStdString();
}

std::optional<std::string> localTimeAsUtc(std::string_view text)
{
    static const std::regex re(
        R"(^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:[.,:](\d{1,9}))?$)");
    const std::string s(trimmed(text));
    std::smatch m;
    if (!std::regex_match(s, m, re))
        return std::nullopt;
    std::string iso = m.str(1) + "-" + m.str(2) + "-" + m.str(3) + "T" + m.str(4) + ":" +
                      m.str(5) + ":" + m.str(6);
    if (m[7].matched)
        iso += "." + m.str(7);
    return normalizeTimestamp(iso + "Z");
}

std::string inferredRunTime(QIODevice &in, std::vector<ImportWarning> &warnings)
{
    if (auto *file = qobject_cast<QFile *>(&in)) {
        const QDateTime modified = QFileInfo(file->fileName()).lastModified();
        if (modified.isValid()) {
            const std::string ts =
                modified.toUTC().toString(Qt::ISODate).toStdString();
            if (auto normalized = normalizeTimestamp(ts)) {
                warnings.push_back({"timestamp-inferred", 0,
                                    "the output states no time; the run is dated by the "
                                    "file's modification time, " +
                                        *normalized});
                return *normalized;
            }
        }
    }
    const std::string now = nowTimestamp();
    warnings.push_back({"timestamp-inferred", 0,
                        "the output states no time; the run is dated by the time of import, " +
                            now});
    return now;
}

void warnIfZeroOnly(const std::vector<double> &values, int64_t line, const std::string &what,
                    std::vector<ImportWarning> &warnings)
{
    if (values.empty())
        return;
    if (std::all_of(values.begin(), values.end(), [](double v) { return v == 0; }))
        warnings.push_back({"zero-only-run", line,
                            what + " is zero throughout: the run measured nothing"});
}

} // namespace plimsoll
