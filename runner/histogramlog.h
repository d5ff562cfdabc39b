#pragma once
// HdrHistogram V2 interval log (--histogram-log): one line per interval and tag, each
// histogram V2-encoded, compressed and base64'd, readable by HdrHistogram's
// HistogramLogReader and the hdr-plot tools. Values are microseconds; the "Interval_Max"
// column is in milliseconds (the log's max-value unit ratio of 1000 for µs). The header states
// both in the form the importer reads (hdrLogUnitStatement), so the log imports as written.

#include "runner/latency.h"

#include <fstream>
#include <string>

namespace plimsoll {

class HistogramLogWriter
{
public:
    // Opens (truncating) and writes the header. Check ok().
    // startUnixMs: the instant the intervals count from (a fleet's start); 0: now.
    HistogramLogWriter(const std::string &path, const std::string &comment, int64_t startUnixMs = 0);
    bool ok() const { return m_ok; }
    const std::string &error() const { return m_error; }
    // startS: interval start, seconds since the run's start time written in the header.
    void writeInterval(double startS, double lengthS, const HdrHistogram (&interval)[IntervalHistograms::KindCount]);

private:
    std::ofstream m_out;
    bool m_ok = false;
    std::string m_error;
};

} // namespace plimsoll
