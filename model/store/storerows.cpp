#include "model/store/storerows.h"

#include <string>
#include <vector>

namespace plimsoll::storerows {

using sql::Statement;

namespace {
// Columns 1 to 7 of a run row into a RunRecord or a StoredRunIdentity (the same member names).
template<class Run>
void readKeyToTarget(const Statement &st, Run &run)
{
    // Assigned, not replaced: a row read into the same record again reuses its buffers.
    run.runKey.assign(st.textView(1));
    run.timestamp.assign(st.textView(2));
    run.commit.assign(st.textView(3));
    run.imageDigest.assign(st.textView(4));
    run.tool.assign(st.textView(5));
    run.toolVersion.assign(st.textView(6));
    run.target.assign(st.textView(7));
}
} // namespace

void readRunIdentity(const Statement &st, RunRecord &run) { readKeyToTarget(st, run); }

bool isNumber(const std::string &s)
{
    if (s.empty() || s.size() > 18)
        return false;
    for (char c : s)
        if (c < '0' || c > '9')
            return false;
    return true;
}


void readIdentity(const Statement &q, StoredRunIdentity &run)
{
    run.id = q.int64(0);
    readKeyToTarget(q, run);
    run.sample = q.int64(8) != 0;
}

RunSummary readSummary(const Statement &q)
{
    RunSummary s;
    readIdentity(q, s);
    s.scenarioCount = q.int64(9);
    s.sourceUri = q.text(10);
    s.sourceFormat = q.text(11);
    s.name = q.text(12);
    s.tags = tagsOf(q.textView(13));
    return s;
}

std::string tagsText(const std::vector<std::string> &tags)
{
    std::string out;
    for (const std::string &t : tags)
        out += (out.empty() ? "" : " ") + t;
    return out;
}

std::vector<std::string> tagsOf(std::string_view text)
{
    std::vector<std::string> out;
    while (!text.empty()) {
        const size_t space = text.find(' ');
        if (space != 0)
            out.emplace_back(text.substr(0, space));
        if (space == std::string_view::npos)
            break;
        text.remove_prefix(space + 1);
    }
    return out;
}

nlohmann::json parseStoredJson(const std::string &text, nlohmann::json fallback)
{
    if (text.empty())
        return fallback;
    auto j = nlohmann::json::parse(text, nullptr, false);
    return j.is_discarded() ? fallback : j;
}

// Series of one scenario, by name (the store keeps no order among series), samples in order.
std::vector<SeriesRecord> readSeries(Statement &q, int64_t scenarioId)
{
    q.reset();
    q.bind(1, scenarioId);
    std::vector<SeriesRecord> out;
    while (q.step()) {
        const std::string name = q.text(0);
        if (out.empty() || out.back().name != name)
            out.push_back({name, {}});
        out.back().samples.push_back({q.real(1), q.real(2)});
    }
    return out;
}

void readTopology(const Statement &q, int c, Topology &t)
{
    t.brokers = q.optInt64(c);
    t.shards = q.optInt64(c + 1);
    t.partitions = q.optInt64(c + 2);
    t.producers = q.optInt64(c + 3);
    t.consumers = q.optInt64(c + 4);
    t.clients = q.optInt64(c + 5);
    t.connections = q.optInt64(c + 6);
    t.threads = q.optInt64(c + 7);
    t.pipeline = q.optInt64(c + 8);
    t.recordSizeBytes = q.optInt64(c + 9);
    t.batchBytes = q.optInt64(c + 10);
    t.compression = q.optText(c + 11);
    t.acks = q.optText(c + 12);
    t.agents = q.optInt64(c + 13);
    t.replication = q.optInt64(c + 14);
}

ScenarioRecord readScenario(const Statement &q, int c)
{
    ScenarioRecord s;
    s.name = q.text(c);
    s.kind = q.text(c + 1);
    readTopology(q, c + 2, s.topology);
    const auto inferred = parseStoredJson(q.text(c + 2 + kTopologyColumnCount), nlohmann::json::array());
    for (const auto &v : inferred)
        if (v.is_string())
            s.topology.inferred.push_back(v.get<std::string>());
    s.provenance = q.text(c + 3 + kTopologyColumnCount);
    return s;
}

// The conditions of a RunFilter on `runs r`, as parameters ?1 .. ?5 and ?9 (bindRunFilter binds them).
std::string runFilterConditions(const RunFilter &filter)
{
    std::string q;
    // Every value is bound; only the shape of the WHERE clause varies.
    if (!filter.scenarioContains.empty())
        q += " AND EXISTS (SELECT 1 FROM scenarios s WHERE s.run_id = r.id AND "
             "instr(s.name, ?1) > 0)";
    if (!filter.commitPrefix.empty())
        q += " AND substr(r.commit_sha, 1, length(?2)) = ?2";
    if (!filter.since.empty())
        q += " AND r.timestamp >= ?3";
    if (!filter.until.empty())
        q += " AND r.timestamp < ?4";
    if (filter.sample)
        q += " AND r.sample = ?5";
    if (!filter.textContains.empty())
        q += " AND (instr(lower(r.run_key), lower(?9)) > 0 OR instr(lower(r.tool), lower(?9)) > 0"
             " OR instr(lower(r.tool_version), lower(?9)) > 0"
             " OR instr(lower(r.target), lower(?9)) > 0"
             " OR instr(lower(r.commit_sha), lower(?9)) > 0"
             " OR instr(lower(r.run_name), lower(?9)) > 0 OR instr(lower(r.run_tags), lower(?9)) > 0"
             " OR instr(lower(src.uri), lower(?9)) > 0"
             " OR EXISTS (SELECT 1 FROM scenarios t WHERE t.run_id = r.id AND "
             "instr(lower(t.name), lower(?9)) > 0))";
    return q;
}

void bindRunFilter(Statement &st, const RunFilter &filter)
{
    if (!filter.scenarioContains.empty())
        st.bindText(1, filter.scenarioContains);
    if (!filter.commitPrefix.empty())
        st.bindText(2, filter.commitPrefix);
    if (!filter.since.empty())
        st.bindText(3, filter.since);
    if (!filter.until.empty())
        st.bindText(4, filter.until);
    if (filter.sample)
        st.bind(5, int64_t(*filter.sample ? 1 : 0));
    if (!filter.textContains.empty())
        st.bindText(9, filter.textContains);
}

// The sort key of a page order as SQL over `runs r`, and the same key of a run as read (the
// cursor a page continues after). Text keys compare as RunsTableModel shows them: without case.
// Each key is, to the letter, the expression of an index of the schema (version 6), which is
// what lets SQLite read a page from that index instead of sorting every run.
std::string pageOrderKey(RunPage::Order order)
{
    switch (order) {
    case RunPage::Order::Time:
        return "r.timestamp";
    case RunPage::Order::RunKey:
        return "r.run_key COLLATE NOCASE";
    case RunPage::Order::Tool:
        return "(COALESCE(r.tool, '') || ' ' || COALESCE(r.tool_version, '')) COLLATE NOCASE";
    case RunPage::Order::Target:
        return "COALESCE(r.target, '') COLLATE NOCASE";
    case RunPage::Order::Commit:
        return "COALESCE(r.commit_sha, '') COLLATE NOCASE";
    case RunPage::Order::Scenarios:
        return "r.scenario_count";
    case RunPage::Order::Sample:
        return "r.sample";
    case RunPage::Order::Name:
        return "COALESCE(r.run_name, '') COLLATE NOCASE";
    }
    return "r.timestamp";
}

void bindPageCursor(Statement &st, int index, RunPage::Order order, const RunSummary &after)
{
    switch (order) {
    case RunPage::Order::Time:
        st.bindText(index, after.timestamp);
        break;
    case RunPage::Order::RunKey:
        st.bindText(index, after.runKey);
        break;
    case RunPage::Order::Tool:
        st.bindText(index, after.tool + " " + after.toolVersion);
        break;
    case RunPage::Order::Target:
        st.bindText(index, after.target);
        break;
    case RunPage::Order::Commit:
        st.bindText(index, after.commit);
        break;
    case RunPage::Order::Scenarios:
        st.bind(index, after.scenarioCount);
        break;
    case RunPage::Order::Sample:
        st.bind(index, int64_t(after.sample ? 1 : 0));
        break;
    case RunPage::Order::Name:
        st.bindText(index, after.name);
        break;
    }
}

// The family of a scenario name: up to its last '/', or empty when it has none.
std::string familyOf(const std::string &scenario)
{
    const auto slash = scenario.rfind('/');
    return slash == std::string::npos ? std::string() : scenario.substr(0, slash);
}

} // namespace plimsoll::storerows
