#pragma once
// The Redis Enterprise REST collector of a ramp step (--re-api URL, repeatable): GET
// <URL>/v1/shards/stats, each shard's shard_cpu_user + shard_cpu_system averaged over the
// intervals the cluster reports inside the step's measured window → the hottest shard's CPU.
// The REST API documents both fields as "% cores utilization"; they arrive as a fraction of
// one core (0.35 for 35 %, as bdb_shard_cpu_user in its Prometheus form), which is the unit
// of shard_cpu_max here too.
//
// Credentials: HTTP basic auth from PLIMSOLL_RE_USER / PLIMSOLL_RE_PASSWORD, else from the
// --command-config file's plimsoll.re.user / plimsoll.re.password; never from the command
// line (where `ps` shows them) and never in a message. TLS verification is on unless the
// user turns it off explicitly.

#include <chrono>
#include <map>
#include <string>

namespace plimsoll {

struct ReCredentials
{
    std::string user;
    std::string password;
    bool verifyTls = true; // false only with PLIMSOLL_RE_INSECURE=1 (a lab's self-signed cert)
    bool empty() const { return user.empty() && password.empty(); }
};

// From the environment first, then the command-config file (empty path: none). `problem` is
// set when the file cannot be read; it never holds a value.
ReCredentials reCredentials(const std::string &commandConfigPath, std::string *problem = nullptr);

struct ReShardStats
{
    std::map<std::string, double> cpuByShard; // shard uid -> mean (user + system), fraction of a core
    std::string error;                        // empty when the request and the document are good
};

// Each shard's mean shard_cpu_user + shard_cpu_system over the intervals of a
// /v1/shards/stats reply. Shards without both fields are left out.
ReShardStats parseReShardStats(const std::string &json);

// GET <base>/v1/shards/stats?interval=1sec[&stime=…&etime=…] (ISO-8601 UTC; empty: the
// latest intervals), within `timeout`.
ReShardStats fetchReShardStats(const std::string &baseUrl, const ReCredentials &credentials,
                               std::chrono::milliseconds timeout, const std::string &stime = {},
                               const std::string &etime = {});

} // namespace plimsoll
