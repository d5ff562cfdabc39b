#pragma once
// Plimsoll trend records (resources/schemas/plimsoll-trend-record.schema.json): JSON Lines, one
// scenario per line; lines sharing run_key form one run and must agree on every run-level
// field. Streamed line by line into a RunSink: only the run being read is in memory, so a
// year of nightly records imports in bounded memory.

#include "export/trendrecordwriter.h"
#include "importers/importer.h"

namespace plimsoll {

class TrendRecordsImporter : public Importer
{
public:
    static constexpr const char *kFormatTag = kTrendRecordFormat;

    TrendRecordsImporter();
    int sniff(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;
    ImportResult parseInto(QIODevice &in, const ImportOptions &options, const Progress &progress,
                           RunSink &sink) const override;
};

} // namespace plimsoll
