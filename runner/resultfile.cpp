#include "runner/resultfile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <string>
#include <unistd.h>

namespace plimsoll {

namespace {

std::string failure(const std::string &what, const std::string &path)
{
    return what + " " + path + ": " + std::strerror(errno);
}

} // namespace

std::string writeFileAtomically(const std::string &path, const std::string &bytes)
{
    const auto slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    std::string temp = path + ".tmp-XXXXXX";
    const int fd = mkstemp(temp.data());
    if (fd < 0)
        return failure("cannot create a temporary file beside", path);
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const std::string message = failure("cannot write", temp);
            ::close(fd);
            ::unlink(temp.c_str());
            return message;
        }
        written += static_cast<std::size_t>(n);
    }
    // Durable before it becomes visible under the final name.
    if (::fsync(fd) != 0 || ::fchmod(fd, 0644) != 0) {
        const std::string message = failure("cannot sync", temp);
        ::close(fd);
        ::unlink(temp.c_str());
        return message;
    }
    ::close(fd);
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const std::string message = failure("cannot rename the temporary file to", path);
        ::unlink(temp.c_str());
        return message;
    }
    if (const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY); dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    return {};
}

} // namespace plimsoll
