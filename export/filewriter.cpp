#include "export/filewriter.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <cstring>
#include <iostream>

#include <unistd.h>

namespace plimsoll {

namespace {

// The system's word for why `f` failed (errno of the failing call when Qt has none of its own).
std::string reasonOf(const QFileDevice &f, int err)
{
    std::string reason = f.errorString().toStdString();
    if ((reason.empty() || reason == "Unknown error") && err != 0)
        reason = std::strerror(err);
    return reason.empty() ? "the write stopped short" : reason;
}

// Every byte or false (with errno of the failing write in *err). A short write is tried again
// for the rest, so the call that cannot continue reports why (EFBIG, ENOSPC).
bool writeAll(QFileDevice &f, std::string_view bytes, int *err)
{
    const char *p = bytes.data();
    qint64 left = qint64(bytes.size());
    while (left > 0) {
        errno = 0;
        const qint64 n = f.write(p, left);
        if (n <= 0) {
            *err = errno;
            return false;
        }
        p += n;
        left -= n;
    }
    return true;
}

std::string writeInPlace(const std::string &path, std::string_view bytes)
{
    QFile f(QString::fromStdString(path));
    int err = 0;
    errno = 0;
    if (!f.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return "cannot write " + path + ": " + reasonOf(f, errno);
    if (!writeAll(f, bytes, &err))
        return "cannot write " + path + ": " + reasonOf(f, err);
    f.close();
    if (f.error() != QFileDevice::NoError)
        return "cannot write " + path + ": " + reasonOf(f, errno);
    return {};
}

} // namespace

std::string writeFileWhole(const std::string &path, std::string_view bytes)
{
    const QString name = QString::fromStdString(path);
    const QFileInfo info(name);
    if (info.exists() && !info.isFile() && !info.isDir())
        return writeInPlace(path, bytes);
    const std::string left = "; nothing was written (a file already there is left as it was)";
    QSaveFile f(name);
    int err = 0;
    errno = 0;
    // Unbuffered: every write reaches the file at once, so its failure is seen here.
    if (!f.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return "cannot write " + path + ": " + reasonOf(f, errno);
    // Returning without commit(): the temporary file is removed when `f` goes.
    if (!writeAll(f, bytes, &err))
        return "cannot write " + path + ": " + reasonOf(f, err) + left;
    // A file system that allocates late (NFS, delayed allocation) reports a full disk here.
    if (::fsync(f.handle()) != 0 && errno != EINVAL && errno != EROFS) {
        err = errno;
        return "cannot write " + path + ": " + std::strerror(err) + left;
    }
    errno = 0;
    if (!f.commit())
        return "cannot write " + path + ": " + reasonOf(f, errno) + left;
    return {};
}

std::string writeStandardOutput(std::string_view bytes)
{
    std::cout.flush();
    if (!std::cout)
        return "cannot write to standard output: " + std::string(std::strerror(errno ? errno : EIO));
    const char *p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(STDOUT_FILENO, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return "cannot write to standard output: " + std::string(std::strerror(n < 0 ? errno : EIO));
        p += n;
        left -= std::size_t(n);
    }
    return {};
}

} // namespace plimsoll
