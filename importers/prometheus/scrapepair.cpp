// Two scrapes of one target paired into one run of the interval between them.
#include "importers/prometheus/scrapepair.h"

#include "importers/prometheus/prometheusimporter.h"
#include "importers/prometheus/scrapeindex.h"
#include "model/formats/prometheusdiff.h"

#include <QDateTime>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace plimsoll {

namespace {

// The messages write numbers often.
std::string num(double v) { return scrapeNumberText(v); }

std::string timeOfMs(int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs).toStdString();
}

std::string baseName(const std::string &path)
{
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string instanceText(const std::string &instance)
{
    return instance.empty() ? std::string("samples without an instance label")
                            : "instance \"" + instance + "\"";
}

// The series of `x` that `y` lacks (buckets aside: they follow their histogram), by line.
std::vector<const PromSample *> onlyIn(const ScrapeSeries &x, const ScrapeSeries &y)
{
    std::vector<const PromSample *> out;
    for (const auto &[series, sample] : x)
        if (!isBucketSample(*sample) && !y.contains(series))
            out.push_back(sample);
    std::sort(out.begin(), out.end(),
              [](const PromSample *p, const PromSample *q) { return p->line < q->line; });
    return out;
}

int64_t lineIn(const ScrapeSeries &m, const std::string &s)
{
    auto it = m.find(s);
    return it == m.end() ? int64_t(0) : it->second->line;
}

double valueIn(const ScrapeSeries &m, const std::string &s)
{
    auto it = m.find(s);
    return it == m.end() ? NAN : it->second->value;
}

// pairScrapes in named steps, each refusing the pair (false, with out's error and the file it
// concerns) or warning and going on; what a step finds, later steps read from the members.
class ScrapePairing
{
public:
    ScrapePairing(const ScrapeFile &before, const ScrapeFile &after,
                  std::optional<double> intervalS)
        : m_before(before), m_after(after), m_intervalS(intervalS), m_bn(before.name),
          m_an(after.name)
    {
    }

    ScrapePair run()
    {
        if (checkArguments() && readBoth() && checkInstances() && checkProducts() &&
            checkFamilies()) {
            warnOfTypeChanges();
            warnOfSeriesInOneFile();
            if (checkProcessOrder() && checkTimeOrder() && chooseInterval() && checkCounters()) {
                warnIfNothingChanged();
                buildRun();
            }
        }
        return std::move(m_out);
    }

private:
    void warn(ScrapeSide side, const std::string &kind, int64_t line, const std::string &detail)
    {
        m_out.result.warnings.push_back({kind, line, detail});
        m_out.warningSides.push_back(side);
    }
    bool fail(ScrapeSide side, ImportError error)
    {
        m_out.errorSide = side;
        m_out.result.error = std::move(error);
        m_out.result.runs.clear();
        return false;
    }

    bool checkArguments()
    {
        if (m_intervalS && !(*m_intervalS > 0 && std::isfinite(*m_intervalS)))
            return fail(ScrapeSide::Neither, {"--interval must be a positive duration", 0, -1, {}});
        if (m_before.uri == m_after.uri)
            return fail(ScrapeSide::Neither,
                        {"the same file, " + m_bn + ", is given as both scrapes: give the scrape "
                         "saved before the workload, then the one saved after it",
                         0, -1, {}});
        if (m_before.bytes == m_after.bytes && !m_before.bytes.empty())
            return fail(ScrapeSide::Neither,
                        {m_an + " has the same bytes as " + m_bn +
                             ": the same scrape twice, so there is no interval between them (was "
                             "the second curl written to the wrong file?)",
                         0, -1, {}});
        return true;
    }

    bool readBoth()
    {
        if (auto e = readOneScrape(m_before.bytes, m_b))
            return fail(ScrapeSide::Before, *e);
        for (const ImportWarning &w : m_b.warnings)
            warn(ScrapeSide::Before, w.kind, w.line, w.detail);
        if (auto e = readOneScrape(m_after.bytes, m_a))
            return fail(ScrapeSide::After, *e);
        for (const ImportWarning &w : m_a.warnings)
            warn(ScrapeSide::After, w.kind, w.line, w.detail);
        return true;
    }

    // One target? Instances first (federation output names them), then the product, then
    // the families both scrapes have.
    bool checkInstances()
    {
        const auto instB = scrapeInstances(m_b.snap), instA = scrapeInstances(m_a.snap);
        bool shared = false;
        for (const auto &[instance, line] : instA)
            shared |= instB.contains(instance);
        if (shared)
            return true;
        return fail(ScrapeSide::After,
                    {"not a scrape of the target in " + m_bn + ": it has " +
                         instanceText(instA.begin()->first) + " (line " +
                         std::to_string(instA.begin()->second) + "), " + m_bn + " has " +
                         instanceText(instB.begin()->first) + " (line " +
                         std::to_string(instB.begin()->second) + ")",
                     instA.begin()->second, -1, "instance"});
    }

    bool checkProducts()
    {
        const auto prodB = scrapeProduct(m_b.snap), prodA = scrapeProduct(m_a.snap);
        if (prodB.first.empty() || prodA.first.empty() || prodB.first == prodA.first)
            return true;
        return fail(ScrapeSide::After,
                    {"not a scrape of the target in " + m_bn + ": its metrics are " + prodA.first +
                         "_… (from line " + std::to_string(prodA.second) + "), " + m_bn +
                         "'s are " + prodB.first + "_… (line " + std::to_string(prodB.second) + ")",
                     prodA.second, -1, {}});
    }

    bool checkFamilies()
    {
        m_famB = scrapeFamilies(m_b.snap);
        m_famA = scrapeFamilies(m_a.snap);
        size_t common = 0;
        const PromFamily *onlyB = nullptr, *onlyA = nullptr;
        for (const auto &[name, f] : m_famB) {
            if (m_famA.contains(name))
                ++common;
            else if (!onlyB || f->line < onlyB->line)
                onlyB = f;
        }
        for (const auto &[name, f] : m_famA)
            if (!m_famB.contains(name) && (!onlyA || f->line < onlyA->line))
                onlyA = f;
        const size_t all = m_famB.size() + m_famA.size() - common;
        if (common * 2 >= all)
            return true;
        std::string detail;
        if (onlyA)
            detail += "; " + onlyA->name + " (line " + std::to_string(onlyA->line) +
                      ") is not in " + m_bn;
        if (onlyB)
            detail += "; " + m_bn + "'s " + onlyB->name + " (line " + std::to_string(onlyB->line) +
                      ") is not in " + m_an;
        return fail(ScrapeSide::After,
                    {"not a scrape of the target in " + m_bn + ": only " + std::to_string(common) +
                         " of the " + std::to_string(all) +
                         " metric families are in both files" + detail,
                     onlyA ? onlyA->line : 0, -1, onlyA ? onlyA->name : std::string()});
    }

    void warnOfTypeChanges()
    {
        for (const auto &[name, fa] : m_famA) {
            auto it = m_famB.find(name);
            if (it != m_famB.end() && it->second->type != fa->type)
                warn(ScrapeSide::After, "type-changed", fa->line,
                     name + " is a " + promTypeName(fa->type) + " here but a " +
                         promTypeName(it->second->type) + " in " + m_bn + " (line " +
                         std::to_string(it->second->line) + ")");
        }
    }

    void warnOfSeriesInOneFile()
    {
        m_serB = scrapeSeries(m_b.snap);
        m_serA = scrapeSeries(m_a.snap);
        if (const auto gone = onlyIn(m_serB, m_serA); !gone.empty())
            warn(ScrapeSide::Before, "series-missing", gone.front()->line,
                 std::to_string(gone.size()) + " series of " + m_bn + " are not in " + m_an +
                     " (the first: " + promSeriesName(gone.front()->name, gone.front()->labels) +
                     "): left out of the interval");
        if (const auto added = onlyIn(m_serA, m_serB); !added.empty())
            warn(ScrapeSide::After, "series-new", added.front()->line,
                 std::to_string(added.size()) + " series appear only in " + m_an +
                     " (the first: " + promSeriesName(added.front()->name, added.front()->labels) +
                     "): created during the interval, the counters and histograms among them "
                     "count from zero");
        m_earlier = withNewSeriesAtZero(m_b.snap, m_a.snap, m_serB);
    }

    // Order: the process that answered, then the scrapes' own times.
    bool checkProcessOrder()
    {
        m_startB = scrapeProcessStart(m_b.snap);
        m_startA = scrapeProcessStart(m_a.snap);
        m_sameProcess = m_startB && m_startA && std::abs(m_startA->first - m_startB->first) < 1e-3;
        m_restarted = m_startB && m_startA && m_startA->first > m_startB->first + 1e-3;
        if (!(m_startB && m_startA && m_startA->first < m_startB->first - 1e-3))
            return true;
        return fail(ScrapeSide::After,
                    {"was scraped before " + m_bn + ": its process started earlier "
                     "(process_start_time_seconds " + num(m_startA->first) + ", " + m_bn +
                         " line " + std::to_string(m_startB->second) + ": " + num(m_startB->first) +
                         "); give the earlier scrape first",
                     m_startA->second, -1, "process_start_time_seconds"});
    }

    bool checkTimeOrder()
    {
        const auto &tb = m_b.snap.timeMs, &ta = m_a.snap.timeMs;
        if (!(tb && ta && *ta <= *tb))
            return true;
        return fail(ScrapeSide::After,
                    {std::string(*ta == *tb ? "was scraped at the same time as "
                                            : "was scraped before ") +
                         m_bn + ": " + timeOfMs(*ta) + " against " + timeOfMs(*tb) + " (" + m_bn +
                         " line " + std::to_string(m_b.snap.line) +
                         "); give the earlier scrape first",
                     m_a.snap.line, -1, {}});
    }

    // The interval: --interval, else the scrapes' own times, else the files' modification times.
    bool chooseInterval()
    {
        const auto &tb = m_b.snap.timeMs, &ta = m_a.snap.timeMs;
        std::optional<double> stated;
        if (tb && ta)
            stated = double(*ta - *tb) / 1000.0;
        if (m_intervalS) {
            m_out.intervalS = *m_intervalS;
            m_out.intervalFrom = "--interval";
            m_how = "as given by --interval";
            if (stated && std::abs(*stated - *m_intervalS) > std::max(0.001, 0.01 * *m_intervalS))
                warn(ScrapeSide::Neither, "interval-disagrees", 0,
                     "--interval gives " + num(*m_intervalS) +
                         " s but the scrapes' own times are " + num(*stated) + " s apart (" + m_bn +
                         " line " + std::to_string(m_b.snap.line) + ", " + m_an + " line " +
                         std::to_string(m_a.snap.line) +
                         "): the rates use --interval");
            return true;
        }
        if (stated) {
            m_out.intervalS = *stated;
            m_out.intervalFrom = "scrape times";
            m_how = "by the scrapes' times";
            return true;
        }
        return intervalFromFileTimes();
    }

    bool intervalFromFileTimes()
    {
        const std::string which = m_b.snap.timeMs ? "only " + m_bn + " states its time"
                                  : m_a.snap.timeMs ? "only " + m_an + " states its time"
                                                  : std::string("the scrapes state no time");
        if (!m_before.modifiedNs || !m_after.modifiedNs)
            return fail(ScrapeSide::Neither,
                        {which + " and the files' modification times are unknown: give "
                                 "--interval (e.g. --interval 60s)",
                         0, -1, {}});
        const int64_t ns = *m_after.modifiedNs - *m_before.modifiedNs;
        const std::string times = m_bn + " " + timeOfMs(*m_before.modifiedNs / 1000000) + ", " +
                                  m_an + " " + timeOfMs(*m_after.modifiedNs / 1000000);
        if (ns < 0)
            return fail(ScrapeSide::After,
                        {"is older than " + m_bn + " by the files' modification times (" + times +
                             "), and " + which +
                             ": give the earlier scrape first, or --interval when copying "
                             "changed the files' times",
                         0, -1, {}});
        if (ns == 0)
            return fail(ScrapeSide::Neither,
                        {m_bn + " and " + m_an + " have the same modification time (" +
                             timeOfMs(*m_after.modifiedNs / 1000000) + ") and " + which +
                             ": the interval cannot be told; give --interval (e.g. --interval 60s)",
                         0, -1, {}});
        m_out.intervalS = double(ns) / 1e9;
        m_out.intervalFrom = "file modification times";
        m_how = "by the files' modification times (inferred)";
        m_inferred.push_back("interval_s");
        warn(ScrapeSide::Neither, "interval-inferred", 0,
             which + ": the interval, " + num(m_out.intervalS) +
                 " s, is inferred from the files' modification times (" + times +
                 "); give --interval if the files were copied or touched since they were saved");
        return true;
    }

    // Counters that went down: the target restarted, or (the same process, nothing grew) the
    // files are in the wrong order.
    bool checkCounters()
    {
        const PromDiff diff = diffSnapshots(m_earlier, m_a.snap, m_out.intervalS);
        std::vector<const PromRate *> resets;
        size_t grew = 0;
        for (const PromRate &r : diff.rates) {
            if (r.reset)
                resets.push_back(&r);
            else if (r.delta > 0)
                ++grew;
        }
        if (resets.empty()) {
            if (m_restarted)
                warn(ScrapeSide::After, "target-restarted", m_startA->second,
                     "the target restarted between the scrapes (process_start_time_seconds " +
                         num(m_startB->first) + " in " + m_bn + ", " + num(m_startA->first) +
                         " here), yet no counter went down: increases span two processes");
            return true;
        }
        std::sort(resets.begin(), resets.end(), [&](const PromRate *x, const PromRate *y) {
            return lineIn(m_serA, x->series) < lineIn(m_serA, y->series);
        });
        const PromRate &first = *resets.front();
        if (m_sameProcess && grew == 0)
            return fail(ScrapeSide::After,
                        {"was scraped before " + m_bn + ": every counter that changed went down (" +
                             first.series + " from " + num(valueIn(m_serB, first.series)) + " in " +
                             m_bn + " line " + std::to_string(lineIn(m_serB, first.series)) +
                             " to " + num(valueIn(m_serA, first.series)) +
                             ") while process_start_time_seconds stayed " + num(m_startA->first) +
                             "; give the earlier scrape first",
                         lineIn(m_serA, first.series), -1, first.series});
        warnOfResets(resets.size(), first);
        return true;
    }

    void warnOfResets(size_t count, const PromRate &first)
    {
        const std::string why =
            m_restarted ? "the target restarted between the scrapes (process_start_time_seconds " +
                            num(m_startB->first) + " in " + m_bn + ", " + num(m_startA->first) +
                            " here at line " + std::to_string(m_startA->second) + ")"
            : m_sameProcess ? "although process_start_time_seconds is the same in both files"
                          : "the target restarted between the scrapes, or the files are in the "
                            "wrong order";
        warn(ScrapeSide::After, "counter-reset", lineIn(m_serA, first.series),
             std::to_string(count) + (count == 1 ? " counter" : " counters") +
                 " went down since " + m_bn + ", the first " + first.series + " from " +
                 num(valueIn(m_serB, first.series)) + " (" + m_bn + " line " +
                 std::to_string(lineIn(m_serB, first.series)) + ") to " +
                 num(valueIn(m_serA, first.series)) + ": " + why +
                 "; their increase counts from zero, so their rates are low");
    }

    void warnIfNothingChanged()
    {
        bool sameValues = m_serA.size() == m_serB.size();
        for (const auto &[series, sample] : m_serA) {
            if (!sameValues)
                break;
            auto it = m_serB.find(series);
            const double was = it == m_serB.end() ? 0 : it->second->value;
            sameValues = it != m_serB.end() &&
                         (was == sample->value || (std::isnan(was) && std::isnan(sample->value)));
        }
        if (sameValues)
            warn(ScrapeSide::Neither, "no-change", 0,
                 m_an + " holds the same values as " + m_bn + " (all " +
                     std::to_string(m_serA.size()) + " series): nothing was counted between the scrapes; is it the same scrape "
                     "saved twice?");
    }

    void buildRun()
    {
        const std::string provenance =
            "difference of the scrapes in " + baseName(m_before.uri) + " (line " +
            std::to_string(m_b.snap.line) + ") and " + baseName(m_after.uri) + " (line " +
            std::to_string(m_a.snap.line) + "), " + num(m_out.intervalS) + " s apart " + m_how;
        ImportResult built = prometheusRunFromInterval(
            m_earlier, m_a.snap, m_out.intervalS, provenance, m_before.bytes + m_after.bytes);
        for (const ImportWarning &w : built.warnings)
            warn(ScrapeSide::Neither, w.kind, w.line, w.detail);
        if (built.error) {
            fail(ScrapeSide::Neither, *built.error);
            return;
        }
        if (built.runs.empty() || built.runs.front().scenarios.empty()) {
            fail(ScrapeSide::Neither, {"no target is in both " + m_bn + " and " + m_an, 0, -1, {}});
            return;
        }
        RunRecord &run = built.runs.front();
        if (run.timestamp.empty())
            dateByTheFiles(run);
        run.provenance = "two scrapes of one target: " + m_before.uri + ", then " + m_after.uri;
        run.environment["scrape_files"] = {m_before.uri, m_after.uri};
        run.environment["interval_s"] = m_out.intervalS;
        run.environment["interval_from"] = m_out.intervalFrom;
        if (!m_inferred.empty())
            run.environment["inferred"] = m_inferred;
        m_out.result.runs = std::move(built.runs);
    }

    // The scrapes state no time: the after file's modification time, else the import's.
    void dateByTheFiles(RunRecord &run)
    {
        if (m_after.modifiedNs) {
            run.timestamp = *normalizeTimestamp(timeOfMs(*m_after.modifiedNs / 1000000));
            run.timeSource = TimeSource::FileModified;
            warn(ScrapeSide::Neither, "timestamp-inferred", 0,
                 "the scrapes state no time; the run is dated by " + m_an +
                     "'s modification time, " + run.timestamp);
        } else {
            run.timestamp = nowTimestamp();
            run.timeSource = TimeSource::Imported;
            warn(ScrapeSide::Neither, "timestamp-inferred", 0,
                 "the scrapes state no time; the run is dated by the time of import, " +
                     run.timestamp);
        }
        m_inferred.push_back("timestamp");
    }

    const ScrapeFile &m_before, &m_after;
    const std::optional<double> m_intervalS;
    const std::string &m_bn, &m_an; // the files as the user gave them, for messages
    ScrapePair m_out;
    OneScrape m_b, m_a;
    std::map<std::string, const PromFamily *> m_famB, m_famA;
    ScrapeSeries m_serB, m_serA;
    PromSnapshot m_earlier; // `b` with a zero for each counting series only `a` has
    std::optional<std::pair<double, int64_t>> m_startB, m_startA;
    bool m_sameProcess = false, m_restarted = false;
    std::string m_how;                   // where the interval comes from, for the provenance
    std::vector<std::string> m_inferred; // environment fields inferred rather than read
};

} // namespace

std::string scrapeNumberText(double v)
{
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

std::string scrapePairUri(const std::string &beforeUri, const std::string &afterUri)
{
    return beforeUri + " + " + afterUri;
}

ScrapePair pairScrapes(const ScrapeFile &before, const ScrapeFile &after,
                       std::optional<double> intervalS)
{
    return ScrapePairing(before, after, intervalS).run();
}

} // namespace plimsoll
