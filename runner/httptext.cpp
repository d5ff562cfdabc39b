#include "runner/httptext.h"

#include <curl/curl.h>

namespace plimsoll {

std::size_t appendCappedBody(char *data, std::size_t size, std::size_t count, void *out)
{
    auto *text = static_cast<std::string *>(out);
    if (text->size() + size * count > (std::size_t(64) << 20))
        return 0;
    text->append(data, size * count);
    return size * count;
}

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
    HttpGetResult out;
    CURL *curl = curl_easy_init();
    if (!curl) {
        out.error = "libcurl could not start";
        return out;
    }
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L); // called off the main thread
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout.count()));
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, appendCappedBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out.body);
    curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, options.verifyTls ? 1L : 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, options.verifyTls ? 2L : 0L);
    if (!options.user.empty() || !options.password.empty()) {
        curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
        curl_easy_setopt(curl, CURLOPT_USERNAME, options.user.c_str());
        curl_easy_setopt(curl, CURLOPT_PASSWORD, options.password.c_str());
    }
    struct curl_slist *headers = nullptr;
    for (const std::string &h : options.headers)
        headers = curl_slist_append(headers, h.c_str());
    if (headers)
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    const CURLcode rc = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    if (rc != CURLE_OK)
        out.error = curl_easy_strerror(rc);
    return out;
}

} // namespace plimsoll
