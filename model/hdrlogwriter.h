#pragma once
// Writes HdrHistogram interval logs (format 1.3) with V2 compressed histograms, as
// HdrHistogram's own HistogramLogWriter does, so that HdrHistogram's log readers (Java,
// C, JavaScript, Python) and Plimsoll's hdrhistogram-log importer read them back.
// Builds the text in memory; the caller writes it where it wants.

#include "model/hdrhistogram.h"

#include <string>

namespace plimsoll {

class HdrLogWriter
{
public:
    // maxValueUnitRatio: Interval_Max is the histogram max divided by this (1e6 prints a
    // nanosecond histogram's max in milliseconds, HdrHistogram's default).
    explicit HdrLogWriter(double maxValueUnitRatio = 1e6) : m_ratio(maxValueUnitRatio) {}

    // The header: comment, format version, StartTime and BaseTime (seconds since the epoch;
    // interval timestamps are then relative to it) and the column legend.
    void writeHeader(double startTimeEpochS, const std::string &comment = {});
    // One interval: start relative to the StartTime, its length, both seconds. An empty tag
    // writes an untagged line; tags must not contain commas, spaces or newlines.
    void writeInterval(double startS, double lengthS, const HdrHistogram &histogram,
                       const std::string &tag = {});

    const std::string &text() const { return m_text; }

private:
    double m_ratio;
    std::string m_text;
};

} // namespace plimsoll
