#pragma once
// The bundled sample runs (resources/samples/*.jsonl) read straight into records, for model
// tests that must not depend on the importers. Each line is one scenario of a run.
#include "model/core/records.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace plimsoll::test {

inline std::vector<RunRecord> sampleRuns()
{
    const std::filesystem::path dir =
        std::filesystem::path(PLIMSOLL_TEST_DATA_DIR) / ".." / ".." / "resources" / "samples";
    std::map<std::string, RunRecord> runs;
    std::vector<std::filesystem::path> files;
    for (const auto &entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".jsonl")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto &file : files) {
        std::ifstream in(file);
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#')
                continue;
            const auto j = nlohmann::json::parse(line);
            RunRecord &run = runs[j.at("run_key").get<std::string>()];
            run.runKey = j.at("run_key").get<std::string>();
            run.timestamp = j.value("timestamp", "");
            run.target = j.value("target", "");
            run.tool = j.value("tool", "");
            run.sample = true;
            run.environment = j.value("environment", nlohmann::json::object());
            run.tuning = j.value("tuning", nlohmann::json::object());
            ScenarioRecord s;
            s.name = j.at("scenario").get<std::string>();
            s.kind = j.value("kind", "");
            if (j.contains("topology"))
                s.topology = Topology::fromJson(j.at("topology"));
            for (const auto &[name, value] : j.at("metrics").items())
                s.metrics.push_back({name, value.get<double>()});
            run.scenarios.push_back(std::move(s));
        }
    }
    std::vector<RunRecord> out;
    for (auto &[key, run] : runs)
        out.push_back(std::move(run));
    EXPECT_GE(out.size(), 5u) << "sample runs not found under " << dir;
    return out;
}

} // namespace plimsoll::test
