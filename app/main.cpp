// One binary: no subcommand opens the window; a subcommand runs headless with no display.

#include "app/cli.h"
#include "ui/windowentry.h"

#include <plimsoll/version.h>

#include <QApplication>
#include <QCoreApplication>
#include <QIcon>

#include <cstdio>
#include <cstring>

namespace {

// True when the arguments ask for something other than the window (a subcommand, --help,
// --version). Only --db PATH may accompany the window.
bool wantsHeadless(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--db") == 0) {
            ++i;
            continue;
        }
        if (std::strncmp(argv[i], "--db=", 5) == 0)
            continue;
        return true;
    }
    return false;
}

// `plimsoll report` draws the window's charts, which needs a QApplication: it gets one on the
// offscreen platform, so it needs no display and lays out alike everywhere. Options before the
// subcommand are only --db PATH, --help and --version.
bool wantsCharts(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--db") == 0) {
            ++i;
            continue;
        }
        if (argv[i][0] == '-')
            continue;
        return std::strcmp(argv[i], "report") == 0;
    }
    return false;
}

bool haveDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication::setApplicationName(QStringLiteral("plimsoll"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(plimsoll::kVersion));

    if (wantsHeadless(argc, argv) && wantsCharts(argc, argv)) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        return plimsoll::runCli(argc, argv).exitCode;
    }
    if (wantsHeadless(argc, argv)) {
        QCoreApplication app(argc, argv);
        return plimsoll::runCli(argc, argv).exitCode;
    }
    const plimsoll::CliOutcome parsed = plimsoll::runCli(argc, argv);
    if (!parsed.window)
        return parsed.exitCode;
    if (!haveDisplay()) {
        std::fprintf(stderr,
                     "plimsoll: no display to open the window on.\n"
                     "  Run it under a virtual display:  xvfb-run -a plimsoll\n"
                     "  or render off screen:            QT_QPA_PLATFORM=offscreen plimsoll\n"
                     "  Subcommands need no display:     plimsoll --help\n");
        return 2;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("Plimsoll"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/plimsoll.svg")));
    QGuiApplication::setDesktopFileName(QStringLiteral("dev.plimsoll.Plimsoll"));
    return plimsoll::runWindow(app, QString::fromStdString(parsed.storePath), parsed.defaultStore);
}
