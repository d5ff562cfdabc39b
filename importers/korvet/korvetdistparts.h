#pragma once
// The two readers behind korvetDistImporter(), one per kind of file the script writes.
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

// "301.77 MB", "1.2 GB", "1024 bytes" -> bytes: the unit the value states (B, bytes, KB, MB,
// GB, TB and their KiB… forms, all 1024-based as the script's bc arithmetic is; a bare number
// is `bareUnit`). nullopt when the number or the unit is not one of those.
std::optional<double> korvetDistBytes(std::string_view text, double bareUnit);

// A per-test result file (producers-<N>_batch-<B>msg_pool-<P>.txt): korvetdistresult.cpp.
void readKorvetDistResult(const std::vector<TextLine> &lines, RunRecord &run,
                          std::vector<ImportWarning> &warnings);
// SUMMARY.txt, one row per test: korvetdistsummary.cpp.
void readKorvetDistSummary(const std::vector<TextLine> &lines, RunRecord &run,
                           std::vector<ImportWarning> &warnings);

} // namespace plimsoll
