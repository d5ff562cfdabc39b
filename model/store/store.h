#pragma once
// The trend store, on one of two backends: a SQLite file (the embedded default; WAL mode lets
// the window read while a CLI imports) or a PostgreSQL database a team shares (a libpq URI,
// postgresql://user@host:port/db?sslmode=verify-full). One Store object is one connection: use
// it from one thread only (open another Store on the same location in another thread).
//
// Invariant: a source and everything it produced are written in one transaction, so a
// source is either fully present or absent.

#include "model/core/records.h"
#include "model/store/textblocks.h"
#include "model/core/runsink.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace plimsoll {

namespace sql {
class Connection;
}

class StoreError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// A run the store refused once it was written with others (a team store writes a source's runs
// in batches): the run's line in its source (0 when unknown), for the error to point at.
class RunRefused : public StoreError
{
public:
    RunRefused(const std::string &what, int64_t line) : StoreError(what), m_line(line) {}
    int64_t line() const { return m_line; }

private:
    int64_t m_line;
};

// A scenario as Store::forEachMeasuredScenario reads it: its run's key, time and target, its
// name and topology (without the inferred list), and the values of the metrics named, required
// then optional (bit i of `measured` set when metric i was).
struct MeasuredScenario
{
    std::string_view runKey, timestamp, target, scenario;
    const Topology *topology = nullptr;
    const double *values = nullptr;
    uint32_t measured = 0;

    std::optional<double> value(std::size_t i) const
    {
        return measured & (1u << i) ? std::optional<double>(values[i]) : std::nullopt;
    }
};

// Who a run is, as a list of runs shows it and a trend reads it.
struct StoredRunIdentity
{
    int64_t id = 0; // the store's id of the run
    std::string runKey;
    std::string timestamp;
    std::string commit;
    std::string imageDigest;
    std::string tool;
    std::string toolVersion;
    std::string target;
    bool sample = false;
};

struct RunSummary : StoredRunIdentity
{
    int64_t scenarioCount = 0;
    std::string sourceUri;
    std::string sourceFormat;
    // The user's labels (RunRecord::name, tags): what a list shows beside, or instead of, the key.
    std::string name;
    std::vector<std::string> tags;
};

struct RunDetail
{
    RunSummary summary;
    RunRecord record; // with scenarios and metrics
    SourceRecord source;
};

struct RunFilter
{
    std::string scenarioContains; // runs having a scenario whose name contains this
    // Runs whose key, name, tags, tool, tool version, target or commit, one of whose scenario
    // names, or whose source's path (a file's name and folders, a URL) contains this, ignoring
    // ASCII case (`runs --search`, the Library's search field).
    std::string textContains;
    std::string commitPrefix;
    std::string since; // ISO-8601, inclusive
    std::string until; // ISO-8601, exclusive
    std::optional<bool> sample;
};

// Where a page of runs starts and how the runs are ordered: a view shows the first page at once
// and reads on as the user scrolls, whatever the size of the store. The page after `after`
// (the last run of the page before, as read) continues the same order; ties are broken by id.
struct RunPage
{
    // Text keys compare case-insensitively; Tool is the tool and its version.
    enum class Order { Time, RunKey, Tool, Target, Commit, Scenarios, Sample, Name };
    Order order = Order::Time;
    bool descending = false;
    std::optional<RunSummary> after; // none: from the first run of the order
    int64_t limit = 1000;
};

// Which runs Store::forEachRun reads, and how much of each.
struct RunRecordFilter
{
    std::string scenarioContains; // runs having a scenario whose name contains this
    // Runs having a scenario of one of these kinds or measuring one of these metrics (both
    // empty: no such condition).
    std::vector<std::string> scenarioKinds;
    std::vector<std::string> metrics;
    // ... or stating one of these load factors in its topology ("brokers", "shards": the
    // sweeps across runs the sizing fits). Only the integer factors of a Topology.
    std::vector<std::string> factors;
    // Each run with this one scenario only; runs without it are left out.
    std::string onlyScenario;
};

struct SeriesPoint
{
    int64_t runId = 0;
    // Views into the series' text (StoredSeries::text): valid as long as the series is.
    std::string_view runKey;
    std::string_view timestamp;
    std::string_view commit;
    std::string_view imageDigest;
    // One of the series' tunings (StoredSeries::tunings), shared by the consecutive points
    // tuned alike (a nightly series is, for long stretches): never null.
    const nlohmann::json *tuning = nullptr;
    double value = 0;
};
static_assert(std::is_trivially_copyable_v<SeriesPoint>);

// A metric's series as Store::series reads it: the points, and the text and tunings they view
// (plain views: a million points are copied, moved and freed as bytes, with no count to keep).
struct StoredSeries
{
    std::vector<SeriesPoint> points;
    std::shared_ptr<TextBlocks> text = std::make_shared<TextBlocks>();
    std::shared_ptr<std::vector<std::unique_ptr<const nlohmann::json>>> tunings =
        std::make_shared<std::vector<std::unique_ptr<const nlohmann::json>>>();

    std::size_t size() const { return points.size(); }
    bool empty() const { return points.empty(); }
    const SeriesPoint &operator[](std::size_t i) const { return points[i]; }
    const SeriesPoint &front() const { return points.front(); }
    const SeriesPoint &back() const { return points.back(); }
    auto begin() const { return points.begin(); }
    auto end() const { return points.end(); }
};

// One run's scenario as a trend reads it (Store::forEachTrendRun): the run's identity, what its
// tuning contract is made of, and the metric's value when the scenario measured it.
struct TrendRunRow : StoredRunIdentity
{
    std::string tuningText; // the tuning JSON as stored: a caller parses each distinct text once
    Topology topology;      // of the scenario (without the inferred list)
    std::optional<double> value;
    bool timeInferred = false; // the run's time is its file's or its import's (RunRecord::timeSource)
    // The offered rate a metric of the scenario states (metricroles.h), when the scenario has
    // one: part of its tuning contract (TuningContract, offered_rate).
    std::optional<double> offeredRate;
};

struct ImportOutcome
{
    enum class Status { Imported, Unchanged };
    Status status = Status::Imported;
    int64_t sourceId = 0;
    int64_t runs = 0;
    int64_t scenarios = 0;
    int64_t metrics = 0;
    std::vector<std::string> notes; // e.g. "replaces the earlier import of this file"
    // The newest run the source holds (by time, then the order it came in): what a CI job
    // compares against its previous baseline after importing the night's result.
    std::string latestRunKey;
    std::string latestRunTime;
};

class Store;

// The writing of one source, as a sink its importer streams runs into: everything put goes
// into one transaction, committed by commit() and rolled back when the writer is destroyed
// without it (an error, a cancel, a dry run). While it lives, the store takes no other write.
class SourceWriter final : public RunSink
{
public:
    ~SourceWriter() override;
    SourceWriter(const SourceWriter &) = delete;
    SourceWriter &operator=(const SourceWriter &) = delete;

    // The same bytes are already in the store: nothing will be written; commit() reports
    // the earlier import as Unchanged.
    bool unchanged() const { return m_outcome.status == ImportOutcome::Status::Unchanged; }

    // A run key already in the store (from another source, or put twice) -> StoreError.
    void put(RunRecord run) override;
    void append(const std::string &runKey, std::vector<ScenarioRecord> scenarios) override;
    std::optional<RunRecord> earlierRun(const std::string &runKey) override;
    std::optional<int64_t> earlierScenarioLine(const std::string &runKey,
                                               const std::string &scenario) override;
    // How many of this source's runs were removed since it was imported (a store copy carries
    // the count over, so the same file imported into the copy brings them back).
    void setRunsRemoved(int64_t count);
    // Writes the runs put() held back (a team store writes them in batches; a file store as they
    // come): a run key another source has is refused here (RunRefused, with the run's line) when
    // its batch was not full before. commit() settles too; a reader whose own errors come after
    // the runs it put settles first, so the store's refusal of an earlier run is said first.
    void settle();

    ImportOutcome commit();

private:
    friend class Store;
    struct Impl;
    SourceWriter(sql::Connection &db, const SourceRecord &source);
    // runInputs: the run's part of its scenarios' trend inputs key (Impl::trendInputs), when known.
    void insertScenarios(int64_t runId, const std::string &runKey, int64_t firstOrdinal,
                         const std::vector<ScenarioRecord> &scenarios, const std::string *runInputs);
    std::unique_ptr<Impl> m_impl;
    ImportOutcome m_outcome;
};

// The kinds of Store::sharedSettings.
inline constexpr const char *kContractPolicyKind = "contract-policy"; // a family's choice (sharedsettings.h)
inline constexpr const char *kSavedSizingKind = "saved-sizing";       // a saved sizing (savedsizing.h)

class Store
{
public:
    static constexpr int kSchemaVersion = 13;
    // The runs in a store from which a trend read takes a second connection and thread.
    static constexpr std::size_t kTrendSplitFrom = 50'000;

    // Opens (creating when missing) and migrates forward: a postgresql:// or postgres:// URI
    // opens a team store (refused when it carries a password), anything else is a SQLite file.
    // Throws StoreError with the location in the message when it is not a Plimsoll store or was
    // written by a newer version (then left untouched).
    explicit Store(const std::string &location);
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    // The file, or the team store's URI (never with a password: those are refused).
    const std::string &path() const { return m_path; }
    bool isTeamStore() const;
    int schemaVersion() const;

    // Writes the source and its runs (scenarios, metrics, series) in one transaction. Same sha256 already present ->
    // Unchanged, nothing written. Same uri with other bytes -> the earlier import of that uri is
    // replaced. A run key already present from another source -> StoreError, nothing written.
    // Same sha256 of a source some of whose runs were removed since -> imported again whole
    // (the removed runs restored), with a note saying so.
    ImportOutcome importSource(const SourceRecord &source, const std::vector<RunRecord> &runs);
    // The same, streamed: put the runs into the writer, then commit it. Takes the write lock
    // (waits for another writer up to a few seconds, then throws StoreError "busy").
    std::unique_ptr<SourceWriter> beginSource(const SourceRecord &source);
    bool hasSourceWithSha256(const std::string &sha256) const;

    std::vector<RunSummary> runs(const RunFilter &filter = {}) const;
    // One page of runs(filter) in the page's order.
    std::vector<RunSummary> runs(const RunFilter &filter, const RunPage &page) const;
    // Every run of the filter with its scenarios and metrics (no per-window series), oldest first
    // (time, then id), read by one statement over the joined tables however many runs there are.
    // `visit` gets each run, with its store id, as soon as it is complete, so a caller that
    // keeps less than whole runs never holds them all in memory. The read is open meanwhile:
    // `visit` must not write to this Store; an exception from it ends the read.
    void forEachRun(const RunRecordFilter &filter,
                    const std::function<void(int64_t id, RunRecord &&run)> &visit) const;
    // Each scenario that measured every metric of `required` (MeasuredScenario), scenarios of
    // kind `skipKind` (when not empty) left out. Oldest run first (time, then id), a run's
    // scenarios in their order. Read from the trend tables (one ordered range per scenario name
    // and metric, merged as read; no seek per run): the points a view plots across every run
    // (the latency budget's), without reading whole runs. At most 8 names in each list.
    // visit(row, half): from `splitFrom` runs on, the later half of the time span (half 1) is
    // read on a second connection and visited on that thread, meanwhile the earlier (half 0) is
    // visited on the calling thread; each half in order, the whole read half 0 then half 1
    // (below `splitFrom`, all of it is half 0, on the calling thread). A row's views last until
    // `visit` returns: what it keeps, it copies.
    void forEachMeasuredScenario(const std::vector<std::string> &required,
                                 const std::vector<std::string> &optional,
                                 const std::function<void(const MeasuredScenario &row, int half)> &visit,
                                 const std::string &skipKind = {},
                                 std::size_t splitFrom = kTrendSplitFrom) const;
    // Keys of the runs having at least two scenarios of one family (the name up to its last
    // '/'): the runs with steps a scaling fit can use. Oldest first.
    std::vector<std::string> rampRunKeys() const;
    // The same runs with the names the user gave them ("" for none).
    struct RampRun
    {
        std::string runKey;
        std::string name;
    };
    std::vector<RampRun> rampRuns() const;
    // By numeric id or by run key; scenarios come with their metrics and series.
    std::optional<RunDetail> run(const std::string &idOrKey) const;
    // The per-window series of one scenario of one run (by run id or key), by series name.
    std::vector<SeriesRecord> scenarioSeries(const std::string &runIdOrKey,
                                             const std::string &scenario) const;
    std::vector<std::string> scenarioNames() const;
    std::vector<std::string> metricNames(const std::string &scenario) const;
    // One metric of one scenario over time, oldest first; from `splitFrom` runs on, read in two
    // halves of its time span at once (as forEachTrendRun, below).
    StoredSeries series(const std::string &scenario, const std::string &metric,
                                    std::size_t splitFrom = kTrendSplitFrom) const;
    // At least runCount(), read in one index seek (the largest run id): what a reader of a long
    // series reserves before it reads, instead of growing its vectors a million points at a time
    // (each growth a copy into fresh memory the kernel must clear first) or counting them first;
    // memory reserved and not touched costs nothing.
    std::size_t runCountBound() const;
    // The values series() gives, alone (one ordered range of the series index). `stopped` as
    // for forEachTrendRun.
    std::vector<double> seriesValues(const std::string &scenario, const std::string &metric,
                                     const std::function<bool()> &stopped = {}) const;
    // Every run having `scenario` (its first scenario of that name), oldest first (time, then
    // id), with `metric`'s value when it has one: read from the scenario's trend rows, so the
    // cost follows that scenario's runs, not the store's. The read is open during `visit`, which
    // must not write to this Store; an exception from it ends the read. The row is one record
    // read into again: its tool, tool version, tuning and topology are assigned only when they
    // change (a visitor may move the rest out, not those). `stopped`, when given,
    // is asked while the read waits for a team store's server: true cancels the server's work
    // and ends the read with StoreError (a series no longer wanted costs the server nothing more).
    // From `splitFrom` runs in the store on, the later half of the scenario's time span is read
    // meanwhile on a second connection and thread (the visitor still sees every row in order,
    // on the calling thread).
    void forEachTrendRun(const std::string &scenario, const std::string &metric,
                         const std::function<void(TrendRunRow &row)> &visit,
                         const std::function<bool()> &stopped = {},
                         std::size_t splitFrom = kTrendSplitFrom) const;
    // Kept change-point examinations (ChangePointState's bytes) by a key naming the series. Only
    // a saving of work: keepChangePoints() does nothing when another writer holds the store or
    // the file is read-only, rather than wait or fail.
    std::optional<std::string> keptChangePoints(const std::string &seriesKey) const;
    // Whether any examination is kept under a key beginning with `prefix` (one index seek).
    bool keepsChangePointsUnder(const std::string &prefix) const;
    void keepChangePoints(const std::vector<std::pair<std::string, std::string>> &states);

    // A source left with no runs is forgotten; one left with some remembers that it lost
    // runs, so importing its bytes again restores them.
    int64_t removeRun(const std::string &idOrKey); // returns runs removed (0 or 1)
    int64_t removeSamples();                        // returns runs removed
    int64_t runCount() const;

    // Sets a run's name ("" for none) and tags (sorted, each once, already checked: see
    // model/store/runlabels.h, which every caller goes through) in one transaction; false when
    // there is no run of that id. A probe of changeToken() sees the write.
    bool setRunLabels(int64_t runId, const std::string &name, const std::vector<std::string> &tags);
    // The runs named `name`, ignoring case, oldest first (a name may be given to several runs).
    std::vector<RunSummary> runsNamed(const std::string &name) const;

    // The recent history of one scenario on one target, what a comparison judges a delta by: the
    // `limit` newest runs having `scenario`, measured on `target` ("" for none), at or before
    // `until` (ISO-8601), oldest first (time, then id), each with that one scenario and its
    // metrics (no per-window series, no environment). Reads about `limit` runs however large the
    // store is.
    std::vector<RunRecord> recentRunsOf(const std::string &scenario, const std::string &target,
                                        const std::string &until, int64_t limit) const;

    // Why this connection cannot write, for a status bar ("read-only for user plimsoll_reader",
    // "the file is read-only"), or nullopt when it can.
    std::optional<std::string> readOnlyReason() const;
    // A short text that changes whenever anyone writes runs or shared settings to the store
    // (another window, a CI job): a window compares it now and then to notice and read again.
    std::string changeToken() const;

    // Every source, oldest first, with the keys of its runs in the order they were stored (what a
    // copy of the store replays, source by source).
    struct StoredSource
    {
        SourceRecord record;
        std::vector<std::string> runKeys;
        int64_t runsRemoved = 0; // removed since it was imported (Store::removeRun)
    };
    std::vector<StoredSource> sources() const;

    // Settings a team shares through its store (tuning-contract choices, saved sizings): named
    // text bodies of one kind ("contract-policy", "saved-sizing"), so that every window and job
    // on the store reads the same ones. The store keeps the bodies as given; their readers
    // (model/store/sharedsettings.h, savedsizing.h) check them.
    struct SharedSetting
    {
        std::string name;
        std::string body;
    };
    // Every setting of `kind`, by name.
    std::vector<SharedSetting> sharedSettings(const std::string &kind) const;
    std::optional<std::string> sharedSetting(const std::string &kind, const std::string &name) const;
    // Writes `body` under `name` in one transaction. Without `replace` a name already kept is
    // left as it is and false returned (so two writers racing for a name: one wins, the other
    // is told). Throws StoreError (a read-only store says so).
    bool putSharedSetting(const std::string &kind, const std::string &name, const std::string &body,
                          bool replace);
    // False when there was no such setting.
    bool removeSharedSetting(const std::string &kind, const std::string &name);

private:
    friend class StoreSnapshot;
    void migrate();
    std::string m_path;
    std::unique_ptr<sql::Connection> m_db;
};

// While it lives, every read through `store` sees the one state the store was in when it was
// made, whatever other connections write meanwhile: a reader of many runs (an export) gives a
// state that existed, never half of a removal. Nothing may be written through `store` meanwhile,
// and reads that Store splits onto a second connection (kTrendSplitFrom) are not covered.
class StoreSnapshot
{
public:
    explicit StoreSnapshot(const Store &store);
    ~StoreSnapshot();
    StoreSnapshot(const StoreSnapshot &) = delete;
    StoreSnapshot &operator=(const StoreSnapshot &) = delete;

private:
    sql::Connection &m_db;
};

} // namespace plimsoll
