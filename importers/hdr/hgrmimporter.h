#pragma once
// HdrHistogram percentile tables (.hgrm), as outputPercentileDistribution writes them:
//   Java: 12-decimal percentiles, blank 1/(1-P) on the last row; C (and wrk2 --latency,
//   --u_latency): 6-decimal percentiles, "inf" on the last row; a CSV variant
//   "Value","Percentile","TotalCount","1/(1-Percentile)". Footer #[Mean = …, StdDeviation = …]
//   and #[Max = …, Total count = …]. Tables may sit inside other text (wrk2's report),
//   indented; each table becomes one scenario.
// Values are already scaled to the writer's output unit, which the file does not state:
// ImportOptions::latencyUnit, default milliseconds (wrk2's and jHiccup's tables).
// wrk2 states some percentiles with their unit before the table ("99.000%  11.18ms"): those
// are used as stated. Another percentile is the Value of the first row at or past it: the table's rows are
// HdrHistogram's own percentile iteration, so this is HdrHistogram's answer at the table's
// resolution.

#include "importers/importer.h"

namespace plimsoll {

class HgrmImporter : public Importer
{
public:
    HgrmImporter();
    int sniff(std::string_view head) const override;
    Resemblance resemblance(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;
};

} // namespace plimsoll
