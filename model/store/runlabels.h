#pragma once
// Naming and tagging runs: `plimsoll name RUN TEXT|--clear`, `plimsoll tag RUN TAG… [--remove]`
// and the Library's Rename… and Tags… are one request (RunLabelRequest), checked by one function
// and carried out by one (applyRunLabels), on the store's write lock like every write.
//
// A name is the user's words for a run, shown beside its key wherever a run is named (lists,
// pickers, legends, reports). Several runs may share a name ("baseline" of two targets); a name
// addresses a run (findRun) only while one run has it, otherwise the candidates are listed.
// Tags are single words a run is searched and grouped by ("rf3", "before-upgrade").

#include "model/store/store.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

// The domains, as messages state them.
inline constexpr const char *kRunNameDomain =
    "1 to 200 characters, not only digits, no space at either end, no control or bidirectional "
    "characters";
inline constexpr const char *kRunTagDomain =
    "1 to 64 characters without spaces, commas, control or bidirectional characters";
inline constexpr std::size_t kMaxTagChars = 64;
inline constexpr std::size_t kMaxTagsPerRun = 32;

// What is wrong with a run's name or one tag, naming the field and its domain, or "".
std::string runNameProblem(const std::string &name);
std::string runTagProblem(const std::string &tag);

// A run the user named that is not there, or a name several runs have.
class RunAddressError : public StoreError
{
public:
    RunAddressError(const std::string &what, std::vector<RunSummary> candidates)
        : StoreError(what), m_candidates(std::move(candidates))
    {
    }
    // The runs an ambiguous name has (empty: no run at all).
    const std::vector<RunSummary> &candidates() const { return m_candidates; }

private:
    std::vector<RunSummary> m_candidates;
};

// The run `text` means: its id, its key, else the one run of that name (ignoring case). Throws
// RunAddressError: none ("no run 'x' in STORE (see `plimsoll runs`)") or several of that name
// (each listed by id and key, to be given instead).
RunSummary findRun(const Store &store, const std::string &text);

struct RunLabelRequest
{
    std::string run;                  // id, key or a name one run has
    std::optional<std::string> name;  // a new name
    bool clearName = false;           // remove the name
    std::vector<std::string> addTags;
    std::vector<std::string> removeTags;
    // The whole list instead (the window's Tags…, which shows the list to edit).
    std::optional<std::vector<std::string>> setTags;
};

// What is wrong with the request before any store is read, as the user reads it ("name: …"),
// or "". An empty name is refused with the way to remove one (--clear).
std::string runLabelProblem(const RunLabelRequest &request);

struct RunLabelOutcome
{
    RunSummary run; // as it is now: its name and tags written
    std::string previousName;
    std::vector<std::string> previousTags;
    // Tags asked to be added that it had, or to be removed that it had not ("'rf3' was not one
    // of its tags").
    std::vector<std::string> notes;
};

// Checks the request (runLabelProblem: RunLabelError), finds the run (findRun: RunAddressError),
// refuses a name that is another run's key (it would address that run), and writes the labels.
class RunLabelError : public StoreError
{
public:
    using StoreError::StoreError;
};
RunLabelOutcome applyRunLabels(Store &store, const RunLabelRequest &request);

// "name (key)" where a run has a name, else its key: how lists and pickers name a run.
std::string runTitle(const std::string &name, const std::string &runKey);
// The name where it has one, else the key: legends and report headings.
std::string runShortTitle(const std::string &name, const std::string &runKey);

} // namespace plimsoll
