#pragma once
// plimsoll export --format csv|json|jsonl|hlog: the command's half of an export — its options
// and where the file goes. What is exported and how is export/runexport.h. Hooked into the
// `export` command that app/trendcommands.cpp defines (its otava-csv format stays there).

#include "app/command.h"
#include "export/runexport.h"

#include <memory>
#include <string>

namespace plimsoll {

// Adds --run and --since to the export command; the request they fill.
std::shared_ptr<ExportRequest> addDataExportOptions(CLI::App *exportCommand);
int runDataExport(const CliContext &context, const ExportRequest &request, const std::string &out);

} // namespace plimsoll
