#include "model/store/savedsizing.h"

#include "model/store/store.h"

#include "model/core/units.h"

#include <QDateTime>
#include <QFile>
#include <QString>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace plimsoll {

namespace {

using nlohmann::json;

constexpr const char *kFormatName = "plimsoll-saved-sizings";

// The fields of SizingInputs by the names the file gives them (SI units, as stored).
struct NumberField
{
    const char *name;
    double SizingInputs::*member;
};
constexpr NumberField kNumbers[] = {
    {"rate_records_per_s", &SizingInputs::rate},
    {"bytes_per_s", &SizingInputs::bytesPerS},
    {"record_bytes", &SizingInputs::recordBytes},
    {"compression_ratio", &SizingInputs::compressionRatio},
    {"retention_s", &SizingInputs::retentionS},
    {"p99_budget_s", &SizingInputs::p99Budget},
    {"headroom", &SizingInputs::headroom},
    {"local_retention_s", &SizingInputs::localRetentionS},
    {"trim_tick_s", &SizingInputs::trimTickS},
    {"node_ram_bytes", &SizingInputs::nodeRamBytes},
    {"node_ram_usable", &SizingInputs::nodeRamUsable},
    {"skew_target", &SizingInputs::skewTarget},
};
struct IntField
{
    const char *name;
    int SizingInputs::*member;
};
constexpr IntField kInts[] = {
    {"replication", &SizingInputs::replication},
    {"shards_per_node", &SizingInputs::shardsPerNode},
};
struct FlagField
{
    const char *name;
    bool SizingInputs::*member;
};
constexpr FlagField kFlags[] = {
    {"tolerate_node_loss", &SizingInputs::tolerateNodeLoss},
    {"flex", &SizingInputs::flex},
    {"tiered", &SizingInputs::tiered},
};
// The consume side, added later: a file saved before it has none of these and loads with
// SizingInputs' defaults (no consumer groups).
constexpr NumberField kConsumeNumbers[] = {
    {"consume_rate_records_per_s", &SizingInputs::consumeRate},
    {"consume_margin", &SizingInputs::consumeMargin},
    {"fetch_p99_budget_s", &SizingInputs::fetchP99Budget},
};
struct TextField
{
    const char *name;
    std::string RunSelection::*member;
};
constexpr TextField kSelectionTexts[] = {
    {"scenario", &RunSelection::scenario}, {"tool", &RunSelection::tool},
    {"target", &RunSelection::target},     {"since", &RunSelection::since},
    {"until", &RunSelection::until},
};

json toJson(const SavedSizing &s)
{
    json inputs = json::object();
    for (const NumberField &f : kNumbers)
        inputs[f.name] = s.inputs.*f.member;
    for (const IntField &f : kInts)
        inputs[f.name] = s.inputs.*f.member;
    for (const FlagField &f : kFlags)
        inputs[f.name] = s.inputs.*f.member;
    inputs["topic"] = s.inputs.topic;
    inputs["key_pattern"] = s.inputs.keyPattern;
    inputs["broker_model"] = toString(s.inputs.brokerModel);
    inputs["consumer_groups"] = s.inputs.consumerGroups;
    for (const NumberField &f : kConsumeNumbers)
        inputs[f.name] = s.inputs.*f.member;
    inputs["consume_from"] = toString(s.inputs.consumeFrom);
    inputs["tiered_reads"] = s.inputs.tieredReads;
    json selection = {{"runs", s.evidence.runs.runs}, {"samples", toString(s.evidence.samples)}};
    for (const TextField &f : kSelectionTexts)
        selection[f.name] = s.evidence.runs.*f.member;
    return {{"name", s.name},     {"saved_at", s.savedAt}, {"inputs", inputs},
            {"cpu_limit", s.cpuLimit}, {"selection", selection}};
}

// Reads one saved sizing; every problem is thrown as the text after "<file>: ".
class Reader
{
public:
    explicit Reader(std::string where) : m_where(std::move(where)) {}

    [[noreturn]] void fail(const std::string &what) const { throw std::runtime_error(m_where + ": " + what); }

    const json &field(const json &object, const char *name) const
    {
        if (!object.is_object())
            fail("is not an object");
        const auto it = object.find(name);
        if (it == object.end())
            fail("field '" + std::string(name) + "' is missing");
        return *it;
    }
    double number(const json &object, const char *name) const
    {
        const json &v = field(object, name);
        if (!v.is_number() || !std::isfinite(v.get<double>()))
            fail("field '" + std::string(name) + "' is not a number");
        return v.get<double>();
    }
    int integer(const json &object, const char *name) const
    {
        const json &v = field(object, name);
        if (!v.is_number_integer() || v.get<long long>() < INT32_MIN || v.get<long long>() > INT32_MAX)
            fail("field '" + std::string(name) + "' is not a whole number");
        return v.get<int>();
    }
    bool flag(const json &object, const char *name) const
    {
        const json &v = field(object, name);
        if (!v.is_boolean())
            fail("field '" + std::string(name) + "' is not true or false");
        return v.get<bool>();
    }
    std::string text(const json &object, const char *name) const
    {
        const json &v = field(object, name);
        if (!v.is_string())
            fail("field '" + std::string(name) + "' is not a string");
        return v.get<std::string>();
    }

private:
    std::string m_where;
};

// The consume fields where the file has them (a sizing saved before them has none).
void readConsumeInputs(const Reader &r, const json &j, SizingInputs &in)
{
    if (j.contains("consumer_groups"))
        in.consumerGroups = r.integer(j, "consumer_groups");
    for (const NumberField &f : kConsumeNumbers)
        if (j.contains(f.name))
            in.*f.member = r.number(j, f.name);
    if (j.contains("consume_from")) {
        const std::string from = r.text(j, "consume_from");
        const auto parsed = consumeFromFromString(from);
        if (!parsed)
            r.fail("consume_from must be tail or backlog (got '" + from + "')");
        in.consumeFrom = *parsed;
    }
    if (j.contains("tiered_reads"))
        in.tieredReads = r.flag(j, "tiered_reads");
}

SizingInputs inputsFromJson(const Reader &r, const json &j)
{
    SizingInputs in;
    for (const NumberField &f : kNumbers)
        in.*f.member = r.number(j, f.name);
    for (const IntField &f : kInts)
        in.*f.member = r.integer(j, f.name);
    for (const FlagField &f : kFlags)
        in.*f.member = r.flag(j, f.name);
    in.topic = r.text(j, "topic");
    in.keyPattern = r.text(j, "key_pattern");
    const std::string model = r.text(j, "broker_model");
    const auto brokerModel = brokerModelFromString(model);
    if (!brokerModel)
        r.fail("broker_model must be auto, fitted, cpu or rule (got '" + model + "')");
    in.brokerModel = *brokerModel;
    readConsumeInputs(r, j, in);
    if (in.topic.empty())
        r.fail("topic is empty");
    if (in.keyPattern.find("{partition}") == std::string::npos)
        r.fail("key_pattern '" + in.keyPattern + "' must contain {partition}");
    if (std::string problem = in.validate(); !problem.empty())
        r.fail(problem);
    return in;
}

EvidenceSelection selectionFromJson(const Reader &r, const json &j)
{
    EvidenceSelection e;
    const json &runs = r.field(j, "runs");
    if (!runs.is_array())
        r.fail("field 'runs' is not a list of run keys");
    for (const json &k : runs) {
        if (!k.is_string() || k.get<std::string>().empty())
            r.fail("field 'runs' holds something other than a run key");
        e.runs.runs.push_back(k.get<std::string>());
    }
    for (const TextField &f : kSelectionTexts)
        e.runs.*f.member = r.text(j, f.name);
    std::string why;
    const auto normalized = normalizedSelection(e.runs, &why);
    if (!normalized)
        r.fail(why);
    e.runs = *normalized;
    const std::string samples = r.text(j, "samples");
    const auto s = sampleRunsFromString(samples);
    if (!s)
        r.fail("samples must be auto, include or exclude (got '" + samples + "')");
    e.samples = *s;
    return e;
}

SavedSizing sizingFromJson(const std::string &file, size_t index, const json &j)
{
    const Reader top(file + ": sizing " + std::to_string(index + 1));
    SavedSizing s;
    s.name = top.text(j, "name");
    const Reader r(file + ": sizing '" + s.name + "'");
    if (const auto bad = SavedSizings::nameError(s.name))
        r.fail(*bad);
    s.savedAt = r.text(j, "saved_at");
    if (!QDateTime::fromString(QString::fromStdString(s.savedAt), Qt::ISODate).isValid())
        r.fail("saved_at '" + s.savedAt + "' is not an ISO-8601 time");
    s.inputs = inputsFromJson(Reader(file + ": sizing '" + s.name + "': inputs"), r.field(j, "inputs"));
    s.cpuLimit = r.number(j, "cpu_limit");
    if (const auto problem = SizingModelOptions::kCpuLimit.check("cpu_limit", s.cpuLimit))
        r.fail(*problem);
    s.evidence = selectionFromJson(Reader(file + ": sizing '" + s.name + "': selection"), r.field(j, "selection"));
    return s;
}

std::vector<SavedSizing> readFile(const std::string &file)
{
    QFile f(QString::fromStdString(file));
    if (!f.exists())
        return {};
    auto unreadable = [&file](const std::string &why) {
        return SavedSizingError(SavedSizingError::Kind::Unreadable,
                                "cannot read the saved sizings in " + file + ": " + why +
                                    " (nothing is saved or removed until it is moved aside)");
    };
    if (!f.open(QIODevice::ReadOnly))
        throw unreadable(f.errorString().toStdString());
    const QByteArray bytes = f.readAll();
    json doc = json::parse(bytes.begin(), bytes.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        throw unreadable("not a JSON object");
    if (doc.value("format", std::string()) != kFormatName || !doc.contains("version"))
        throw unreadable("not a Plimsoll saved-sizings file (no \"format\": \"" + std::string(kFormatName) +
                         "\" with a version)");
    const json &version = doc["version"];
    if (!version.is_number_integer() || version.get<long long>() < 1)
        throw unreadable("version is not a whole number of 1 or more");
    if (version.get<long long>() > SavedSizings::kFormatVersion)
        throw unreadable("format version " + std::to_string(version.get<long long>()) +
                         " is newer than this Plimsoll reads (" +
                         std::to_string(SavedSizings::kFormatVersion) + "): written by a newer Plimsoll");
    if (!doc.contains("sizings") || !doc["sizings"].is_array())
        throw unreadable("field 'sizings' is not a list");
    std::vector<SavedSizing> out;
    try {
        for (size_t i = 0; i < doc["sizings"].size(); ++i) {
            SavedSizing s = sizingFromJson(file, i, doc["sizings"][i]);
            for (const SavedSizing &o : out)
                if (o.name == s.name)
                    throw std::runtime_error(file + ": the name '" + s.name + "' is saved twice");
            out.push_back(std::move(s));
        }
    } catch (const std::runtime_error &e) {
        throw SavedSizingError(SavedSizingError::Kind::Unreadable,
                               "cannot read the saved sizings: " + std::string(e.what()) +
                                   " (nothing is saved or removed until it is fixed or moved aside)");
    }
    std::sort(out.begin(), out.end(), [](const SavedSizing &a, const SavedSizing &b) { return a.name < b.name; });
    return out;
}

} // namespace

SizingModelOptions SavedSizing::modelOptions() const
{
    SizingModelOptions o;
    o.cpuLimit = cpuLimit;
    o.saturation.cpuLimit = cpuLimit;
    return o;
}

std::string SavedSizing::rateText() const
{
    if (inputs.rate <= 0)
        return rateInputText(0, inputs.bytesPerS);
    // Below a million in thousands ("600k", as the sizing's lines say it), not "0.6M".
    std::string text = rateInputText(inputs.rate, 0);
    if (inputs.rate >= 1e3 && inputs.rate < 1e6) {
        char buf[64];
        const auto end = std::to_chars(buf, buf + sizeof buf, inputs.rate / 1e3).ptr;
        const std::string k = std::string(buf, end) + "k";
        double bytes = 0;
        if (parseRate(k, &bytes) == inputs.rate)
            text = k;
    }
    return text + " records/s";
}

namespace {

std::string bodyOf(const SavedSizing &s)
{
    json body = toJson(s);
    body["version"] = SavedSizings::kFormatVersion;
    return body.dump();
}

SavedSizing fromBody(const Store &store, const std::string &name, const std::string &text)
{
    const std::string hint = " (`plimsoll sizings remove " + name + "` forgets it)";
    auto unreadable = [&](const std::string &why) {
        return SavedSizingError(SavedSizingError::Kind::Unreadable,
                                "cannot read a saved sizing: " + store.path() + ": sizing '" + name + "': " + why +
                                    hint);
    };
    const json body = json::parse(text, nullptr, false);
    if (body.is_discarded() || !body.is_object())
        throw unreadable("not a JSON object");
    const json version = body.value("version", json());
    if (!version.is_number_integer() || version.get<long long>() < 1)
        throw unreadable("its version is not a whole number of 1 or more");
    if (version.get<long long>() > SavedSizings::kFormatVersion)
        throw unreadable("format version " + std::to_string(version.get<long long>()) +
                         " is newer than this Plimsoll reads (" + std::to_string(SavedSizings::kFormatVersion) +
                         "): saved by a newer Plimsoll");
    try {
        SavedSizing s = sizingFromJson(store.path(), 0, body);
        if (s.name != name)
            throw std::runtime_error("it is kept as '" + name + "' but names itself '" + s.name + "'");
        return s;
    } catch (const std::runtime_error &e) {
        throw SavedSizingError(SavedSizingError::Kind::Unreadable, "cannot read a saved sizing: " +
                                                                       std::string(e.what()) + hint);
    }
}

// A store's error (a read-only role, a lost connection) as the saved sizings' own.
template <typename F> auto writing(F &&write)
{
    try {
        return write();
    } catch (const StoreError &e) {
        throw SavedSizingError(SavedSizingError::Kind::WriteFailed, e.what());
    }
}

} // namespace

std::vector<SavedSizing> SavedSizings::list(const Store &store)
{
    std::vector<SavedSizing> out;
    for (const Store::SharedSetting &row : store.sharedSettings(kSavedSizingKind))
        out.push_back(fromBody(store, row.name, row.body));
    return out; // by name, as the store lists them
}

std::optional<SavedSizing> SavedSizings::find(const Store &store, const std::string &name)
{
    if (const auto body = store.sharedSetting(kSavedSizingKind, name))
        return fromBody(store, name, *body);
    return std::nullopt;
}

void SavedSizings::save(Store &store, SavedSizing sizing, bool replace)
{
    if (const auto bad = nameError(sizing.name))
        throw SavedSizingError(SavedSizingError::Kind::Invalid, *bad);
    if (std::string problem = sizing.inputs.validate(); !problem.empty())
        throw SavedSizingError(SavedSizingError::Kind::Invalid, "sizing '" + sizing.name + "': " + problem);
    if (sizing.savedAt.empty())
        sizing.savedAt = now();
    const bool written =
        writing([&] { return store.putSharedSetting(kSavedSizingKind, sizing.name, bodyOf(sizing), replace); });
    if (!written) {
        std::string when;
        try {
            if (const auto kept = find(store, sizing.name))
                when = " (saved at " + kept->savedAt + ")";
        } catch (const SavedSizingError &) {
            // the name is taken all the same
        }
        throw SavedSizingError(SavedSizingError::Kind::NameTaken, "a sizing named '" + sizing.name +
                                                                      "' is already saved" + when +
                                                                      "; replace it, or choose another name");
    }
}

void SavedSizings::remove(Store &store, const std::string &name)
{
    if (!writing([&] { return store.removeSharedSetting(kSavedSizingKind, name); })) {
        // By name only: a body that cannot be read must not hide the names from the message.
        std::vector<SavedSizing> saved;
        for (const Store::SharedSetting &row : store.sharedSettings(kSavedSizingKind))
            saved.emplace_back().name = row.name;
        throw SavedSizingError(SavedSizingError::Kind::UnknownName,
                               "no sizing named '" + name + "' is saved (saved: " + namesText(saved) + ")");
    }
}

std::vector<Store::SharedSetting> SavedSizings::settingsOfFile(const std::string &file)
{
    std::vector<Store::SharedSetting> out;
    for (const SavedSizing &s : readFile(file))
        out.push_back({s.name, bodyOf(s)});
    return out;
}

std::string SavedSizings::namesText(const std::vector<SavedSizing> &sizings)
{
    if (sizings.empty())
        return "none saved yet";
    std::string out;
    for (const SavedSizing &s : sizings)
        out += (out.empty() ? "'" : ", '") + s.name + "'";
    return out;
}

std::optional<std::string> SavedSizings::nameError(const std::string &name)
{
    if (name.empty() || name.find_first_not_of(" \t") == std::string::npos)
        return "a saved sizing needs a name";
    if (name.front() == ' ' || name.back() == ' ')
        return "the name '" + name + "' starts or ends with a space";
    if (name.size() > 200)
        return "the name of a saved sizing is at most 200 bytes (got " + std::to_string(name.size()) + ")";
    for (unsigned char c : name)
        if (c < 0x20 || c == 0x7f)
            return "the name of a saved sizing holds a control character";
    return std::nullopt;
}

std::string SavedSizings::now()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
}

} // namespace plimsoll
