#pragma once
// The bundled sample records (resources/samples/), transcribing the seed benchmark page.

#include "importers/importservice.h"

#include <string>
#include <vector>

namespace plimsoll {

// Resource paths of the bundled sample files (":/samples/...").
std::vector<std::string> sampleFiles();
// Imports every sample file, marked as samples. Already-present samples report "unchanged".
std::vector<SourceReport> installSamples(Store &store);

} // namespace plimsoll
