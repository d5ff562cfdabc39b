#pragma once
// The result document of `plimsoll bench` (format "plimsoll-bench/1", see
// resources/schemas/plimsoll-bench-result.schema.json) as the run the store keeps. One
// mapping for both paths, so a run stored by the bench and the same run imported from its
// --result-file are the same record: tool "plimsoll-bench", run key plimsoll-bench-<run id>,
// one scenario per result scenario with its metrics, the tuning contract in `tuning`, and
// `partial` flagged in tuning and environment.

#include "model/core/records.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <utility>
#include <string>

namespace plimsoll {

// Thrown for a document that is not a bench result; what() names the field, `pointer` is its
// JSON Pointer ("/scenarios/0/metrics").
class BenchDocumentError : public std::runtime_error
{
public:
    BenchDocumentError(std::string pointer, const std::string &message)
        : std::runtime_error(message), pointer(std::move(pointer))
    {
    }
    std::string pointer;
};

// `toolVersion` is the Plimsoll version that ran the bench (empty when unknown).
RunRecord benchRunRecordFromJson(const nlohmann::json &document, const std::string &toolVersion);

} // namespace plimsoll
