#pragma once
// Helpers shared by the reliability and security suites: running the real `plimsoll`
// binary with a deadline, measuring its peak memory, and searching what it wrote.

#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace plimsoll::test {

struct CliRun
{
    int exitCode = -1;
    bool crashed = false;  // killed by a signal (a crash, or our deadline)
    bool timedOut = false; // still running at the deadline
    std::string out, err;
    double seconds = 0;
    long peakRssKb = 0; // of the plimsoll process itself
};

// Runs plimsoll in a fork of our own (not QProcess) so that wait4() gives this child's peak
// resident set alone: RUSAGE_CHILDREN would mix in every earlier child of the test.
inline CliRun runPlimsoll(const QStringList &args, int timeoutS = 120,
                          const std::vector<std::string> &extraEnv = {})
{
    CliRun r;
    char outName[] = "/tmp/plimsoll-sec-outXXXXXX";
    char errName[] = "/tmp/plimsoll-sec-errXXXXXX";
    const int outFd = mkstemp(outName);
    const int errFd = mkstemp(errName);
    std::vector<std::string> argv{PLIMSOLL_BINARY};
    for (const QString &a : args)
        argv.push_back(a.toStdString());
    QElapsedTimer timer;
    timer.start();
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(outFd, 1);
        dup2(errFd, 2);
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
        for (const std::string &kv : extraEnv)
            putenv(const_cast<char *>(kv.c_str()));
        std::vector<char *> cargv;
        for (std::string &a : argv)
            cargv.push_back(a.data());
        cargv.push_back(nullptr);
        execv(cargv[0], cargv.data());
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    for (;;) {
        const pid_t done = wait4(pid, &status, WNOHANG, &usage);
        if (done == pid)
            break;
        if (timer.elapsed() > timeoutS * 1000) {
            r.timedOut = true;
            kill(pid, SIGKILL);
            wait4(pid, &status, 0, &usage);
            break;
        }
        usleep(20000);
    }
    r.seconds = timer.elapsed() / 1000.0;
    r.peakRssKb = usage.ru_maxrss;
    if (WIFEXITED(status))
        r.exitCode = WEXITSTATUS(status);
    else
        r.crashed = true;
    auto slurp = [](const char *name) {
        QFile f(name);
        f.open(QIODevice::ReadOnly);
        const QByteArray bytes = f.readAll();
        QFile::remove(name);
        return bytes.toStdString();
    };
    close(outFd);
    close(errFd);
    r.out = slurp(outName);
    r.err = slurp(errName);
    return r;
}

// A secret no file, tool or test would write by chance: fresh for every test process.
inline std::string makeCanary()
{
    std::random_device rd;
    return "PlimsollCanary" + std::to_string(rd()) + "x" + std::to_string(rd());
}

// Every file under `dir` (recursively, hidden ones too) whose bytes hold `needle`.
inline std::vector<std::string> filesContaining(const QString &dir, const std::string &needle)
{
    std::vector<std::string> hits;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    const QByteArray n = QByteArray::fromStdString(needle);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly) && f.readAll().contains(n))
            hits.push_back(f.fileName().toStdString());
    }
    return hits;
}

// A loopback port nothing listens on now (bound to port 0, then released).
inline int freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

inline bool portAccepts(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(uint16_t(port));
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
}

inline bool writeText(const QString &path, const std::string &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.data(), qint64(text.size())) == qint64(text.size());
}

} // namespace plimsoll::test
