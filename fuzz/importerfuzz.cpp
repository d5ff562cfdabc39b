// Importers, through the registry as `plimsoll import` drives them.
//
// Built once per importer with PLIMSOLL_FUZZ_IMPORTER naming it: the parser then sees every
// input, even bytes that no longer sniff as its format, so the fuzzer spends its time deep in
// that parser. Built once without a name: detection (sniff of every importer, the refusal
// explanation) and the parse of whichever importer claims the bytes.

#include "fuzz/fuzztarget.h"
#include "importers/importer.h"

#include <QBuffer>
#include <QByteArray>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {
// Importer::sniff is promised at most this many bytes (importservice.cpp reads the same).
constexpr size_t kSniffBytes = 64 * 1024;
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
#ifdef PLIMSOLL_FUZZ_IMPORTER_LIST
    // Every registered importer needs its own target (fuzz/CMakeLists.txt): refuse to run
    // when one was added without it, so it cannot stay unfuzzed unnoticed.
    const std::string listed = std::string(",") + PLIMSOLL_FUZZ_IMPORTER_LIST + ",";
    for (const plimsoll::Importer *importer : plimsoll::ImporterRegistry::instance().importers()) {
        if (listed.find("," + importer->name() + ",") == std::string::npos) {
            std::fprintf(stderr,
                         "importer '%s' has no fuzz target: add it to PLIMSOLL_FUZZ_IMPORTERS "
                         "in fuzz/CMakeLists.txt\n",
                         importer->name().c_str());
            std::exit(1);
        }
    }
#endif
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace plimsoll;
    const ImporterRegistry &registry = ImporterRegistry::instance();
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    const std::string_view head = bytes.substr(0, kSniffBytes);
#ifdef PLIMSOLL_FUZZ_IMPORTER
    const Importer *importer = registry.byName(PLIMSOLL_FUZZ_IMPORTER);
    if (!importer)
        std::abort(); // the name compiled in must stay registered
    (void)importer->sniff(head);
    (void)importer->resemblance(head);
#else
    const Importer *importer = registry.detect(head);
    if (!importer) {
        (void)registry.explainRefusal(head);
        return 0;
    }
#endif
    QByteArray copy(bytes.data(), qsizetype(size));
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    const ImportResult result =
        importer->parse(buffer, ImportOptions("fuzz-input"), [](int64_t, int64_t) { return true; });
    if (result.error)
        (void)result.error->describe("fuzz-input");
    return 0;
}
