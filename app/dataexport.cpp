#include "app/dataexport.h"

#include "app/clioutput.h"
#include "app/optiondomain.h"
#include "export/filewriter.h"
#include "export/runexport.h"

#include <iostream>

namespace plimsoll {

namespace {

// Written whole or not at all; "-" is standard output, its every write checked.
bool writeOut(const std::string &path, const std::string &text)
{
    const std::string error = path == "-" ? writeStandardOutput(text) : writeFileWhole(path, text);
    if (!error.empty())
        printError(error);
    return error.empty();
}

} // namespace

std::shared_ptr<ExportRequest> addDataExportOptions(CLI::App *exp)
{
    auto request = std::make_shared<ExportRequest>();
    exp->add_option("--run", request->runs, "csv/json/jsonl/hlog: only these runs (id or key, repeatable); steps: the one run");
    exp->add_option("--since", request->since, "csv/json/jsonl/hlog: only runs at or after this ISO-8601 time or date")
        ->transform(isoTime("--since"));
    return request;
}

int runDataExport(const CliContext &c, const ExportRequest &request, const std::string &out)
{
    if (const std::string problem = exportRequestProblem(request); !problem.empty()) {
        printError(problem);
        return kExitUsage;
    }
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    ExportResult result;
    try {
        result = exportRuns(*store, request);
    } catch (const std::exception &e) {
        printError(e.what());
        return kExitFailure;
    }
    if (!writeOut(out, result.text))
        return kExitFailure;
    std::cerr << "exported " << result.runs << (result.runs == 1 ? " run" : " runs") << " as " << request.format;
    if (request.format == "hlog")
        std::cerr << ": " << result.histograms << " histograms rebuilt from stored percentiles (the "
                     "store keeps no raw histograms)";
    std::cerr << (out == "-" ? "" : " to " + out);
    if (result.runs == 0) {
        // Said apart from an empty store: the filter is what to change.
        try {
            if (const int64_t held = store->runCount(); held > 0)
                std::cerr << " (no run matches the filter; the store holds " << held
                          << (held == 1 ? " run" : " runs") << ")";
            else
                std::cerr << " (the store holds no runs)";
        } catch (const StoreError &) {
        }
    }
    std::cerr << "\n";
    return kExitOk;
}

} // namespace plimsoll
