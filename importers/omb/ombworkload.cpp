#include "importers/omb/ombworkload.h"

#include "model/core/textpattern.h"

#include <cctype>
#include <vector>

namespace plimsoll {

namespace {

std::string lower(std::string s)
{
    for (char &c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

} // namespace

OmbWorkloadName parseOmbWorkloadName(const std::string &workload)
{
    // Tokens split on the separators names use; "1kb", "4p" and "200k" keep their suffix.
    std::vector<std::string> tokens;
    const auto inToken = [](char c) { // [A-Za-z0-9.], whatever the locale
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.';
    };
    for (size_t i = 0; i < workload.size();) {
        if (!inToken(workload[i])) {
            ++i;
            continue;
        }
        const size_t start = i;
        while (i < workload.size() && inToken(workload[i]))
            ++i;
        tokens.push_back(lower(workload.substr(start, i - start)));
    }

    OmbWorkloadName out;
    static const TextPattern numberSuffix(R"(^(\d{1,18})([a-z]*)$)");
    for (size_t i = 0; i < tokens.size(); ++i) {
        PatternMatch m;
        if (!numberSuffix.fullMatch(tokens[i], &m))
            continue;
        const int64_t n = std::stoll(m.str(1));
        std::string suffix = m.str(2);
        std::string next = i + 1 < tokens.size() ? tokens[i + 1] : std::string();
        // "200k rate" / "1000k-rate": a rate in thousands.
        if (suffix == "k" && next == "rate") {
            out.producerRate = double(n) * 1000.0;
            continue;
        }
        if (suffix.empty() && next == "rate") {
            out.producerRate = double(n);
            continue;
        }
        const std::string word = suffix.empty() ? next : suffix;
        if (word == "topic" || word == "topics")
            out.topics = n;
        else if (word == "partition" || word == "partitions")
            out.partitionsPerTopic = n;
        else if (word == "producer" || word == "producers" || word == "p")
            out.producersPerTopic = n;
        else if (word == "consumer" || word == "consumers" || word == "c")
            out.consumersPerTopic = n;
        else if (word == "b" || word == "byte" || word == "bytes")
            out.messageSizeBytes = n;
        else if (word == "kb")
            out.messageSizeBytes = n * 1024;
        else if (word == "mb")
            out.messageSizeBytes = n * 1024 * 1024;
    }
    return out;
}

} // namespace plimsoll
