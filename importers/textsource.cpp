#include "importers/textsource.h"

#include "importers/linebounds.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QIODevice>

#include <openssl/evp.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>

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

bool readToolOutput(QIODevice &in, const Progress &progress, int64_t maxBytes,
                    const std::string &what, std::string &text, ImportResult &result)
{
    return readWholeSource(in, progress, maxBytes, what, text, result) &&
           refuseLongLines(text, what, result);
}

std::vector<TextLine> splitLines(std::string_view text)
{
    std::vector<TextLine> lines;
    size_t start = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        start = 3;
    int64_t number = 1;
    while (start < text.size()) {
        // A plain loop: find_first_of calls memchr over its set once per byte.
        size_t end = start;
        while (end < text.size() && text[end] != '\n' && text[end] != '\r')
            ++end;
        if (end == text.size()) {
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
    // OpenSSL's SHA-256 runs on the CPU's SHA instructions (about 1.7 GB/s here, Qt's portable
    // one about 200 MB/s, which made the key cost a fifth of importing a large tool output);
    // Qt's gives the same digest where OpenSSL's configuration offers none.
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    QByteArray hex;
    if (EVP_Digest(text.data(), text.size(), digest, &size, EVP_sha256(), nullptr) == 1)
        hex = QByteArray::fromRawData(reinterpret_cast<const char *>(digest), qsizetype(size)).toHex();
    else
        hex = QCryptographicHash::hash(QByteArrayView(text.data(), qsizetype(text.size())),
                                       QCryptographicHash::Sha256)
                  .toHex();
    return format + ":" + hex.left(16).toStdString();
}

std::optional<std::string> localTimeAsUtc(std::string_view text)
{
    // "YYYY-MM-DD[ T]HH:MM:SS", then an optional fraction of 1 to 9 digits after '.', ',' or
    // ':'. Scanned by hand: every periodic line of the Kafka tools carries one.
    const std::string_view s = trimmed(text);
    const auto number = [&](size_t at, size_t count, int &out) {
        out = 0;
        for (size_t i = at; i < at + count; ++i) {
            if (i >= s.size() || s[i] < '0' || s[i] > '9')
                return false;
            out = out * 10 + (s[i] - '0');
        }
        return true;
    };
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
    if (!number(0, 4, y) || s.size() < 19 || s[4] != '-' || !number(5, 2, mo) || s[7] != '-' ||
        !number(8, 2, d) || (s[10] != ' ' && s[10] != 'T') || !number(11, 2, h) || s[13] != ':' ||
        !number(14, 2, mi) || s[16] != ':' || !number(17, 2, sec))
        return std::nullopt;
    int msec = 0;
    if (s.size() > 19) {
        const std::string_view fraction = s.substr(20);
        int ignored = 0;
        if ((s[19] != '.' && s[19] != ',' && s[19] != ':') || fraction.empty() ||
            fraction.size() > 9 || !number(20, fraction.size(), ignored))
            return std::nullopt;
        // Milliseconds, digits past them dropped (as normalizeTimestamp reads a fraction).
        for (size_t i = 0; i < 3; ++i)
            msec = msec * 10 + (i < fraction.size() ? fraction[i] - '0' : 0);
    }
    if (!QDate::isValid(y, mo, d) || !QTime::isValid(h, mi, sec, msec))
        return std::nullopt;
    // Every field is as many digits as it is written with, so the text is its own printing;
    // only the separator becomes 'T' (printf took a third of this function's time).
    std::string out;
    out.reserve(24);
    out.append(s.substr(0, 19));
    out[10] = 'T';
    if (msec != 0) {
        out += '.';
        out += char('0' + msec / 100);
        out += char('0' + msec / 10 % 10);
        out += char('0' + msec % 10);
    }
    out += 'Z';
    return out;
}

double utcSeconds(std::string_view iso)
{
    const auto number = [&](size_t at, size_t count) {
        int v = 0;
        for (size_t i = at; i < at + count; ++i)
            v = v * 10 + (iso[i] - '0');
        return v;
    };
    using namespace std::chrono;
    const sys_days date =
        year(number(0, 4)) / month(unsigned(number(5, 2))) / day(unsigned(number(8, 2)));
    int64_t ms = (int64_t(date.time_since_epoch().count()) * 86400 + number(11, 2) * 3600 +
                  number(14, 2) * 60 + number(17, 2)) * 1000;
    if (iso.size() > 20 && iso[19] == '.')
        ms += number(20, 3);
    return double(ms) / 1000.0;
}

void dateByInference(RunRecord &run, QIODevice &in, std::vector<ImportWarning> &warnings)
{
    run.timestamp = inferredRunTime(in, warnings, &run.timeSource);
}

std::string inferredRunTime(QIODevice &in, std::vector<ImportWarning> &warnings, TimeSource *source)
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
                if (source)
                    *source = TimeSource::FileModified;
                return *normalized;
            }
        }
    }
    const std::string now = nowTimestamp();
    warnings.push_back({"timestamp-inferred", 0,
                        "the output states no time; the run is dated by the time of import, " +
                            now});
    if (source)
        *source = TimeSource::Imported;
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
