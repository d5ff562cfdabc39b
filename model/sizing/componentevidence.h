#pragma once
// Which runs answer for each model a sizing rests on. A store rarely holds evidence of one's own
// for every model — shard and broker capacity, scaling across counts, stored bytes, Redis Flex,
// offload, the consume side, the latency curve — so with the sample runs on auto the user's own
// runs replace the samples for what they measure and the samples answer for the rest
// (fitSizingModelsPerComponent, sizingmodels.h). Every number then says where it came from:
// sourceOf() a line's runs, and the list of components for the evidence note.
//
// Pure values and computation.

#include <string>
#include <vector>

namespace plimsoll {

enum class EvidenceSource {
    None,    // no run: an input, or arithmetic on inputs
    Own,     // the user's own runs only
    Samples, // the sample runs only (`plimsoll samples install`)
    Pooled,  // both
    Default, // no run measured it: a stated default stands in
};
// "none", "own", "samples", "own+samples", "default": what --json says.
const char *toString(EvidenceSource source);
// "", "own runs", "samples", "own + samples", "default": what a person reads beside the number
// (short, so a narrow table keeps it in sight).
const char *label(EvidenceSource source);

// Own, Samples or Pooled by which of `runKeys` are sample runs (`sampleRunKeys` sorted); None
// for no runs.
EvidenceSource sourceOf(const std::vector<std::string> &runKeys, const std::vector<std::string> &sampleRunKeys);

struct ComponentEvidence
{
    std::string component; // "shard capacity", "broker capacity", "stored bytes per record", ...
    EvidenceSource source = EvidenceSource::None;
    std::vector<std::string> runKeys;
};

// "your runs answer for shard capacity and the latency curve; the sample runs for broker capacity,
// broker scaling and stored bytes per record; nothing for Redis Flex" — the components as one line.
std::string componentsText(const std::vector<ComponentEvidence> &components);

} // namespace plimsoll
