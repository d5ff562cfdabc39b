#include "runner/recollector.h"
#include "runner/httptext.h"

#include "runner/clientproperties.h"


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
    HttpGetOptions get;
    get.timeout = timeout;
    get.verifyTls = credentials.verifyTls;
    get.user = credentials.user;
    get.password = credentials.password;
    get.headers = {"Accept: application/json"};
    const HttpGetResult response = httpGet(url, get);
    if (!response.error.empty()) {
        // curl's message for a 401 names the status only; no credential is ever in it.
        stats.error = urlWithoutUserInfo(baseUrl) + ": " + response.error
                      + (response.status == 401 ? " (401: set PLIMSOLL_RE_USER / PLIMSOLL_RE_PASSWORD)" : "");
        return stats;
    }
    const std::string &body = response.body;
    stats = parseReShardStats(body);
    if (!stats.error.empty())
        stats.error = urlWithoutUserInfo(baseUrl) + "/v1/shards/stats: " + stats.error;
    return stats;
}

} // namespace plimsoll
