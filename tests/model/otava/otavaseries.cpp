// The two C++ halves of the cross-check against Apache Otava (crosscheck.py drives both):
//
//   plimsoll_otava_series generate DIR
//       writes the synthetic series of tests/model/changepoints_test.cpp (same shapes, same
//       seeds, same std::mt19937 + std::normal_distribution, so the same numbers) plus a few
//       more, one CSV per series, and DIR/manifest.csv (name, window, expected change points).
//       Both sides read these files, so Otava and Plimsoll see identical bytes: the values are
//       printed with 17 significant digits, which round-trips a double exactly.
//   plimsoll_otava_series detect FILE WINDOW PVALUE
//       runs model/changepoints on FILE and prints one line "strong i j …" and one
//       "weak i j …".
//   plimsoll_otava_series analyze FILE
//       runs model/seriesanalysis on FILE (a CSV with a "value" column, as Otava's playground
//       suite writes them) and prints every index it marks (outliers, confident level
//       changes, variance changes, drift starts) on one line, for the playground evaluation;
//       with -v, each finding and its figures on stderr.
//
// The series are generated here rather than in Python because libstdc++'s normal distribution
// is what the C++ tests were written against; numpy could not reproduce it.

#include "model/trends/changepoints.h"
#include "model/trends/seriesanalysis.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace plimsoll;

namespace {

// As in changepoints_test.cpp: normal noise from a fixed seed.
std::vector<double> noisy(const std::vector<std::pair<std::size_t, double>> &segments, double sigma,
                          unsigned seed = 7)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, sigma);
    std::vector<double> out;
    for (const auto &[length, mean] : segments)
        for (std::size_t i = 0; i < length; ++i)
            out.push_back(mean + noise(rng));
    return out;
}

void append(std::vector<double> &to, const std::vector<double> &more)
{
    to.insert(to.end(), more.begin(), more.end());
}

struct Series
{
    std::string name;
    std::vector<double> values;
    int window = 50;
    std::string expected; // Plimsoll's unit-test expectation, for the report only
};

std::vector<Series> allSeries()
{
    std::vector<Series> out;
    out.push_back({"step-up", noisy({{60, 100}, {60, 110}}, 1.0), 50, "60"});
    out.push_back({"step-down", noisy({{35, 500}, {80, 450}}, 5.0, 11), 50, "35"});
    out.push_back({"several-steps", noisy({{40, 10}, {40, 12}, {40, 9}}, 0.3, 3), 50, "40 80"});
    for (unsigned seed : {1u, 2u, 3u, 4u, 5u})
        out.push_back({"noise-only-" + std::to_string(seed), noisy({{200, 1000}}, 20.0, seed), 50, ""});

    auto outliers = noisy({{120, 100}}, 1.0, 5);
    outliers[30] = 105;
    outliers[71] = 95.5;
    outliers[95] = 104.5;
    out.push_back({"outliers", outliers, 50, ""});

    auto gross = noisy({{120, 100}}, 1.0, 5);
    gross[71] = 40;
    out.push_back({"gross-outlier", gross, 50, "71 72"});

    auto amongOutliers = noisy({{50, 100}, {50, 108}}, 1.0, 9);
    amongOutliers[20] = 150;
    amongOutliers[75] = 60;
    out.push_back({"step-among-outliers", amongOutliers, 50, "50"});

    auto wild = noisy({{40, 100}}, 0.5, 21);
    append(wild, noisy({{30, 100}}, 6.0, 22));
    append(wild, noisy({{30, 120}}, 6.0, 23));
    append(wild, noisy({{40, 120}}, 0.5, 24));
    out.push_back({"shift-in-high-variance", wild, 50, "70"});

    out.push_back({"deterministic", noisy({{70, 5}, {30, 5.5}, {60, 4.8}}, 0.2, 13), 50, "70 100"});
    out.push_back({"small-step", noisy({{60, 100}, {60, 101}}, 0.1, 17), 50, "60"});
    out.push_back({"late-change-window-30", noisy({{150, 20}, {30, 25}}, 0.5, 19), 30, "150"});

    // Beyond the unit tests: steps of 2 to 4 standard deviations at irregular places, longer
    // than one window, so that overlapping windows and the merge step both matter.
    for (unsigned seed : {31u, 32u, 33u, 34u, 35u, 36u}) {
        std::mt19937 rng(seed * 101);
        std::uniform_int_distribution<int> length(15, 70);
        std::uniform_real_distribution<double> jump(2.0, 4.0);
        std::bernoulli_distribution up(0.5);
        std::vector<std::pair<std::size_t, double>> segments;
        double level = 1000;
        for (int k = 0; k < 5; ++k) {
            segments.emplace_back(static_cast<std::size_t>(length(rng)), level);
            level += (up(rng) ? 1 : -1) * jump(rng) * 10;
        }
        std::string expected;
        std::size_t at = 0;
        for (std::size_t k = 0; k + 1 < segments.size(); ++k) {
            at += segments[k].first;
            expected += (expected.empty() ? "" : " ") + std::to_string(at);
        }
        out.push_back({"random-steps-" + std::to_string(seed), noisy(segments, 10.0, seed), 50, expected});
    }
    return out;
}

int generate(const std::string &dir)
{
    std::ofstream manifest(dir + "/manifest.csv");
    manifest << "name,window,expected\n";
    for (const Series &s : allSeries()) {
        std::ofstream csv(dir + "/" + s.name + ".csv");
        csv << "value\n";
        char buf[64];
        for (double v : s.values) {
            std::snprintf(buf, sizeof buf, "%.17g", v);
            csv << buf << '\n';
        }
        if (!csv) {
            std::cerr << "cannot write " << dir << "/" << s.name << ".csv\n";
            return 1;
        }
        manifest << s.name << ',' << s.window << ',' << s.expected << '\n';
    }
    return manifest ? 0 : 1;
}

int detect(const std::string &file, int window, double pValue)
{
    std::ifstream in(file);
    std::string line;
    std::getline(in, line); // header
    std::vector<double> values;
    while (std::getline(in, line))
        values.push_back(std::strtod(line.c_str(), nullptr));
    if (values.empty()) {
        std::cerr << "no values in " << file << "\n";
        return 1;
    }
    ChangePointOptions options;
    options.window = window;
    options.pValue = pValue;
    const ChangePointResult result = detectChangePoints(values, options);
    std::cout << "strong";
    for (const auto &c : result.strong)
        std::cout << ' ' << c.index;
    std::cout << "\nweak";
    for (const auto &c : result.weak)
        std::cout << ' ' << c.index;
    std::cout << '\n';
    return 0;
}

// The "value" column of a CSV with a header line.
std::vector<double> valueColumn(const std::string &file, std::string &error)
{
    std::ifstream in(file);
    std::string line;
    if (!std::getline(in, line)) {
        error = "cannot read " + file;
        return {};
    }
    std::vector<std::string> header;
    std::stringstream hs(line);
    for (std::string cell; std::getline(hs, cell, ',');)
        header.push_back(cell);
    const auto col = std::find(header.begin(), header.end(), "value") - header.begin();
    if (col == long(header.size())) {
        error = file + ": line 1: no \"value\" column";
        return {};
    }
    std::vector<double> values;
    for (int lineNo = 2; std::getline(in, line); ++lineNo) {
        std::stringstream ls(line);
        std::string cell;
        for (long i = 0; i <= col && std::getline(ls, cell, ','); ++i) {
        }
        char *end = nullptr;
        const double v = std::strtod(cell.c_str(), &end);
        if (cell.empty() || *end != '\0') {
            error = file + ": line " + std::to_string(lineNo) + ": value \"" + cell + "\" is not a number";
            return {};
        }
        values.push_back(v);
    }
    return values;
}

int analyze(const std::string &file, bool verbose)
{
    std::string error;
    const std::vector<double> values = valueColumn(file, error);
    if (!error.empty()) {
        std::cerr << error << "\n";
        return 1;
    }
    const SeriesAnalysis a = analyzeSeries(values);
    if (verbose) {
        for (const Outlier &o : a.outliers)
            std::cerr << "outlier " << o.index << " " << o.value << " expected " << o.expected << " sigmas " << o.sigmas << "\n";
        for (const LevelChange &c : a.changes)
            std::cerr << "change " << c.change.index << (c.provisional ? " provisional" : "") << (c.shortRun ? " short-run" : "")
                      << " " << c.change.meanBefore << " -> " << c.change.meanAfter << " p " << c.change.pValue << "\n";
        for (const VarianceChange &v : a.varianceChanges)
            std::cerr << "variance " << v.index << " " << v.stddevBefore << " -> " << v.stddevAfter << " p " << v.pValue << "\n";
        for (const Drift &d : a.drifts)
            std::cerr << "drift " << d.from << ".." << d.to << " slope " << d.slopePerPoint << "\n";
    }
    bool first = true;
    for (std::size_t i : a.markedIndexes()) {
        std::cout << (first ? "" : " ") << i;
        first = false;
    }
    std::cout << '\n';
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 2 && args[0] == "generate")
        return generate(args[1]);
    if (args.size() == 4 && args[0] == "detect")
        return detect(args[1], std::atoi(args[2].c_str()), std::strtod(args[3].c_str(), nullptr));
    if ((args.size() == 2 || (args.size() == 3 && args[2] == "-v")) && args[0] == "analyze")
        return analyze(args[1], args.size() == 3);
    std::cerr << "usage: plimsoll_otava_series generate DIR | detect FILE WINDOW PVALUE | analyze FILE [-v]\n";
    return 2;
}
