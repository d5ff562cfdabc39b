#include "app/cli.h"
#include "app/command.h"
#include "app/optiondomain.h"
#include "model/store/connection.h"

#include "runner/librdkafkainfo.h"

#include <plimsoll/version.h>

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <libpq-fe.h>
#include <sqlite3.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <sys/stat.h>
#include <iostream>

namespace plimsoll {

// The command families, each in app/<family>commands.cpp. One line each.
void addStoreCommands(CLI::App &, Commands &);
void addBenchCommands(CLI::App &, Commands &);
void addFitCommands(CLI::App &, Commands &);
void addSizingCommands(CLI::App &, Commands &);
void addTrendCommands(CLI::App &, Commands &);
void addReportCommands(CLI::App &, Commands &);
void addSavedSizingCommands(CLI::App &, Commands &);
void addLabelCommands(CLI::App &, Commands &);

namespace {

using AddCommands = void (*)(CLI::App &, Commands &);
const AddCommands kCommandFamilies[] = {
    addStoreCommands,
    addLabelCommands,
    addBenchCommands,
    addFitCommands,
    addSizingCommands,
    addSavedSizingCommands,
    addTrendCommands,
    addReportCommands,
};

std::string versionText()
{
    return std::string("plimsoll ") + kVersion + " (Qt " + qVersion() + ", SQLite " +
           sqlite3_libversion() + ", libpq " + std::to_string(PQlibVersion() / 10000) + "." +
           std::to_string(PQlibVersion() % 10000) + ", librdkafka " + librdkafkaVersion() + ")";
}

} // namespace

void printError(const std::string &message) { std::cerr << "plimsoll: " << message << "\n"; }

std::unique_ptr<Store> CliContext::openStore() const
{
    try {
        if (!sql::isPostgresUri(storePath))
            QDir().mkpath(QFileInfo(QString::fromStdString(storePath)).absolutePath());
        return std::make_unique<Store>(storePath);
    } catch (const StoreError &e) {
        printError(e.what());
        return nullptr;
    }
}

std::unique_ptr<Store> CliContext::openExistingStore() const
{
    // A team store is always there to connect to: the server says what is wrong, if anything.
    // A file that cannot be looked at (a directory on its path this user may not enter) is
    // not a missing one: say why.
    struct stat st;
    if (!sql::isPostgresUri(storePath) && ::stat(storePath.c_str(), &st) != 0 && errno != ENOENT &&
        errno != ENOTDIR) {
        printError("cannot open store " + storePath + ": " + std::strerror(errno) +
                   " (a directory on its path cannot be entered by this user; check its permissions)");
        return nullptr;
    }
    if (!sql::isPostgresUri(storePath) && !QFileInfo::exists(QString::fromStdString(storePath))) {
        printError("no store at " + storePath +
                   (defaultStore ? " yet: import results first (`plimsoll import PATH`) or add the "
                                   "sample runs (`plimsoll samples install`)"
                                 : ": check --db (or PLIMSOLL_DB); `plimsoll import` creates a store"));
        return nullptr;
    }
    try {
        return std::make_unique<Store>(storePath);
    } catch (const StoreError &e) {
        printError(e.what());
        return nullptr;
    }
}

const Commands::Action *Commands::chosen() const
{
    for (const auto &e : m_entries)
        if (e.subcommand->parsed())
            return &e.action;
    return nullptr;
}

std::string defaultStorePath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(dir).filePath(QStringLiteral("plimsoll.db")).toStdString();
}

CliOutcome runCli(int argc, char **argv)
{
    CliOutcome out;
    CLI::App app{"Plimsoll: capacity planner and benchmark dashboard for Kafka-compatible "
                 "streaming on Redis.\nWith no subcommand, opens the window.",
                 "plimsoll"};
    app.set_version_flag("--version", versionText());
    std::string db;
    auto *dbOption = app.add_option("--db", db,
                   "Store: a file (default: the user's data directory), or a team store's "
                   "PostgreSQL URI, postgresql://USER@HOST:PORT/DB?sslmode=verify-full "
                   "(passwords from ~/.pgpass, PGPASSFILE, PGPASSWORD or a service file)")
        ->envname("PLIMSOLL_DB");
    app.require_subcommand(0, 1);
    // Every subcommand takes --db after its name too: options it does not know fall through
    // to here (subcommands inherit the setting).
    app.fallthrough();
    app.failure_message([](const CLI::App *, const CLI::Error &e) {
        return "plimsoll: " + usageMessage(e) + "\nRun with --help for more information.\n";
    });
    Commands commands;
    for (AddCommands add : kCommandFamilies)
        add(app, commands);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        out.exitCode = app.exit(e);
        if (out.exitCode != 0)
            out.exitCode = kExitUsage;
        return out;
    }
    // An empty --db or PLIMSOLL_DB is a mistake (a CI line with an unset variable), never a
    // request for the personal store: that one is chosen by giving neither.
    const char *envDb = std::getenv("PLIMSOLL_DB");
    if (db.empty() && (dbOption->count() > 0 || (envDb && !*envDb))) {
        printError(std::string("the store path is empty (") +
                   (dbOption->count() > 0 ? "--db ''" : "PLIMSOLL_DB is set but empty") +
                   "): name a store file or a postgresql:// URI with --db or PLIMSOLL_DB, or give "
                   "neither (and unset PLIMSOLL_DB) for the personal store at " + defaultStorePath());
        out.exitCode = kExitUsage;
        return out;
    }
    out.defaultStore = db.empty();
    out.storePath = db.empty() ? defaultStorePath() : db;
    if (const auto *action = commands.chosen())
        out.exitCode = (*action)(CliContext{out.storePath, out.defaultStore});
    else
        out.window = true;
    return out;
}

} // namespace plimsoll
