#include "model/core/records.h"

#include <QDate>
#include <QDateTime>
#include <QRegularExpression>
#include <QTime>
#include <QTimeZone>

#include <cmath>
#include <stdexcept>

namespace plimsoll {

namespace {

struct IntegerFactor
{
    const char *name;
    std::optional<int64_t> Topology::*field;
};

// The order here is the order toJson() writes, so exported records read naturally.
constexpr IntegerFactor kIntegerFactors[] = {
    {"brokers", &Topology::brokers},             {"shards", &Topology::shards},
    {"partitions", &Topology::partitions},       {"producers", &Topology::producers},
    {"consumers", &Topology::consumers},         {"clients", &Topology::clients},
    {"connections", &Topology::connections},     {"threads", &Topology::threads},
    {"pipeline", &Topology::pipeline},           {"record_size_bytes", &Topology::recordSizeBytes},
    {"batch_bytes", &Topology::batchBytes},     {"agents", &Topology::agents},
    {"replication", &Topology::replication},
};

const IntegerFactor *findIntegerFactor(const std::string &name)
{
    for (const auto &f : kIntegerFactors) {
        if (name == f.name)
            return &f;
    }
    return nullptr;
}

const char *typeName(const nlohmann::json &v)
{
    if (v.is_number())
        return "a number";
    return v.type_name();
}

// JSON Schema's "integer" admits 2.0; anything with a fraction is refused.
int64_t factorValue(const std::string &key, const nlohmann::json &v)
{
    int64_t value = 0;
    if (v.is_number_integer()) {
        if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX))
            throw std::invalid_argument("topology key '" + key + "' is too large");
        value = v.get<int64_t>();
    } else if (v.is_number_float()) {
        const double d = v.get<double>();
        if (!std::isfinite(d) || std::trunc(d) != d || std::fabs(d) > 9.0e15)
            throw std::invalid_argument("topology key '" + key + "' is not an integer");
        value = int64_t(d);
    } else {
        throw std::invalid_argument("topology key '" + key + "' is " + typeName(v) +
                                    ", not an integer");
    }
    if (value < 0)
        throw std::invalid_argument("topology key '" + key + "' is negative");
    return value;
}

std::string formatUtc(const QDateTime &utc)
{
    const QString pattern = utc.time().msec() != 0 ? QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz")
                                                   : QStringLiteral("yyyy-MM-ddTHH:mm:ss");
    return utc.toString(pattern).toStdString() + "Z";
}

} // namespace

std::optional<int64_t> Topology::factor(const std::string &name) const
{
    const IntegerFactor *f = findIntegerFactor(name);
    if (!f)
        return std::nullopt;
    return this->*(f->field);
}

bool Topology::setFactor(const std::string &name, int64_t value)
{
    const IntegerFactor *f = findIntegerFactor(name);
    if (!f)
        return false;
    this->*(f->field) = value;
    return true;
}

nlohmann::json Topology::toJson() const
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto &f : kIntegerFactors) {
        if (const auto &v = this->*(f.field))
            j[f.name] = *v;
    }
    if (compression)
        j["compression"] = *compression;
    if (acks)
        j["acks"] = *acks;
    if (!inferred.empty())
        j["inferred"] = inferred;
    return j;
}

Topology Topology::fromJson(const nlohmann::json &j)
{
    if (!j.is_object())
        throw std::invalid_argument(std::string("topology is ") + typeName(j) + ", not an object");
    Topology t;
    for (const auto &[key, value] : j.items()) {
        if (const IntegerFactor *f = findIntegerFactor(key)) {
            t.*(f->field) = factorValue(key, value);
        } else if (key == "compression" || key == "acks") {
            if (!value.is_string())
                throw std::invalid_argument("topology key '" + key + "' is " + typeName(value) +
                                            ", not a string");
            (key == "compression" ? t.compression : t.acks) = value.get<std::string>();
        } else if (key == "inferred") {
            if (!value.is_array())
                throw std::invalid_argument("topology key 'inferred' is " +
                                            std::string(typeName(value)) + ", not an array");
            for (const auto &item : value) {
                if (!item.is_string())
                    throw std::invalid_argument(
                        "topology key 'inferred' holds something other than factor names");
                t.inferred.push_back(item.get<std::string>());
            }
        } else {
            throw std::invalid_argument("topology key '" + key + "' is not a known factor");
        }
    }
    return t;
}

std::optional<double> ScenarioRecord::metric(const std::string &metricName) const
{
    for (const auto &m : metrics) {
        if (m.name == metricName)
            return m.value;
    }
    return std::nullopt;
}

std::optional<std::string> normalizeTimestamp(const std::string &text)
{
    // Parsed by hand rather than by Qt::ISODate, which also takes bare dates and week forms
    // and silently reads a zone-less time as local time; a zone-less time is taken as UTC.
    static const QRegularExpression re(QStringLiteral(
        R"(^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)"
        R"(([Zz]|[+-]\d{2}(?::?\d{2})?)?$)"));
    const auto m = re.match(QString::fromStdString(text));
    if (!m.hasMatch())
        return std::nullopt;
    const QDate date(m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt());
    int msec = 0;
    if (const QString fraction = m.captured(7); !fraction.isEmpty())
        msec = (fraction + QStringLiteral("00")).left(3).toInt(); // truncates beyond ms
    const QTime time(m.captured(4).toInt(), m.captured(5).toInt(),
                     m.captured(6).isEmpty() ? 0 : m.captured(6).toInt(), msec);
    if (!date.isValid() || !time.isValid())
        return std::nullopt;

    int offsetSeconds = 0;
    const QString zone = m.captured(8);
    if (!zone.isEmpty() && zone != QStringLiteral("Z") && zone != QStringLiteral("z")) {
        const QString digits = zone.mid(1).remove(QLatin1Char(':'));
        const int hours = digits.left(2).toInt();
        const int minutes = digits.size() > 2 ? digits.mid(2, 2).toInt() : 0;
        if (hours > 23 || minutes > 59)
            return std::nullopt;
        const int sign = zone.startsWith(QLatin1Char('-')) ? -1 : 1;
        offsetSeconds = sign * (hours * 3600 + minutes * 60);
    }
    const QDateTime local(date, time, QTimeZone(offsetSeconds));
    return formatUtc(local.toUTC());
}

std::string nowTimestamp()
{
    return formatUtc(QDateTime::currentDateTimeUtc());
}

const char *toString(TimeSource source)
{
    switch (source) {
    case TimeSource::FileModified:
        return "file-modified";
    case TimeSource::Imported:
        return "imported";
    case TimeSource::Stated:
        break;
    }
    return "stated";
}

std::optional<TimeSource> timeSourceFromString(std::string_view text)
{
    for (const TimeSource s : {TimeSource::Stated, TimeSource::FileModified, TimeSource::Imported})
        if (text == toString(s))
            return s;
    return std::nullopt;
}

} // namespace plimsoll
