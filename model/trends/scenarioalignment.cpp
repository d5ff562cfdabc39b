#include "model/trends/scenarioalignment.h"

#include "model/core/catalog.h"
#include "model/core/metricroles.h"
#include "model/core/tuningcontract.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace plimsoll {

namespace {

// The scenario's name with every number left out ("100-partitions-200K-rate" -> "#-partitions-#-rate"),
// and its settings that are no load factor: two scenarios of one workload at two loads agree here.
std::string shapeOf(const ScenarioRecord &s)
{
    std::string name;
    for (std::size_t i = 0; i < s.name.size();) {
        if (std::isdigit(static_cast<unsigned char>(s.name[i]))) {
            while (i < s.name.size() && (std::isdigit(static_cast<unsigned char>(s.name[i])) || s.name[i] == '.' ||
                                         s.name[i] == ','))
                ++i;
            // A unit suffix of the number ("200K", "1kb") goes with it.
            while (i < s.name.size() && std::isalpha(static_cast<unsigned char>(s.name[i])) &&
                   (i + 1 == s.name.size() || !std::isalpha(static_cast<unsigned char>(s.name[i + 1]))))
                ++i;
            name += '#';
            continue;
        }
        name += static_cast<char>(std::tolower(static_cast<unsigned char>(s.name[i])));
        ++i;
    }
    nlohmann::json settings = s.topology.toJson();
    settings.erase("inferred");
    for (const FactorInfo &f : factorCatalog())
        settings.erase(std::string(f.name));
    return name + "\n" + settings.dump();
}

std::vector<std::string> candidateFactors()
{
    std::vector<std::string> out;
    for (const FactorInfo &f : factorCatalog())
        out.emplace_back(f.name);
    out.emplace_back(kOfferedRateKey);
    return out;
}

// The load factors that differ within the pairs, each with its values on both sides; a factor that
// only repeats an earlier one (redis-benchmark's connections, always its clients) is loose but not named.
void describeFactors(ScenarioAlignment &a, const RunRecord &base, const RunRecord &cur)
{
    std::vector<std::pair<const ScenarioRecord *, const ScenarioRecord *>> pairs;
    for (const auto &[b, c] : a.pairing.pairs) {
        const auto find = [](const RunRecord &r, const std::string &n) -> const ScenarioRecord * {
            for (const ScenarioRecord &s : r.scenarios)
                if (s.name == n)
                    return &s;
            return nullptr;
        };
        pairs.emplace_back(find(base, b), find(cur, c));
    }
    std::vector<std::vector<std::pair<std::string, std::string>>> named;
    for (const std::string &factor : candidateFactors()) {
        std::vector<std::pair<std::string, std::string>> values;
        bool differs = false;
        for (const auto &[b, c] : pairs) {
            values.emplace_back(factorValueText(base, *b, factor), factorValueText(cur, *c, factor));
            differs = differs || values.back().first != values.back().second;
        }
        if (!differs)
            continue;
        a.pairing.looseFactors.push_back(factor);
        // Lockstep with a factor named already: the same numbers, once is enough.
        if (std::find(named.begin(), named.end(), values) != named.end())
            continue;
        named.push_back(values);
        a.factors.push_back(factor);
        const auto distinct = [&](bool baseline) {
            std::vector<std::string> seen;
            for (const auto &v : values) {
                const std::string &text = baseline ? v.first : v.second;
                const std::string shown = text.empty() ? "unset" : text;
                if (std::find(seen.begin(), seen.end(), shown) == seen.end())
                    seen.push_back(shown);
            }
            std::string out;
            for (const std::string &s : seen)
                out += (out.empty() ? "" : "/") + s;
            return out;
        };
        a.baselineValues.push_back(distinct(true));
        a.currentValues.push_back(distinct(false));
    }
}

} // namespace

std::string factorValueText(const RunRecord &run, const ScenarioRecord &scenario, const std::string &factor)
{
    if (factor == kOfferedRateKey) {
        const auto rate = offeredRate(run, scenario);
        return rate ? offeredText(*rate) : std::string();
    }
    const auto v = scenario.topology.factor(factor);
    return v ? groupThousands(static_cast<double>(*v), 0) : std::string();
}

std::string factorWord(const std::string &factor)
{
    if (factor == kOfferedRateKey)
        return "offered rate";
    std::string out = factor;
    std::replace(out.begin(), out.end(), '_', ' ');
    return out;
}

std::string alignedByWord(AlignedBy by)
{
    switch (by) {
    case AlignedBy::Name:
        return "name";
    case AlignedBy::LoadFactor:
        return "load factor";
    case AlignedBy::Position:
        return "position";
    case AlignedBy::Nothing:
        break;
    }
    return "nothing";
}

ScenarioAlignment alignScenarios(const RunRecord &base, const RunRecord &cur)
{
    ScenarioAlignment a;
    for (const ScenarioRecord &b : base.scenarios)
        for (const ScenarioRecord &c : cur.scenarios)
            if (b.name == c.name) {
                a.by = AlignedBy::Name;
                return a;
            }
    // One to one by shape: a shape two scenarios of one run share aligns neither.
    std::map<std::string, std::vector<const ScenarioRecord *>> baseShapes, curShapes;
    for (const ScenarioRecord &b : base.scenarios)
        baseShapes[shapeOf(b)].push_back(&b);
    for (const ScenarioRecord &c : cur.scenarios)
        curShapes[shapeOf(c)].push_back(&c);
    for (const ScenarioRecord &b : base.scenarios) {
        const auto &bs = baseShapes[shapeOf(b)];
        const auto it = curShapes.find(shapeOf(b));
        if (bs.size() == 1 && it != curShapes.end() && it->second.size() == 1)
            a.pairing.pairs.emplace_back(b.name, it->second.front()->name);
    }
    // One load factor (or several in lockstep) is what the comparison is about, and leaves the
    // contract; where more differ, the contract judges them as it judges any two scenarios.
    const auto loosenOnlyOne = [&a] {
        if (a.factors.size() > 1)
            a.pairing.looseFactors.clear();
    };
    if (!a.pairing.pairs.empty()) {
        describeFactors(a, base, cur);
        loosenOnlyOne();
        if (!a.factors.empty()) {
            a.by = AlignedBy::LoadFactor;
            return a;
        }
        a = {};
    }
    if (base.scenarios.size() == 1 && cur.scenarios.size() == 1) {
        a.by = AlignedBy::Position;
        a.pairing.pairs.emplace_back(base.scenarios.front().name, cur.scenarios.front().name);
        describeFactors(a, base, cur);
        loosenOnlyOne();
        return a;
    }
    return a;
}

} // namespace plimsoll
