// Prometheus text exposition, as the "prometheus" importer and the bench's /metrics
// collector read it: every snapshot, family and sample, and the series names printed
// from them.

#include "fuzz/fuzztarget.h"
#include "model/formats/prometheustext.h"

#include <string_view>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace plimsoll;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const PromParseResult result = parsePrometheusText(text);
    for (const PromSnapshot &snapshot : result.snapshots) {
        for (const PromFamily &family : snapshot.families) {
            (void)snapshot.family(family.name);
            (void)promTypeName(family.type);
            for (const PromSample &sample : family.samples) {
                (void)promSeriesName(sample.name, sample.labels, {"le", "quantile"});
                (void)sample.label("le");
            }
        }
    }
    return 0;
}
