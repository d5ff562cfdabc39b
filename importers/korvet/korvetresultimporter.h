#pragma once
// Korvet's BenchmarkResult JSON (korvet-server integration-test scaffolding): one run per file,
// one scenario per ScenarioResult. Latencies arrive in milliseconds and throughput in MB/s
// (MB = 1024 * 1024 bytes, as the Korvet benchmark page counts); both leave here in SI.

#include "importers/importer.h"

namespace plimsoll {

class KorvetResultImporter : public Importer
{
public:
    KorvetResultImporter();
    int sniff(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;
};

} // namespace plimsoll
