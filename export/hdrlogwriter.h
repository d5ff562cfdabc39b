#pragma once
// Writes HdrHistogram interval logs (format 1.3) with V2 compressed histograms, as
// HdrHistogram's own HistogramLogWriter does, so that HdrHistogram's log readers (Java,
// C, JavaScript, Python) and Plimsoll's hdrhistogram-log importer read them back.
// Builds the text in memory; the caller writes it where it wants.

#include "model/core/hdrhistogram.h"

#include <string>
#include <utility>

namespace plimsoll {

// The header line stating the unit of a log's values, the one form Plimsoll's writers use
// and its importer reads (importers/latencyunit.h): "#[Values in us (microseconds);
// Interval_Max in ms]". `valueUnit` is ns, us, ms or s; maxValueUnitRatio as below.
std::string hdrLogUnitStatement(const std::string &valueUnit, double maxValueUnitRatio);

class HdrLogWriter
{
public:
    // maxValueUnitRatio: Interval_Max is the histogram max divided by this (1e6 prints a
    // nanosecond histogram's max in milliseconds, HdrHistogram's default). valueUnit (ns, us,
    // ms, s): the unit of the recorded values, stated in the header; empty states none.
    explicit HdrLogWriter(double maxValueUnitRatio = 1e6, std::string valueUnit = {})
        : m_ratio(maxValueUnitRatio), m_unit(std::move(valueUnit))
    {
    }

    // The header: comment, the unit statement, format version, StartTime and BaseTime
    // (seconds since the epoch; interval timestamps are then relative to it) and the column
    // legend.
    void writeHeader(double startTimeEpochS, const std::string &comment = {});
    // One interval: start relative to the StartTime, its length, both seconds. An empty tag
    // writes an untagged line; tags must not contain commas, spaces or newlines.
    void writeInterval(double startS, double lengthS, const HdrHistogram &histogram,
                       const std::string &tag = {});

    const std::string &text() const { return m_text; }

private:
    double m_ratio;
    std::string m_unit;
    std::string m_text;
};

} // namespace plimsoll
