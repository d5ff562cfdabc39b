#pragma once
// Plimsoll's own bench result (`plimsoll bench --result-file` / `--output json`, format
// "plimsoll-bench/1"): one run per file, the same RunRecord the bench stores when it runs
// (model/formats/benchrunrecord.h holds the one mapping both use).

#include "importers/importer.h"

namespace plimsoll {

class BenchResultImporter : public Importer
{
public:
    BenchResultImporter();
    int sniff(std::string_view head) const override;
    Resemblance resemblance(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options, const Progress &progress) const override;
};

} // namespace plimsoll
