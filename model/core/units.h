#pragma once
// Parsing of user-typed quantities, as the seed CLI accepts them.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace plimsoll {

// The one reading of a number a user typed (an option, a field, a rate, a size, a duration):
// decimal digits with an optional leading '-', an optional fraction and an optional exponent
// ("600000", "0.95", ".5", "1.2e6"). Anything else — hexadecimal ("0x10"), a '+', spaces, "inf",
// "nan", digits of other scripts, an empty text, a value beyond a double — is not a number.
std::optional<double> parseDecimal(std::string_view text);

// Unitless bytes or B/KB/MB/GB, case-insensitive; 1 KB = 1024 B. "1mb" -> 1048576.
std::optional<int64_t> parseByteSize(std::string_view text, std::string *error = nullptr);

// Unitless milliseconds, ns/us/ms/s/m/h/d suffixes (case-insensitive), or ISO-8601 (PT30S).
std::optional<std::chrono::nanoseconds> parseDuration(std::string_view text,
                                                      std::string *error = nullptr);

// A target rate as typed on the command line and in the window: "600k", "1.2M", "600000" or
// "1.2" (a bare number is records/s) → records/s; "40MB/s" (a byte size per second) → 0 with
// the bytes/s in *bytesPerS. Whether the value fits is SizingInputs::kRate's to say.
std::optional<double> parseRate(std::string_view text, double *bytesPerS, std::string *error = nullptr);
// The shortest text parseRate() reads back as exactly this rate: records/s ("600k", "1.2M",
// "650") when recordsPerS > 0, else bytes/s ("40MB/s"). What a saved or loaded rate shows in a
// rate field.
std::string rateInputText(double recordsPerS, double bytesPerS);

} // namespace plimsoll
