// The quantities users type: byte sizes and durations (--record-size, --duration, --linger,
// ISO-8601 PT30S), and the bench's workload names.

#include "fuzz/fuzztarget.h"
#include "model/core/units.h"
#include "runner/benchconfig.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace plimsoll;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    std::string error;
    // A size or a duration is never negative: a negative one would turn into a huge
    // allocation or a deadline in the past further down.
    if (const auto bytes = parseByteSize(text, &error); bytes && *bytes < 0)
        std::abort();
    if (const auto duration = parseDuration(text, &error); duration && duration->count() < 0)
        std::abort();
    // Decimal only: text holding a hexadecimal prefix or a word for infinity is no number.
    if (const auto v = parseDecimal(text);
        v && (text.find_first_of("xXpPiInN \t") != std::string_view::npos || text.front() == '+' ||
              !std::isfinite(*v)))
        std::abort();
    (void)parseWorkload(std::string(text));
    return 0;
}
