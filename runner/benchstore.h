#pragma once
// A bench result into the store, as one source of format "plimsoll-bench" holding one run.
// The caller owns the Store (one connection per thread).

#include "model/store/store.h"
#include "runner/benchresult.h"

namespace plimsoll {

// Throws StoreError as Store::importSource does.
ImportOutcome storeBenchResult(Store &store, const BenchResult &result, const std::string &toolVersion);

} // namespace plimsoll
