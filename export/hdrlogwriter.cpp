#include "export/hdrlogwriter.h"

#include <QByteArray>
#include <QDateTime>

#include <cmath>
#include <cstdio>

namespace plimsoll {

namespace {

std::string fixed3(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

} // namespace

std::string hdrLogUnitStatement(const std::string &valueUnit, double maxValueUnitRatio)
{
    static const char *const units[] = {"ns", "us", "ms", "s"};
    static const char *const words[] = {"nanoseconds", "microseconds", "milliseconds", "seconds"};
    static const double scale[] = {1e-9, 1e-6, 1e-3, 1};
    for (int i = 0; i < 4; ++i) {
        if (valueUnit != units[i])
            continue;
        std::string line = "#[Values in " + valueUnit + " (" + words[i] + ")";
        // Interval_Max's unit: the value unit times the ratio, when that is a unit too.
        const double maxScale = scale[i] * maxValueUnitRatio;
        for (int j = 0; j < 4; ++j)
            if (std::fabs(maxScale / scale[j] - 1) < 1e-9)
                line += std::string("; Interval_Max in ") + units[j];
        return line + "]\n";
    }
    return {};
}

void HdrLogWriter::writeHeader(double startTimeEpochS, const std::string &comment)
{
    if (!comment.empty())
        m_text += "#" + comment + "\n";
    if (!m_unit.empty())
        m_text += hdrLogUnitStatement(m_unit, m_ratio);
    m_text += "#[Histogram log format version 1.3]\n";
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(
        static_cast<qint64>(std::llround(startTimeEpochS * 1000)), Qt::UTC);
    m_text += "#[StartTime: " + fixed3(startTimeEpochS) + " (seconds since epoch), " +
              when.toString(Qt::ISODateWithMs).toStdString() + "]\n";
    m_text += "#[BaseTime: " + fixed3(startTimeEpochS) + " (seconds since epoch)]\n";
    m_text += "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
              "\"Interval_Compressed_Histogram\"\n";
}

void HdrLogWriter::writeInterval(double startS, double lengthS, const HdrHistogram &histogram,
                                 const std::string &tag)
{
    const std::string bytes = histogram.encodeCompressed();
    const QByteArray base64 = QByteArray(bytes.data(), qsizetype(bytes.size())).toBase64();
    if (!tag.empty())
        m_text += "Tag=" + tag + ",";
    m_text += fixed3(startS) + "," + fixed3(lengthS) + "," +
              fixed3(static_cast<double>(histogram.max()) / m_ratio) + "," +
              base64.toStdString() + "\n";
}

} // namespace plimsoll
