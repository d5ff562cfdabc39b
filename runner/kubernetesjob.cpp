#include "runner/kubernetesjob.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace plimsoll {
namespace {

using Json = nlohmann::ordered_json; // keys in the order written: apiVersion, kind, metadata, spec

constexpr std::size_t kMaxLabel = 63;
// Each pod of an Indexed Job is named and hostnamed "<job>-<index>", itself a DNS label: room is
// left for "-999", the highest index of the largest fleet.
constexpr std::size_t kMaxJobName = kMaxLabel - 4;
// Where the Job controller writes each pod's index; JOB_COMPLETION_INDEX is read from it.
constexpr const char *kIndexField = "metadata.annotations['batch.kubernetes.io/job-completion-index']";
constexpr std::size_t kMaxSubdomain = 253;

const char *const kDns1123LabelRule =
    "a DNS-1123 label: at most 63 lowercase letters, digits and '-', beginning and ending with a "
    "letter or digit";
const char *const kDns1123SubdomainRule =
    "a DNS-1123 subdomain: at most 253 lowercase letters, digits, '-' and '.', each part between "
    "dots beginning and ending with a letter or digit";
const char *const kLabelValueRule =
    "a label value: at most 63 letters, digits, '-', '_' and '.', beginning and ending with a "
    "letter or digit";
const char *const kLabelKeyRule =
    "a label key: a name of at most 63 letters, digits, '-', '_' and '.' beginning and ending with "
    "a letter or digit, after an optional DNS subdomain prefix and '/' (kubernetes.io/arch)";

bool isLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool isAlnum(char c) { return isLowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

bool isDns1123Label(std::string_view s)
{
    if (s.empty() || s.size() > kMaxLabel || !isLowerAlnum(s.front()) || !isLowerAlnum(s.back()))
        return false;
    for (char c : s)
        if (!isLowerAlnum(c) && c != '-')
            return false;
    return true;
}

bool isDns1123Subdomain(std::string_view s)
{
    if (s.empty() || s.size() > kMaxSubdomain)
        return false;
    for (std::size_t start = 0;;) {
        const std::size_t dot = s.find('.', start);
        const std::string_view part = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
        if (!isDns1123Label(part))
            return false;
        if (dot == std::string_view::npos)
            return true;
        start = dot + 1;
    }
}

// Label values, and the name part of label keys when `allowEmpty` is false.
bool isLabelValue(std::string_view s, bool allowEmpty = true)
{
    if (s.empty())
        return allowEmpty;
    if (s.size() > kMaxLabel || !isAlnum(s.front()) || !isAlnum(s.back()))
        return false;
    for (char c : s)
        if (!isAlnum(c) && c != '-' && c != '_' && c != '.')
            return false;
    return true;
}

bool isLabelKey(std::string_view s)
{
    const std::size_t slash = s.find('/');
    if (slash == std::string_view::npos)
        return isLabelValue(s, false);
    return isDns1123Subdomain(s.substr(0, slash)) && isLabelValue(s.substr(slash + 1), false);
}

// A Secret's data key, which becomes a file name in the mounted volume.
bool isSecretKey(std::string_view s)
{
    if (s.empty() || s.size() > kMaxSubdomain || s == "." || s.substr(0, 2) == "..")
        return false;
    for (char c : s)
        if (!isAlnum(c) && c != '-' && c != '_' && c != '.')
            return false;
    return true;
}

std::string inQuotes(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string mustBe(std::string_view field, const char *rule, std::string_view got)
{
    return std::string(field) + " must be " + rule + " (got " + inQuotes(got) + ")";
}

std::uint32_t fnv1a(std::string_view s)
{
    std::uint32_t h = 2166136261u;
    for (unsigned char c : s) {
        h ^= c;
        h *= 16777619u;
    }
    return h;
}

// The kubelet expands $(VAR) in args and reads "$$" as "$": doubling every "$" passes an
// argument through unchanged.
std::string escapeExpansion(const std::string &arg)
{
    std::string out;
    out.reserve(arg.size());
    for (char c : arg) {
        out += c;
        if (c == '$')
            out += '$';
    }
    return out;
}

// "" when fine. `kind` is "cpu" or "memory", `which` "request" or "limit".
std::string checkQuantity(const std::string &text, const char *kind, const char *which, double *value)
{
    if (text.empty() || parseKubernetesQuantity(text, value))
        return {};
    return std::string(kind) + " " + which +
           " must be a Kubernetes quantity: a number of 0 or more with an optional suffix, as in "
           "500m, 2 or 1.5 for cpu and 512Mi, 4Gi or 1G for memory (got " +
           inQuotes(text) + ")";
}

std::string checkResources(const KubernetesJobSpec &spec)
{
    struct Pair
    {
        const char *kind;
        const std::string &request, &limit;
    };
    for (const Pair &p : {Pair{"cpu", spec.cpuRequest, spec.cpuLimit},
                          Pair{"memory", spec.memoryRequest, spec.memoryLimit}}) {
        double request = 0, limit = 0;
        if (auto e = checkQuantity(p.request, p.kind, "request", &request); !e.empty())
            return e;
        if (auto e = checkQuantity(p.limit, p.kind, "limit", &limit); !e.empty())
            return e;
        // The API server refuses a pod whose request exceeds its limit.
        if (!p.request.empty() && !p.limit.empty() && request > limit)
            return std::string(p.kind) + " request (" + p.request + ") must not be above the " + p.kind +
                   " limit (" + p.limit + ")";
    }
    return {};
}

std::string checkSpec(const KubernetesJobSpec &spec)
{
    if (auto e = KubernetesJobSpec::kAgents.check("agents", spec.agents))
        return *e;
    if (auto e = KubernetesJobSpec::kTtlSecondsAfterFinished.check("ttl after finished", spec.ttlSecondsAfterFinished))
        return *e;
    if (!spec.nameSpace.empty() && !isDns1123Label(spec.nameSpace))
        return mustBe("namespace", kDns1123LabelRule, spec.nameSpace);
    if (spec.image.empty())
        return "image must be named: an image with plimsoll on its PATH (built from packaging/Containerfile)";
    if (spec.image.find_first_of(" \t\r\n") != std::string::npos)
        return "image must be one image reference, without spaces (got " + inQuotes(spec.image) + ")";
    if (spec.agentArgs.empty())
        return "agent arguments must not be empty: they are the agent's plimsoll command line";
    if (spec.indexOption.size() < 2 || spec.indexOption.front() != '-' ||
        spec.indexOption.find_first_of("=$ ") != std::string::npos)
        return "index option must be an option name such as --agent-index (got " + inQuotes(spec.indexOption) + ")";
    if (!spec.clientPropertiesSecret.empty()) {
        if (!isDns1123Subdomain(spec.clientPropertiesSecret))
            return mustBe("client-properties secret", kDns1123SubdomainRule, spec.clientPropertiesSecret);
        if (!isSecretKey(spec.clientPropertiesKey))
            return "client-properties key must be a Secret key: letters, digits, '-', '_' and '.', not "
                   "beginning with '..' (got " +
                   inQuotes(spec.clientPropertiesKey) + ")";
        if (spec.clientPropertiesOption.size() < 2 || spec.clientPropertiesOption.front() != '-')
            return "client-properties option must be an option name such as --command-config (got " +
                   inQuotes(spec.clientPropertiesOption) + ")";
    }
    if (!spec.serviceAccount.empty() && !isDns1123Subdomain(spec.serviceAccount))
        return mustBe("service account", kDns1123SubdomainRule, spec.serviceAccount);
    for (const auto &[key, value] : spec.nodeSelector) {
        if (!isLabelKey(key))
            return mustBe("node selector key", kLabelKeyRule, key);
        if (!isLabelValue(value))
            return mustBe("node selector value of " + inQuotes(key), kLabelValueRule, value);
    }
    return checkResources(spec);
}

Json resourcesJson(const KubernetesJobSpec &spec)
{
    Json resources = Json::object();
    const auto add = [&](const char *list, const char *name, const std::string &quantity) {
        if (!quantity.empty())
            resources[list][name] = quantity;
    };
    add("requests", "cpu", spec.cpuRequest);
    add("requests", "memory", spec.memoryRequest);
    add("limits", "cpu", spec.cpuLimit);
    add("limits", "memory", spec.memoryLimit);
    return resources;
}

Json containerJson(const KubernetesJobSpec &spec)
{
    Json args = Json::array();
    for (const std::string &arg : spec.agentArgs)
        args.push_back(escapeExpansion(arg));
    args.push_back(spec.indexOption + "=$(JOB_COMPLETION_INDEX)");
    const std::string propertiesFile =
        std::string(KubernetesJobSpec::kClientPropertiesDir) + "/" + spec.clientPropertiesKey;
    if (!spec.clientPropertiesSecret.empty()) {
        args.push_back(spec.clientPropertiesOption);
        args.push_back(propertiesFile);
    }

    Json container = {
        {"name", KubernetesJobSpec::kContainerName},
        {"image", spec.image},
        {"command", Json::array({"plimsoll"})},
        {"args", args},
        // The Job controller sets this variable on Indexed Jobs' pods too; stating it here keeps
        // the $(JOB_COMPLETION_INDEX) of the arguments from depending on that.
        {"env", Json::array({{{"name", "JOB_COMPLETION_INDEX"},
                              {"valueFrom", {{"fieldRef", {{"fieldPath", kIndexField}}}}}}})},
        {"securityContext",
         {{"allowPrivilegeEscalation", false}, {"capabilities", {{"drop", Json::array({"ALL"})}}}}},
    };
    if (Json resources = resourcesJson(spec); !resources.empty())
        container["resources"] = std::move(resources);
    if (!spec.clientPropertiesSecret.empty())
        container["volumeMounts"] = Json::array({{{"name", "client-properties"},
                                                  {"mountPath", KubernetesJobSpec::kClientPropertiesDir},
                                                  {"readOnly", true}}});
    return container;
}

Json podSpecJson(const KubernetesJobSpec &spec)
{
    const int id = KubernetesJobSpec::kAgentUid;
    Json pod = {
        {"restartPolicy", "Never"},
        {"securityContext", {{"runAsNonRoot", true}, {"runAsUser", id}, {"runAsGroup", id}, {"fsGroup", id}}},
    };
    if (!spec.serviceAccount.empty())
        pod["serviceAccountName"] = spec.serviceAccount;
    else
        pod["automountServiceAccountToken"] = false; // an agent has no use for the API
    if (!spec.nodeSelector.empty())
        pod["nodeSelector"] = Json(spec.nodeSelector);
    pod["containers"] = Json::array({containerJson(spec)});
    if (!spec.clientPropertiesSecret.empty()) {
        // Readable by the agent's group only (fsGroup); only the one key is projected, so a
        // Secret missing it keeps the pod from starting instead of handing the agent no file.
        pod["volumes"] = Json::array({{{"name", "client-properties"},
                                       {"secret",
                                        {{"secretName", spec.clientPropertiesSecret},
                                         {"defaultMode", 0440},
                                         {"items", Json::array({{{"key", spec.clientPropertiesKey},
                                                                 {"path", spec.clientPropertiesKey}}})}}}}});
    }
    return pod;
}

} // namespace

bool parseKubernetesQuantity(std::string_view text, double *value)
{
    std::size_t i = 0;
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            ++i;
        return i - from;
    };
    std::size_t mantissaDigits = digits();
    if (i < text.size() && text[i] == '.') {
        ++i;
        mantissaDigits += digits();
    }
    if (mantissaDigits == 0)
        return false;
    const double mantissa = std::strtod(std::string(text.substr(0, i)).c_str(), nullptr);
    const std::string_view suffix = text.substr(i);

    static const std::pair<std::string_view, double> kSuffixes[] = {
        {"", 1},       {"n", 1e-9},    {"u", 1e-6},    {"m", 1e-3},    {"k", 1e3},     {"M", 1e6},
        {"G", 1e9},    {"T", 1e12},    {"P", 1e15},    {"E", 1e18},    {"Ki", 0x1p10}, {"Mi", 0x1p20},
        {"Gi", 0x1p30}, {"Ti", 0x1p40}, {"Pi", 0x1p50}, {"Ei", 0x1p60}};
    double scale = 0;
    for (const auto &[name, factor] : kSuffixes)
        if (suffix == name)
            scale = factor;
    if (scale == 0) {
        // A decimal exponent: e3, E-2.
        if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E'))
            return false;
        std::size_t j = 1;
        if (suffix[j] == '+' || suffix[j] == '-')
            ++j;
        if (j == suffix.size() || suffix.find_first_not_of("0123456789", j) != std::string_view::npos)
            return false;
        scale = std::pow(10.0, std::strtod(std::string(suffix.substr(1)).c_str(), nullptr));
    }
    if (value)
        *value = mantissa * scale;
    return std::isfinite(mantissa * scale);
}

std::string kubernetesJobName(std::string_view runId, std::string *error)
{
    std::string text;
    for (char c : runId) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
        if (!isLowerAlnum(c))
            c = '-';
        if (c == '-' && (text.empty() || text.back() == '-'))
            continue;
        text += c;
    }
    while (!text.empty() && text.back() == '-')
        text.pop_back();
    if (text.empty()) {
        if (error)
            *error = "run id must hold a letter or digit to name the Kubernetes Job by (got " + inQuotes(runId) + ")";
        return {};
    }
    std::string name = "plimsoll-" + text;
    if (text != runId || name.size() > kMaxJobName) {
        char hash[16];
        std::snprintf(hash, sizeof hash, "-%08x", static_cast<unsigned>(fnv1a(runId)));
        name.resize(std::min(name.size(), kMaxJobName - 9));
        while (name.back() == '-')
            name.pop_back();
        name += hash;
    }
    return name;
}

KubernetesJobManifest renderKubernetesJob(const KubernetesJobSpec &spec)
{
    KubernetesJobManifest out;
    out.name = kubernetesJobName(spec.runId, &out.error);
    if (out.error.empty())
        out.error = checkSpec(spec);
    if (!out.error.empty()) {
        out.name.clear();
        return out;
    }
    out.nameSpace = spec.nameSpace;
    const Json labels = {{kLabelName, "plimsoll"}, {kLabelComponent, "bench-agent"}, {kRunIdKey, out.name}};
    for (const auto &[key, value] : labels.items())
        out.labelSelector += (out.labelSelector.empty() ? "" : ",") + key + "=" + value.get<std::string>();

    Json metadata = {{"name", out.name}};
    if (!spec.nameSpace.empty())
        metadata["namespace"] = spec.nameSpace;
    metadata["labels"] = labels;
    metadata["annotations"] = {{kRunIdKey, spec.runId}};

    const Json job = {
        {"apiVersion", "batch/v1"},
        {"kind", "Job"},
        {"metadata", metadata},
        {"spec",
         {
             {"completionMode", "Indexed"},
             {"completions", spec.agents},
             {"parallelism", spec.agents}, // every agent at once: they share one run
             {"backoffLimit", 0},          // a failed agent is a failed run, never a retried one
             {"ttlSecondsAfterFinished", spec.ttlSecondsAfterFinished},
             {"template", {{"metadata", {{"labels", labels}}}, {"spec", podSpecJson(spec)}}},
         }},
    };
    out.json = job.dump(2) + "\n";
    return out;
}

std::vector<std::string> kubectlDeleteArgs(const KubernetesJobManifest &manifest)
{
    std::vector<std::string> args = {"delete", "job"};
    if (!manifest.nameSpace.empty())
        args.insert(args.end(), {"--namespace", manifest.nameSpace});
    // kubectl refuses a name beside --selector; the name as a field selector does the same.
    args.insert(args.end(), {"--selector", manifest.labelSelector, "--field-selector",
                             "metadata.name=" + manifest.name, "--ignore-not-found"});
    return args;
}

} // namespace plimsoll
