#pragma once
// An importer is a pure function from bytes to domain records, behind a registry.
// No SQL, no dialogs: the caller (ImportService) commits one transaction per source, and
// gives the importer a RunSink so that a streaming importer hands runs over as it reads them.

#include "model/core/records.h"
#include "model/core/runsink.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

class QIODevice;

namespace plimsoll {

// The UTF-8 byte-order mark some editors put before text. ImportService and detection skip
// it, so importers and sniffers never see it.
inline constexpr const char kUtf8Bom[] = "\xEF\xBB\xBF";

struct ImportWarning
{
    std::string kind;   // short machine tag, e.g. "ignored-field", "impossible-value"
    int64_t line = 0;   // 1-based, 0 when not line-oriented
    std::string detail; // human sentence
};

struct ImportError
{
    std::string message; // without the file name: "field 'timestamp' is not an ISO-8601 time"
    int64_t line = 0;    // 1-based, 0 when unknown
    int64_t offset = -1; // byte offset, -1 when unknown
    std::string field;   // JSON pointer-ish path or column name, empty when not applicable
    int64_t column = 0;  // 1-based, in bytes, 0 when unknown

    // "runs.json: line 12, column 5: field 'timestamp': is not an ISO-8601 time"
    std::string describe(const std::string &file) const;
};

struct ImportOptions
{
    ImportOptions() = default;
    // Implicit on purpose: ImportOptions{"name"} stays the short form for tests and callers.
    ImportOptions(std::string sourceUri) : uri(std::move(sourceUri)) {}

    std::string uri; // for messages; the importer does not open it
    // The unit of the values inside HdrHistogram logs and percentile tables ("ns", "us",
    // "ms", "s") for files that do not state it (latencyunit.h; a file's own statement wins
    // and a different unit here is an error); empty: the format's usual unit, with a warning
    // saying it was assumed (`plimsoll import --hlog-unit`).
    std::string latencyUnit;
};

// Called with bytes consumed so far and the total (-1 when unknown). Returning false cancels.
using Progress = std::function<bool(int64_t done, int64_t total)>;

struct ImportResult
{
    std::vector<RunRecord> runs;
    std::vector<ImportWarning> warnings;
    std::optional<ImportError> error;
    bool ok() const { return !error.has_value(); }
};

// How much a source the importer refused looks like its format, and why it is not: the
// refusal message names the closest format and the reason.
struct Resemblance
{
    int score = 0;      // 0..100; 0 = nothing in common
    std::string whyNot; // "has a 'workload' key but no publishRate or aggregated latencies"
};

// What names and describes an importer: constants of each one, given at construction.
struct ImporterIdentity
{
    std::string name;          // format name used by --format
    std::string version;       // bumped whenever parsing changes results
    std::string description;   // `plimsoll formats`
    std::string detectionRule; // human sentence, `plimsoll formats`
};

class Importer
{
public:
    explicit Importer(ImporterIdentity identity) : m_identity(std::move(identity)) {}
    virtual ~Importer() = default;
    const std::string &name() const { return m_identity.name; }
    const std::string &version() const { return m_identity.version; }
    const std::string &description() const { return m_identity.description; }
    const std::string &detectionRule() const { return m_identity.detectionRule; }
    // Confidence 0..100 that `head` (the first bytes of a source, up to 64 KiB) is this format.
    virtual int sniff(std::string_view head) const = 0;
    // Asked only when sniff() gave 0 for every importer.
    virtual Resemblance resemblance(std::string_view head) const
    {
        (void)head;
        return {};
    }
    // The whole source at once: the result holds every run.
    virtual ImportResult parse(QIODevice &in, const ImportOptions &options,
                               const Progress &progress) const = 0;
    // Hands the runs to `sink` (the result's `runs` stay empty); what the sink throws
    // (StoreError) propagates. Memory stays bounded only for importers that override this
    // to put runs as they read them; the default parse()s and then puts every run.
    virtual ImportResult parseInto(QIODevice &in, const ImportOptions &options,
                                   const Progress &progress, RunSink &sink) const;

private:
    ImporterIdentity m_identity;
};

class ImporterRegistry
{
public:
    static const ImporterRegistry &instance();
    const std::vector<const Importer *> &importers() const { return m_importers; }
    const Importer *byName(std::string_view name) const;
    // The most confident importer for these bytes, or nullptr when none claims them.
    const Importer *detect(std::string_view head) const;
    // Why no importer claims `head`: the closest format and its reason, or what the bytes
    // look like when nothing comes close. One sentence, without the file name.
    std::string explainRefusal(std::string_view head) const;

private:
    ImporterRegistry();
    std::vector<const Importer *> m_importers;
};

} // namespace plimsoll
