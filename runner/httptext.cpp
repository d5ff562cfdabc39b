#include "runner/httptext.h"

#include "net/httptransfer.h"

namespace plimsoll {

std::string urlWithoutUserInfo(const std::string &url)
{
    const auto scheme = url.find("://");
    if (scheme == std::string::npos)
        return url;
    const auto hostEnd = url.find_first_of("/?#", scheme + 3);
    const auto at = url.rfind('@', hostEnd == std::string::npos ? url.size() : hostEnd);
    if (at == std::string::npos || at < scheme + 3)
        return url;
    return url.substr(0, scheme + 3) + "***@" + url.substr(at + 1);
}

HttpGetResult httpGet(const std::string &url, const HttpGetOptions &options)
{
    HttpTransferOptions transfer;
    transfer.timeout = options.timeout;
    transfer.verifyTls = options.verifyTls;
    transfer.maxBytes = int64_t(kMaxCollectorBodyBytes);
    transfer.failOnHttpError = true;
    transfer.user = options.user;
    transfer.password = options.password;
    transfer.headers = options.headers;
    HttpGetResult out;
    const HttpTransferResult r = httpTransfer(
        url, transfer, [&](const char *data, std::size_t size) { out.body.append(data, size); });
    out.status = r.status;
    out.error = r.error;
    return out;
}

} // namespace plimsoll
