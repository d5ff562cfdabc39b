#include "runner/histogramlog.h"

#include "export/hdrlogwriter.h"

#include <QByteArray>
#include <QDateTime>

#include <cstdio>

namespace plimsoll {

HistogramLogWriter::HistogramLogWriter(const std::string &path, const std::string &comment, int64_t startUnixMs)
    : m_out(path, std::ios::out | std::ios::trunc)
{
    if (!m_out) {
        m_error = "cannot write the histogram log " + path;
        return;
    }
    const auto now = startUnixMs > 0 ? QDateTime::fromMSecsSinceEpoch(startUnixMs, Qt::UTC)
                                     : QDateTime::currentDateTimeUtc();
    const double epochS = static_cast<double>(now.toMSecsSinceEpoch()) / 1000.0;
    char line[256];
    std::snprintf(line, sizeof line, "#[StartTime: %.3f (seconds since epoch), %s]\n#[BaseTime: %.3f (seconds since epoch)]\n",
                  epochS, now.toString(Qt::ISODate).toUtf8().constData(), epochS);
    m_out << "#[" << comment << "]\n"
          << hdrLogUnitStatement("us", 1000) << "#[Histogram log format version 1.3]\n" << line
          << "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n";
    m_out.flush();
    m_ok = static_cast<bool>(m_out);
}

void HistogramLogWriter::writeInterval(double startS, double lengthS,
                                       const HdrHistogram (&interval)[IntervalHistograms::KindCount])
{
    static const char *const tags[IntervalHistograms::KindCount] = {"ack", "service", "e2e"};
    for (int k = 0; k < IntervalHistograms::KindCount; ++k) {
        if (interval[k].empty())
            continue;
        const std::string encoded = interval[k].encodeCompressed();
        const QByteArray b64 = QByteArray(encoded.data(), static_cast<qsizetype>(encoded.size())).toBase64();
        char prefix[160];
        std::snprintf(prefix, sizeof prefix, "Tag=%s,%.3f,%.3f,%.3f,", tags[k], startS, lengthS,
                      static_cast<double>(interval[k].max()) / 1000.0);
        m_out << prefix << b64.constData() << "\n";
    }
    m_out.flush();
}

} // namespace plimsoll
