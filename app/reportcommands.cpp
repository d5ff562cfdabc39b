// plimsoll report: the sizing report for the same inputs as `plimsoll size`, as PDF, HTML or
// Markdown. Markdown needs no GUI; PDF and HTML draw the window's charts, so main() gives this
// command a QApplication on the offscreen platform.
#include "app/command.h"
#include "app/sizingoptions.h"
#include "export/filewriter.h"

#include "model/report/reportdata.h"
#include "model/report/reportdocument.h"
#include "model/report/reportmarkdown.h"
#include "ui/charts/reportrenderer.h"

#include <plimsoll/version.h>

#include <QApplication>
#include <QFileInfo>

#include <iostream>

namespace plimsoll {

namespace {

struct ReportArgs
{
    SizeArgs sizing;
    std::string format, out;
};

// The format named, else the one the file name ends in; empty when neither says.
std::string reportFormat(const ReportArgs &a)
{
    if (!a.format.empty())
        return a.format == "markdown" ? "md" : a.format;
    const std::string suffix = QFileInfo(QString::fromStdString(a.out)).suffix().toLower().toStdString();
    if (suffix == "pdf" || suffix == "html" || suffix == "md")
        return suffix;
    if (suffix == "htm")
        return "html";
    return {};
}

// Writes all or nothing: a half-written report never replaces a good one.
bool writeFile(const std::string &path, const QByteArray &bytes)
{
    const std::string error = writeFileWhole(path, std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (!error.empty())
        printError(error);
    return error.empty();
}

int runReport(const CliContext &c, const ReportArgs &a)
{
    const std::string format = reportFormat(a);
    if (format.empty()) {
        printError("--format pdf|html|md is needed (the file name " + a.out + " does not say)");
        return kExitUsage;
    }
    std::string error;
    const auto parsed = parseSizingArgs(a.sizing, &error);
    if (!parsed) {
        printError(error);
        return kExitUsage;
    }
    if (format != "md" && !qobject_cast<QApplication *>(QCoreApplication::instance())) {
        printError("PDF and HTML reports draw charts and need a GUI application object");
        return kExitFailure;
    }
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    ReportRequest request;
    request.inputs = parsed->inputs;
    request.options = parsed->options;
    request.evidence = parsed->evidence;
    ReportData data;
    try {
        data = collectReport(*store, request, kVersion);
    } catch (const StoreError &e) {
        printError(std::string(e.what()) + " (see `plimsoll runs`)");
        return kExitFailure;
    }
    if (!data.ok) {
        printError(data.error);
        return kExitFailure;
    }
    const ReportDocument doc = composeReport(data, reportTimestamp());
    QByteArray bytes;
    if (format == "md") {
        const std::string md = renderMarkdown(doc, data);
        bytes = QByteArray(md.data(), qsizetype(md.size()));
    } else if (format == "html") {
        bytes = renderReportHtml(doc, data);
    } else {
        bytes = renderReportPdf(doc, data);
    }
    if (!writeFile(a.out, bytes))
        return kExitFailure;
    auto count = [](int64_t n, const char *one, const char *many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    std::cout << "wrote " << a.out << " (" << format << ", " << bytes.size() << " bytes): "
              << count(data.sizing.brokers, "broker", "brokers") << ", "
              << count(data.sizing.redisNodes, "Redis node", "Redis nodes") << ", "
              << count(data.sizing.shards, "shard", "shards") << ", "
              << count(data.sizing.partitions, "partition", "partitions") << "\n";
    return kExitOk;
}

} // namespace

void addReportCommands(CLI::App &app, Commands &commands)
{
    auto args = std::make_shared<ReportArgs>();
    auto *cmd = app.add_subcommand("report", "Write the sizing report (PDF, HTML or Markdown) "
                                             "for the inputs `plimsoll size` takes");
    cmd->add_option("--format", args->format, "pdf, html or md (default: from --out's suffix)")
        ->check(CLI::IsMember({"pdf", "html", "md", "markdown"}));
    cmd->add_option("--out", args->out, "The report file")->required();
    addSizingOptions(cmd, args->sizing);
    commands.add(cmd, [args](const CliContext &c) { return runReport(c, *args); });
}

} // namespace plimsoll
