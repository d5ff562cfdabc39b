#pragma once
// HdrHistogram interval logs (.hlog), log format versions 1.01 to 1.3, as written by
// HdrHistogram's HistogramLogWriter (Java, C), jHiccup, YCSB, memtier and Plimsoll's runner:
//   #[Histogram log format version 1.3]
//   #[StartTime: 1441812279.474 (seconds since epoch), ...]   #[BaseTime: ...]
//   "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
//   [Tag=<tag>,]<start s>,<length s>,<max>,<base64 of a V0/V1/V2, usually DEFLATEd, histogram>
//
// Each tag becomes one scenario whose percentiles come from the merge of its intervals'
// histograms (never an average of interval percentiles), with per-interval series.
// The histograms hold raw integers in the writer's unit. A header comment stating it
// ("#[Values in us (microseconds); Interval_Max in ms]", as Plimsoll writes) is obeyed
// (latencyunit.h); most writers state none: ImportOptions::latencyUnit, default nanoseconds
// (HdrHistogram Java's and jHiccup's convention: ns recorded, Interval_Max printed in ms).

#include "importers/importer.h"

namespace plimsoll {

class HlogImporter : public Importer
{
public:
    HlogImporter();
    int sniff(std::string_view head) const override;
    Resemblance resemblance(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;
};

} // namespace plimsoll
