#include "model/sizing/componentevidence.h"

#include "model/core/enumnames.h"

#include <algorithm>

namespace plimsoll {

namespace {

constexpr EnumName<EvidenceSource> kSourceNames[] = {{EvidenceSource::None, "none"},
                                                     {EvidenceSource::Own, "own"},
                                                     {EvidenceSource::Samples, "samples"},
                                                     {EvidenceSource::Pooled, "own+samples"},
                                                     {EvidenceSource::Default, "default"}};

std::string joined(const std::vector<std::string> &items)
{
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

} // namespace

const char *toString(EvidenceSource source)
{
    return nameOf(kSourceNames, source);
}

const char *label(EvidenceSource source)
{
    switch (source) {
    case EvidenceSource::None: return "";
    case EvidenceSource::Own: return "own runs";
    case EvidenceSource::Samples: return "samples";
    case EvidenceSource::Pooled: return "own + samples";
    case EvidenceSource::Default: return "default";
    }
    return "";
}

EvidenceSource sourceOf(const std::vector<std::string> &runKeys, const std::vector<std::string> &sampleRunKeys)
{
    bool own = false, samples = false;
    for (const std::string &key : runKeys)
        (std::binary_search(sampleRunKeys.begin(), sampleRunKeys.end(), key) ? samples : own) = true;
    return own && samples ? EvidenceSource::Pooled
           : own          ? EvidenceSource::Own
           : samples      ? EvidenceSource::Samples
                          : EvidenceSource::None;
}

std::string componentsText(const std::vector<ComponentEvidence> &components)
{
    std::vector<std::string> own, samples, pooled, none;
    for (const ComponentEvidence &c : components)
        switch (c.source) {
        case EvidenceSource::Own: own.push_back(c.component); break;
        case EvidenceSource::Samples: samples.push_back(c.component); break;
        case EvidenceSource::Pooled: pooled.push_back(c.component); break;
        case EvidenceSource::None:
        case EvidenceSource::Default: none.push_back(c.component); break;
        }
    std::vector<std::string> parts;
    if (!own.empty())
        parts.push_back("your runs answer for " + joined(own));
    if (!pooled.empty())
        parts.push_back("your runs and the sample runs together for " + joined(pooled));
    if (!samples.empty())
        parts.push_back((parts.empty() ? "the sample runs answer for " : "the sample runs for ") + joined(samples));
    if (!none.empty())
        parts.push_back((parts.empty() ? "no run answers for " : "no run for ") + joined(none));
    std::string out;
    for (const std::string &p : parts)
        out += (out.empty() ? "" : "; ") + p;
    return out;
}

} // namespace plimsoll
