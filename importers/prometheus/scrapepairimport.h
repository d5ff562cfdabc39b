#pragma once
// `plimsoll import --scrapes BEFORE AFTER` and the window's import of two chosen scrapes: the
// two files read, paired (importers/prometheus/scrapepair.h) and written as one source through
// ImportService, which commits it in one transaction like any other source.

#include "importers/importservice.h"
#include "importers/prometheus/scrapepair.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plimsoll {

// Reads a file for pairScrapes: ScrapeFile or a message without the file name.
std::optional<ScrapeFile> readScrapeFile(const std::string &path, std::string &error);

// Two files in scrape order for the window, where chosen files come in no particular order:
// by the times the scrapes state when both do, else by the files' modification times, else
// as given.
std::pair<std::string, std::string> scrapeOrder(const std::string &a, const std::string &b);

struct ScrapePairRequest
{
    std::string before; // path of the scrape taken first
    std::string after;  // path of the scrape taken last
    std::optional<double> intervalS;
    bool dryRun = false;
    bool sample = false;
};

struct ScrapePairReport
{
    SourceReport report; // one source: uri scrapePairUri(…), format "prometheus"
    std::vector<ScrapeSide> warningSides; // one per report.warnings
    ScrapeSide errorSide = ScrapeSide::Neither;
    std::string beforeUri, afterUri;
    std::string beforeName, afterName; // as given
    std::optional<double> intervalS;
    std::string intervalFrom;

    // SourceReport::toJson() plus "scrapes": [before uri, after uri], "interval_s",
    // "interval_from", and "file" (the uri of the file the line is in, or null) on each
    // warning and on the error.
    nlohmann::json toJson() const;
    // The file a warning (by index) or the error concerns, as the user gave it; empty for both.
    std::string fileOfWarning(size_t index) const;
    std::string fileOfError() const;
};

// Reads both files, pairs them and (unless a dry run) commits the run in one transaction.
// The same bytes imported before are "unchanged", with an "interval-differs" warning when
// the interval the store kept is not the one this import found.
ScrapePairReport importScrapePair(ImportService &service, const ScrapePairRequest &request,
                                  const Progress &progress = {});

} // namespace plimsoll
