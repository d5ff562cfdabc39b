#include "importers/importer.h"

#include "importers/importers.h"

#include <string>

namespace plimsoll {

std::string ImportError::describe(const std::string &file) const
{
    std::string out = file;
    auto part = [&out](const std::string &text) {
        if (text.empty())
            return;
        if (!out.empty())
            out += ": ";
        out += text;
    };
    if (line > 0)
        part("line " + std::to_string(line) +
             (column > 0 ? ", column " + std::to_string(column) : std::string()));
    else if (offset >= 0)
        part("byte " + std::to_string(offset));
    if (!field.empty())
        part("field '" + field + "'");
    part(message);
    return out;
}

const ImporterRegistry &ImporterRegistry::instance()
{
    static const ImporterRegistry registry;
    return registry;
}

ImporterRegistry::ImporterRegistry()
    // The order breaks ties in detect(): the more specific formats come first; korvet-dist
    // result files embed producer-perf lines, so korvet-dist must win ties against them.
    : m_importers{&trendRecordsImporter(),      &korvetResultImporter(),
                  &ombImporter(),               &korvetDistImporter(),
                  &kafkaProducerPerfImporter(), &kafkaConsumerPerfImporter(),
                  &rdkafkaPerformanceImporter(), &hlogImporter(),
                  &hgrmImporter(),              &redisBenchmarkImporter(),
                  &memtierImporter(),           &prometheusImporter(),
                  &benchResultImporter()}
{
}

ImportResult Importer::parseInto(QIODevice &in, const ImportOptions &options,
                                 const Progress &progress, RunSink &sink) const
{
    ImportResult result = parse(in, options, progress);
    if (result.ok())
        for (RunRecord &run : result.runs)
            sink.put(std::move(run));
    result.runs.clear();
    return result;
}

const Importer *ImporterRegistry::byName(std::string_view name) const
{
    for (const Importer *importer : m_importers) {
        if (importer->name() == name)
            return importer;
    }
    return nullptr;
}

namespace {

std::string_view withoutBom(std::string_view head)
{
    if (head.substr(0, 3) == kUtf8Bom)
        head.remove_prefix(3);
    return head;
}

} // namespace

const Importer *ImporterRegistry::detect(std::string_view head) const
{
    head = withoutBom(head);
    const Importer *best = nullptr;
    int bestScore = 0;
    for (const Importer *importer : m_importers) {
        const int score = importer->sniff(head);
        if (score > bestScore) {
            best = importer;
            bestScore = score;
        }
    }
    return best;
}

namespace {

// What the bytes look like, for a refusal that no format comes close to.
std::string shapeOf(std::string_view head)
{
    if (head.substr(0, 3) == "\xEF\xBB\xBF")
        head.remove_prefix(3);
    const auto first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return "it is empty";
    // Formats a tool's output often arrives in, named so the way forward is plain.
    if (head.substr(0, 2) == "\x1F\x8B")
        return "it is gzip-compressed (decompress it first, e.g. with gunzip)";
    if (head.substr(0, 4) == std::string_view("PK\x03\x04", 4))
        return "it is a zip archive (extract its files first)";
    if (head.substr(0, 3) == "BZh")
        return "it is bzip2-compressed (decompress it first, e.g. with bunzip2)";
    if (head.substr(0, 6) == std::string_view("\xFD" "7zXZ\0", 6))
        return "it is xz-compressed (decompress it first, e.g. with unxz)";
    if (head.substr(0, 4) == std::string_view("\x28\xB5\x2F\xFD", 4))
        return "it is zstd-compressed (decompress it first, e.g. with unzstd)";
    if (head.substr(0, 2) == "\xFF\xFE" || head.substr(0, 2) == "\xFE\xFF" ||
        (head.size() >= 4 && ((head[0] != '\0' && head[1] == '\0' && head[2] != '\0' && head[3] == '\0') ||
                              (head[0] == '\0' && head[1] != '\0' && head[2] == '\0' && head[3] != '\0'))))
        return "it is UTF-16 text; Plimsoll reads UTF-8 (convert it first, e.g. with iconv -f UTF-16 -t UTF-8)";
    if (head.find('\0') != std::string_view::npos)
        return "it is binary, not text";
    const char c = head[first];
    std::string_view firstLine = head.substr(first);
    firstLine = firstLine.substr(0, std::min(firstLine.find_first_of("\r\n"), size_t(60)));
    const std::string quoted = "'" + std::string(firstLine) + "'";
    if (c == '{' || c == '[')
        return "it is JSON (starting " + quoted + ") but has none of the keys the JSON formats use";
    return "its first line " + quoted + " matches no format's detection rule";
}

} // namespace

std::string ImporterRegistry::explainRefusal(std::string_view head) const
{
    head = withoutBom(head);
    const Importer *closest = nullptr;
    Resemblance best;
    for (const Importer *importer : m_importers) {
        Resemblance r = importer->resemblance(head);
        if (r.score > best.score) {
            best = std::move(r);
            closest = importer;
        }
    }
    if (!closest)
        return "not a format Plimsoll reads: " + shapeOf(head) +
               " (see `plimsoll formats`; --format forces one)";
    return "not a format Plimsoll reads; closest is " + closest->name() + ", but it " +
           best.whyNot + " (--format " + closest->name() + " forces it)";
}

} // namespace plimsoll
