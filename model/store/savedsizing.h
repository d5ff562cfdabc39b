#pragma once
// Sizings kept under a name: the inputs and the run selection a sizing was made from, so that
// "600k now" and "1.2M next year" can be sized again from the store as it is today and read
// side by side, component by component.
//
// They are kept in the store itself (Store::sharedSettings, kind "saved-sizing": one JSON body
// a sizing, holding its format version), so that every window and job on a store — a team's
// PostgreSQL store above all — reads the same list. Saving is one transaction: of two people
// saving one name at once, one is saved and the other told the name is taken. A body that
// cannot be read — damaged, or saved by a newer Plimsoll — is an error naming it, and is never
// overwritten except by a save that replaces it or a remove. A SQLite store kept them beside
// itself in "<store>.sizings.json" before; its migration moves that file in once.
//
// Values are stored in SI units as SizingInputs holds them, and checked against their domains
// when read back (SizingInputs::validate), so a hand-edited file cannot size from a value the
// command line would refuse.
//
// Store access only; compareSizings() is pure.

#include "model/scaling/evidence.h"
#include "model/sizing/sizing.h"
#include "model/sizing/sizingmodels.h"
#include "model/store/store.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace plimsoll {

struct SavedSizing
{
    std::string name;
    std::string savedAt; // UTC, ISO-8601 to the second ("2026-12-01T10:00:00Z")
    SizingInputs inputs;
    double cpuLimit = SizingModelOptions{}.cpuLimit; // the only fitting option a sizing states
    EvidenceSelection evidence;

    // The fitting options the sizing was made with (cpuLimit for capacity and saturation).
    SizingModelOptions modelOptions() const;
    // For a list: "600k records/s" or "40.0 MiB/s".
    std::string rateText() const;
    bool operator==(const SavedSizing &) const = default;
};

class SavedSizingError : public std::runtime_error
{
public:
    enum class Kind {
        Unreadable,  // a body is damaged or of a newer format (the message names it)
        WriteFailed, // the store could not be written (read-only, or gone)
        NameTaken,   // save without replace of a name already saved
        UnknownName, // load or remove of a name not saved
        Invalid      // an empty or unprintable name, or an input outside its domain
    };
    SavedSizingError(Kind kind, const std::string &message) : std::runtime_error(message), m_kind(kind) {}
    Kind kind() const { return m_kind; }

private:
    Kind m_kind;
};

class SavedSizings
{
public:
    static constexpr int kFormatVersion = 1;

    // Every saved sizing, sorted by name. Throws SavedSizingError (Unreadable) for a damaged or
    // newer body, StoreError when the store cannot be read.
    static std::vector<SavedSizing> list(const Store &store);
    // The sizing saved as `name`, or nullopt. Throws as list().
    static std::optional<SavedSizing> find(const Store &store, const std::string &name);
    // Saves `sizing` (its savedAt set to now when empty). An existing name is refused (NameTaken)
    // unless `replace`. Throws SavedSizingError (WriteFailed for a read-only store, saying so).
    static void save(Store &store, SavedSizing sizing, bool replace);
    // Removes `name`; UnknownName when it is not saved. Throws SavedSizingError.
    static void remove(Store &store, const std::string &name);
    // The sizings of a "<store>.sizings.json" file as the store keeps them, for the migration
    // that moves the file in. Throws SavedSizingError (Unreadable) naming the file.
    static std::vector<Store::SharedSetting> settingsOfFile(const std::string &file);

    // The names, for a message: "'a', 'b'" or "none saved yet".
    static std::string namesText(const std::vector<SavedSizing> &sizings);
    // nullopt when `name` can be a saved sizing's name, else why not.
    static std::optional<std::string> nameError(const std::string &name);
    // The current time as savedAt writes it.
    static std::string now();
};

// Saved sizings side by side, one row per component and one column per sizing: each cell the
// sizing's display value ("3", "51.2 GiB"), "—" where a sizing has no such figure (no Flex
// measurement, no offload) or could not be sized. Rows present in no sizing are left out.
struct SizingComparisonRow
{
    std::string key;   // the SizingLine key ("brokers", ...), or "broker_model"
    std::string label; // for people
    std::vector<std::string> values; // one per sizing, in the order given
};

struct SizingComparison
{
    std::vector<std::string> names; // the columns
    std::vector<SizingComparisonRow> rows;

    const SizingComparisonRow *row(const std::string &key) const;
};

SizingComparison compareSizings(const std::vector<std::pair<std::string, SizingResult>> &sizings);

// Sizes `saved` again from `store` as it is now: its selection's runs, its fitting options, its
// inputs. Throws StoreError as readEvidence() does (a picked run no longer in the store).
SizingResult sizeSaved(const Store &store, const SavedSizing &saved);

} // namespace plimsoll
