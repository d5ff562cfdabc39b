#include "runner/recollector.h"
#include "runner/httptext.h"

#include "runner/clientproperties.h"

#include <curl/curl.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>

namespace plimsoll {

namespace {

std::string env(const char *name)
{
    const char *value = std::getenv(name);
    return value ? value : "";
}

std::optional<double> number(const nlohmann::json &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number())
        return std::nullopt;
    const double v = it->get<double>();
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

} // namespace

ReCredentials reCredentials(const std::string &commandConfigPath, std::string *problem)
{
    ReCredentials c;
    c.user = env("PLIMSOLL_RE_USER");
    c.password = env("PLIMSOLL_RE_PASSWORD");
    c.verifyTls = env("PLIMSOLL_RE_INSECURE") != "1";
    if (!c.empty() || commandConfigPath.empty())
        return c;
    std::ifstream probe(commandConfigPath);
    if (!probe) {
        if (problem)
            *problem = commandConfigPath + ": cannot be read";
        return c;
    }
    const ClientProperties properties = ClientProperties::load(commandConfigPath);
    if (const auto *user = properties.find("plimsoll.re.user"))
        c.user = user->value;
    if (const auto *password = properties.find("plimsoll.re.password"))
        c.password = password->value;
    return c;
}

ReShardStats parseReShardStats(const std::string &text)
{
    ReShardStats stats;
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const std::exception &) {
        stats.error = "the reply is not JSON";
        return stats;
    }
    if (!doc.is_array()) {
        stats.error = std::string("the reply is ") + doc.type_name() + ", not an array of shards";
        return stats;
    }
    for (const auto &shard : doc) {
        if (!shard.is_object() || !shard.contains("intervals") || !shard["intervals"].is_array())
            continue;
        const auto uid = shard.find("uid");
        const std::string name = uid == shard.end() ? "?" : (uid->is_string() ? uid->get<std::string>() : uid->dump());
        double sum = 0;
        int count = 0;
        for (const auto &interval : shard["intervals"]) {
            if (!interval.is_object())
                continue;
            const auto user = number(interval, "shard_cpu_user"), system = number(interval, "shard_cpu_system");
            if (user && system) {
                sum += *user + *system;
                ++count;
            }
        }
        if (count > 0)
            stats.cpuByShard[name] = sum / count;
    }
    if (stats.cpuByShard.empty())
        stats.error = "no shard has shard_cpu_user and shard_cpu_system";
    return stats;
}

ReShardStats fetchReShardStats(const std::string &baseUrl, const ReCredentials &credentials,
                               std::chrono::milliseconds timeout, const std::string &stime, const std::string &etime)
{
    std::string url = baseUrl;
    while (!url.empty() && url.back() == '/')
        url.pop_back();
    url += "/v1/shards/stats?interval=1sec";
    if (!stime.empty())
        url += "&stime=" + stime;
    if (!etime.empty())
        url += "&etime=" + etime;
    ReShardStats stats;
    CURL *curl = curl_easy_init();
    if (!curl) {
        stats.error = urlWithoutUserInfo(baseUrl) + ": libcurl could not start";
        return stats;
    }
    std::string body;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L); // called off the main thread
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, appendCappedBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, credentials.verifyTls ? 1L : 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, credentials.verifyTls ? 2L : 0L);
    if (!credentials.empty()) {
        curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
        curl_easy_setopt(curl, CURLOPT_USERNAME, credentials.user.c_str());
        curl_easy_setopt(curl, CURLOPT_PASSWORD, credentials.password.c_str());
    }
    struct curl_slist *headers = curl_slist_append(nullptr, "Accept: application/json");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    const CURLcode rc = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    if (rc != CURLE_OK) {
        // curl's message for a 401 names the status only; no credential is ever in it.
        stats.error = urlWithoutUserInfo(baseUrl) + ": " + curl_easy_strerror(rc)
                      + (status == 401 ? " (401: set PLIMSOLL_RE_USER / PLIMSOLL_RE_PASSWORD)" : "");
        return stats;
    }
    stats = parseReShardStats(body);
    if (!stats.error.empty())
        stats.error = urlWithoutUserInfo(baseUrl) + "/v1/shards/stats: " + stats.error;
    return stats;
}

} // namespace plimsoll
