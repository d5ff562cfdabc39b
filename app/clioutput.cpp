#include "app/clioutput.h"

#include "app/texttable.h"
#include "model/core/catalog.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iomanip>

namespace plimsoll {

namespace {
nlohmann::json orNull(const std::string &s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); }

std::string plural(int64_t n, const char *word)
{
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}
} // namespace

nlohmann::json runsToJson(const std::vector<RunSummary> &runs)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto &r : runs)
        out.push_back({{"id", r.id},
                       {"run_key", r.runKey},
                       {"timestamp", r.timestamp},
                       {"tool", orNull(r.tool)},
                       {"tool_version", orNull(r.toolVersion)},
                       {"target", orNull(r.target)},
                       {"commit", orNull(r.commit)},
                       {"image_digest", orNull(r.imageDigest)},
                       {"sample", r.sample},
                       {"scenario_count", r.scenarioCount},
                       {"source", r.sourceUri},
                       {"name", orNull(r.name)},
                       {"tags", r.tags}});
    return out;
}

void printImportReport(std::ostream &out, std::ostream &err, const SourceReport &report)
{
    if (report.status == "failed") {
        err << "plimsoll: " << report.errorText << "\n";
        return;
    }
    out << report.uri << ": " << report.status;
    if (!report.format.empty())
        out << " (" << report.format << ")";
    out << ": " << plural(report.runs, "run") << ", " << plural(report.scenarios, "scenario")
        << ", " << plural(report.metrics, "metric") << "\n";
    for (const auto &w : report.warnings) {
        err << "plimsoll: warning: " << report.uri;
        if (w.line > 0)
            err << ": line " << w.line;
        err << ": " << w.detail << "\n";
    }
}

void printScrapePairReport(std::ostream &out, std::ostream &err, const ScrapePairReport &pair)
{
    const SourceReport &report = pair.report;
    if (report.status == "failed") {
        err << "plimsoll: " << report.errorText << "\n";
        return;
    }
    out << pair.beforeName << " + " << pair.afterName << ": " << report.status << " ("
        << report.format << "): " << plural(report.runs, "run") << ", "
        << plural(report.scenarios, "scenario") << ", " << plural(report.metrics, "metric");
    if (pair.intervalS) {
        char seconds[32];
        const auto [end, ec] = std::to_chars(seconds, seconds + sizeof seconds, *pair.intervalS);
        out << "; interval " << (ec == std::errc() ? std::string(seconds, end) : std::string("?"))
            << " s (" << pair.intervalFrom << ")";
    }
    out << "\n";
    for (size_t i = 0; i < report.warnings.size(); ++i) {
        const ImportWarning &w = report.warnings[i];
        const std::string file = pair.fileOfWarning(i);
        err << "plimsoll: warning: " << (file.empty() ? pair.beforeName + " + " + pair.afterName : file);
        if (w.line > 0 && !file.empty())
            err << ": line " << w.line;
        err << ": " << w.detail << "\n";
    }
}

void printRunsTable(std::ostream &out, const std::vector<RunSummary> &runs)
{
    if (runs.empty()) {
        out << "No runs. Import results with `plimsoll import FILE`, or add the samples with "
               "`plimsoll samples install`.\n";
        return;
    }
    using A = TextTable::Align;
    // The user's labels in columns of their own, where any run listed has one.
    const bool names = std::any_of(runs.begin(), runs.end(), [](const RunSummary &r) { return !r.name.empty(); });
    const bool tags = std::any_of(runs.begin(), runs.end(), [](const RunSummary &r) { return !r.tags.empty(); });
    std::vector<TextTable::Column> columns = {{"ID", A::Right}, {"TIME"}};
    if (names)
        columns.push_back({"NAME"});
    for (TextTable::Column c : std::vector<TextTable::Column>{{"RUN KEY"}, {"COMMIT"}, {"SCENARIOS", A::Right}, {"TOOL"}})
        columns.push_back(c);
    if (tags)
        columns.push_back({"TAGS"});
    TextTable table(columns);
    for (const auto &r : runs) {
        std::vector<std::string> cells = {std::to_string(r.id), r.timestamp};
        if (names)
            cells.push_back(r.name.empty() ? "-" : r.name);
        for (std::string c : {r.runKey, r.commit.empty() ? std::string("-") : r.commit.substr(0, 8),
                              std::to_string(r.scenarioCount), r.tool + (r.sample ? "  [sample]" : "")})
            cells.push_back(std::move(c));
        if (tags) {
            std::string list;
            for (const std::string &t : r.tags)
                list += (list.empty() ? "" : " ") + t;
            cells.push_back(list.empty() ? "-" : list);
        }
        table.addRow(std::move(cells));
    }
    table.print(out);
}

void printRunDetail(std::ostream &out, const RunDetail &d)
{
    const RunRecord &r = d.record;
    auto line = [&](const char *label, const std::string &value) {
        if (!value.empty())
            out << std::left << std::setw(14) << label << value << "\n";
    };
    line("Run", r.runKey + " (id " + std::to_string(d.summary.id) + ")" +
                    (r.sample ? " [sample]" : ""));
    line("Name", r.name);
    if (!r.tags.empty()) {
        std::string list;
        for (const std::string &t : r.tags)
            list += (list.empty() ? "" : " ") + t;
        line("Tags", list);
    }
    line("Time", r.timestamp);
    line("Commit", r.commit);
    line("Image", r.imageDigest);
    line("Tool", r.tool + (r.toolVersion.empty() ? "" : " " + r.toolVersion));
    line("Target", r.target);
    if (!r.tuning.empty())
        line("Tuning", r.tuning.dump());
    if (!r.environment.empty())
        line("Environment", r.environment.dump());
    line("Provenance", r.provenance);
    line("Source", d.source.uri + " (" + d.source.format + ", imported " + d.source.importedAt + ")");
    // One table over every scenario: the values line up through the whole run, however long
    // a tool's metric names are. Its header row is left out (blank titles).
    TextTable table({{""}, {""}}, "    ");
    for (const auto &s : r.scenarios) {
        table.addSection("");
        table.addSection("  " + s.name + (s.kind.empty() ? "" : "  [" + s.kind + "]"));
        const auto topo = s.topology.toJson();
        if (!topo.empty())
            table.addRow({"topology", topo.dump()});
        for (const auto &m : s.metrics)
            table.addRow({m.name, formatMetric(m.name, m.value)});
        if (!s.provenance.empty())
            table.addRow({"from", s.provenance});
    }
    table.print(out);
}

void printBudget(std::ostream &out, const LatencyBudget &budget, const BudgetResult &r,
                 const std::vector<LatencyPointOrigin> &origins)
{
    out << r.points.size() << " points";
    if (r.leftOutPoints > 0)
        out << " (" << r.leftOutPoints << " left out: they measured nothing)";
    out << "; budget p99 ≤ " << formatMetric("latency_p99_s", budget.p99);
    if (budget.p999)
        out << ", p99.9 ≤ " << formatMetric("latency_p999_s", *budget.p999);
    out << "\n";
    using A = TextTable::Align;
    TextTable table({{"PRODUCT"}, {"CONFIGURATION"}, {"THROUGHPUT", A::Right}, {"CONNECTIONS", A::Right},
                     {"P99", A::Right}, {"LITTLE'S LAW", A::Right}, {"NOTE"}},
                    "  ");
    for (const auto &s : r.perConfiguration) {
        const std::string config = s.configuration.empty() ? "-" : s.configuration;
        if (!s.found) {
            table.addRow({s.product, config, "-", "-", "-", "-",
                          (s.allLeftOut ? "no pick: " : "no point within budget: ") + s.missedBecause});
            continue;
        }
        char ratio[32] = "-";
        if (s.best.little.checked)
            std::snprintf(ratio, sizeof ratio, "%.2f%s", s.best.little.ratio, s.best.little.flagged ? " (!)" : "");
        else if (s.best.little.notApplicable)
            std::snprintf(ratio, sizeof ratio, "async"); // Kafka clients: not a closed loop
        // Requests or records, as the tool counted them: a plain rate with thousands grouped.
        table.addRow({s.product, config, formatMetric("", s.best.point.throughput) + " /s",
                      std::to_string(s.best.point.connections), formatMetric("latency_p99_s", s.best.point.p99),
                      ratio});
    }
    table.print(out);
    if (r.leftOutPoints == 0)
        return;
    out << "Left out of every pick:\n";
    for (const BudgetedPoint &b : r.points) {
        if (!b.leftOut)
            continue;
        out << "  " << b.point.product << " · " << (b.point.configuration.empty() ? "-" : b.point.configuration);
        if (b.index < origins.size())
            out << "  run " << origins[b.index].runKey << ", " << origins[b.index].scenario;
        out << ": " << degenerateReason(b.point) << "\n";
    }
}

void printCatalog(std::ostream &out, bool json)
{
    if (json) {
        nlohmann::json factors = nlohmann::json::array(), metrics = nlohmann::json::array();
        for (const auto &f : factorCatalog())
            factors.push_back({{"name", f.name}, {"description", f.description}});
        for (const auto &m : metricCatalog()) {
            // Checked at import: below min refused, above plausible_max warned (null: none).
            nlohmann::json domain = {{"min", m.domain.min}, {"text", m.domain.text}};
            domain["plausible_max"] = std::isfinite(m.domain.plausibleMax)
                                          ? nlohmann::json(m.domain.plausibleMax)
                                          : nlohmann::json();
            metrics.push_back({{"name", m.name},
                               {"unit", m.unit},
                               {"direction", directionName(m.direction)},
                               {"description", m.description},
                               {"domain", domain}});
        }
        out << nlohmann::json{{"factors", factors}, {"metrics", metrics}}.dump(2) << "\n";
        return;
    }
    out << "Load factors:\n";
    for (const auto &f : factorCatalog())
        out << "  " << std::left << std::setw(20) << f.name << f.description << "\n";
    out << "\nMetrics (stored in SI units):\n";
    for (const auto &m : metricCatalog())
        out << "  " << std::left << std::setw(18) << m.name << std::setw(11) << m.unit
            << std::setw(18) << directionName(m.direction) << m.description << " Domain: "
            << m.domain.text << ".\n";
}

void printFormats(std::ostream &out, bool json)
{
    const auto &importers = ImporterRegistry::instance().importers();
    if (json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto *i : importers)
            list.push_back({{"name", i->name()},
                            {"version", i->version()},
                            {"description", i->description()},
                            {"detection", i->detectionRule()}});
        out << list.dump(2) << "\n";
        return;
    }
    for (const auto *i : importers)
        out << i->name() << " (importer " << i->version() << ")\n  " << i->description()
            << "\n  detected by: " << i->detectionRule() << "\n";
}

} // namespace plimsoll
