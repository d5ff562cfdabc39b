#pragma once
// A whole store copied into another, whichever backend each is on (a laptop's SQLite file into
// the team's PostgreSQL, or a team store into a file to take along): every source with its
// runs, scenarios, metrics and per-window series, and what the team shares (contract choices,
// saved sizings). Each source is written in one transaction, as an import is: a copy stopped
// midway leaves whole sources only, and copying again skips the sources the destination already
// holds (by their bytes' sha256) and goes on. The runs read back alike (`show --json`, ids and
// nothing else aside).

#include "model/store/store.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace plimsoll {

struct StoreCopyReport
{
    int64_t sourcesCopied = 0;
    int64_t sourcesAlreadyThere = 0; // the same bytes were in the destination already
    int64_t runsCopied = 0;
    int64_t settingsCopied = 0;
    // A shared setting the destination holds under the same name with other content: kept
    // there as it is, and named here ("saved-sizing 'next year'").
    std::vector<std::string> settingsKept;
};

// `progress(sourcesDone, sourcesTotal, runsCopied)` after each source. Throws StoreError (naming
// the source) when one cannot be written — a run key the destination holds from another source,
// a read-only destination; the sources before it stay copied. A team store takes each source's
// runs in bulk, as an import does (model/store/bulkruns.h).
StoreCopyReport copyStore(const Store &from, Store &to,
                          const std::function<void(int64_t done, int64_t total, int64_t runs)> &progress = {});

} // namespace plimsoll
