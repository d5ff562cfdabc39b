#pragma once
// The two readers behind KorvetDistImporter, one per kind of file the script writes.
// Both throw KorvetDistFailure with a positioned error.

#include "importers/importer.h"
#include "importers/textsource.h"

namespace plimsoll {

struct KorvetDistFailure
{
    ImportError error;
};

[[noreturn]] void korvetDistFail(const TextLine &line, std::string_view at, const std::string &field,
                                 const std::string &message);

// "Key: value" after optional indentation; empty when the line is not one.
std::pair<std::string, std::string> korvetDistKeyValue(std::string_view line);

// "372.02", "2.350000%", ".50" (bc drops the leading zero), "7812.50 MB" -> the leading number.
std::optional<double> korvetDistNumber(std::string_view text);

void readKorvetDistTest(const std::vector<TextLine> &lines, RunRecord &run,
                        std::vector<ImportWarning> &warnings);
void readKorvetDistSummary(const std::vector<TextLine> &lines, RunRecord &run,
                           std::vector<ImportWarning> &warnings);

} // namespace plimsoll
