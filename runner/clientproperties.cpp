#include "runner/clientproperties.h"

#include <librdkafka/rdkafkacpp.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>

namespace plimsoll {

namespace {


std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\f\r\n");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\f\r\n");
    return std::string(text.substr(first, last - first + 1));
}


// Settings that only steer the JVM client and have no librdkafka counterpart; dropping
// them changes nothing about what is sent to the broker, so they are only noticed.
const std::set<std::string, std::less<>> kJavaOnly = {
    "key.serializer", "value.serializer", "key.deserializer", "value.deserializer",
    "max.block.ms", "max.poll.records", "default.api.timeout.ms", "client.dns.lookup",
    "ssl.protocol", "ssl.enabled.protocols", "ssl.keymanager.algorithm",
    "ssl.trustmanager.algorithm", "ssl.secure.random.implementation", "ssl.provider",
    "metric.reporters", "metrics.num.samples", "metrics.sample.window.ms",
    "metrics.recording.level", "auto.include.jmx.reporter", "exclude.internal.topics",
    "internal.leave.group.on.close", "partitioner.ignore.keys",
    "partitioner.adaptive.partitioning.enable", "partitioner.availability.timeout.ms",
    "sasl.login.refresh.window.factor", "sasl.login.refresh.window.jitter",
    "sasl.login.refresh.min.period.seconds", "sasl.login.refresh.buffer.seconds",
    "sasl.kerberos.ticket.renew.window.factor", "sasl.kerberos.ticket.renew.jitter",
    "enable.metrics.push",
};

// Settings that load Java code: librdkafka cannot run it, and ignoring it would change
// behaviour silently, so these are refused with what to do instead.
const std::unordered_map<std::string, std::string> kJavaClasses = {
    {"sasl.login.callback.handler.class",
     "librdkafka cannot load Java callback handlers; for OAUTHBEARER set "
     "sasl.oauthbearer.method=oidc with sasl.oauthbearer.client.id, "
     "sasl.oauthbearer.client.secret and sasl.oauthbearer.token.endpoint.url"},
    {"sasl.client.callback.handler.class", "librdkafka cannot load Java callback handlers; "
                                           "set sasl.username and sasl.password instead"},
    {"sasl.login.class", "librdkafka cannot load Java login classes; remove it"},
    {"ssl.engine.factory.class", "librdkafka cannot load a Java SSL engine; use "
                                 "ssl.ca.location, ssl.certificate.location and ssl.key.location"},
    {"security.providers", "librdkafka cannot load Java security providers; remove it"},
    {"interceptor.classes", "librdkafka cannot load Java interceptors; remove it"},
    {"partitioner.class", "librdkafka cannot load a Java partitioner; set partitioner "
                          "(murmur2_random matches the Java client's default)"},
    {"config.providers", "config providers (${file:...}) are not supported; write the "
                         "values into the file"},
};

// The same setting under another name in librdkafka.
const std::unordered_map<std::string, std::string> kRenamed = {
    {"sasl.mechanism", "sasl.mechanisms"},
    {"max.request.size", "message.max.bytes"},
    {"fetch.max.wait.ms", "fetch.wait.max.ms"},
    {"receive.buffer.bytes", "socket.receive.buffer.bytes"},
    {"send.buffer.bytes", "socket.send.buffer.bytes"},
};

// Handled together by the trust-store and key-store rules, not one by one.
const std::set<std::string, std::less<>> kStoreKeys = {
    "ssl.truststore.type",  "ssl.truststore.location", "ssl.truststore.password",
    "ssl.truststore.certificates", "ssl.keystore.type", "ssl.keystore.location",
    "ssl.keystore.password", "ssl.keystore.key", "ssl.keystore.certificate.chain",
    "ssl.key.password",
};

// One JAAS login module entry: `Class flag name="value" ...;` as Kafka's JaasConfig reads it.
struct JaasModule
{
    std::string className;
    std::map<std::string, std::string> options;
};

// Parses a sasl.jaas.config value. The error text names what is wrong, never a value.
std::optional<JaasModule> parseJaas(std::string_view text, std::string &error)
{
    std::size_t i = 0;
    auto skipSpace = [&] {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
            ++i;
    };
    auto word = [&]() -> std::string {
        const std::size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) && text[i] != '='
               && text[i] != ';' && text[i] != '"')
            ++i;
        return std::string(text.substr(start, i - start));
    };
    JaasModule module;
    skipSpace();
    module.className = word();
    skipSpace();
    const std::string flag = lower(word());
    if (module.className.empty() || flag.empty()) {
        error = "expected '<LoginModule class> required name=\"value\" ...;'";
        return std::nullopt;
    }
    if (flag != "required" && flag != "requisite" && flag != "sufficient" && flag != "optional") {
        error = "the control flag after the login module must be required, requisite, sufficient or optional";
        return std::nullopt;
    }
    for (;;) {
        skipSpace();
        if (i >= text.size()) {
            error = "the login module entry does not end with ';'";
            return std::nullopt;
        }
        if (text[i] == ';')
            break;
        const std::string name = word();
        skipSpace();
        if (name.empty() || i >= text.size() || text[i] != '=') {
            error = "expected name=value after the control flag";
            return std::nullopt;
        }
        ++i;
        skipSpace();
        std::string value;
        if (i < text.size() && text[i] == '"') {
            ++i;
            bool closed = false;
            while (i < text.size()) {
                const char c = text[i++];
                if (c == '"') {
                    closed = true;
                    break;
                }
                if (c == '\\' && i < text.size())
                    value += text[i++];
                else
                    value += c;
            }
            if (!closed) {
                error = "the value of option '" + name + "' has no closing quote";
                return std::nullopt;
            }
        } else {
            value = word();
        }
        module.options[name] = value;
    }
    ++i;
    skipSpace();
    if (i != text.size()) {
        error = "only one login module entry is supported";
        return std::nullopt;
    }
    return module;
}

std::string shortClassName(const std::string &className)
{
    const auto dot = className.rfind('.');
    return dot == std::string::npos ? className : className.substr(dot + 1);
}

class Translator
{
public:
    explicit Translator(const ClientProperties &properties)
        : m_properties(properties)
    {}

    ClientProperties::Translation run()
    {
        for (const auto &problem : m_properties.parseProblems())
            m_result.errors.push_back(problem);
        for (const auto &entry : m_properties.entries())
            // Plimsoll's own keys (plimsoll.re.user / .password: the Redis Enterprise REST
            // collector's credentials) are not client settings.
            if (entry.key.rfind("plimsoll.", 0) != 0)
                translate(entry);
        translateTrustStore();
        translateKeyStore();
        checkFiles();
        validate();
        return std::move(m_result);
    }

private:
    using Entry = ClientProperties::Entry;

    void error(const Entry &entry, std::string message)
    {
        m_result.errors.push_back({m_properties.sourceName(), entry.line, entry.key, std::move(message)});
    }
    void notice(const Entry &entry, std::string message)
    {
        m_result.notices.push_back({m_properties.sourceName(), entry.line, entry.key, std::move(message)});
    }
    void set(const Entry &origin, const std::string &key, std::string value)
    {
        m_result.config[key] = std::move(value);
        m_origin[key] = &origin;
    }

    void translate(const Entry &entry)
    {
        const std::string &key = entry.key;
        if (kStoreKeys.count(key))
            return;
        if (kJavaOnly.count(key)) {
            notice(entry, "a Java client setting without a librdkafka counterpart; ignored");
            return;
        }
        if (auto it = kJavaClasses.find(key); it != kJavaClasses.end()) {
            error(entry, it->second);
            return;
        }
        if (auto it = kRenamed.find(key); it != kRenamed.end()) {
            set(entry, it->second, entry.value);
            return;
        }
        if (key == "sasl.jaas.config")
            return translateJaas(entry);
        if (key == "security.protocol")
            return set(entry, key, lower(trimmed(entry.value)));
        if (key == "ssl.endpoint.identification.algorithm") {
            // Java turns host name checking off with an empty value; librdkafka says none.
            const std::string value = lower(trimmed(entry.value));
            if (value.empty() || value == "none")
                set(entry, key, "none");
            else if (value == "https")
                set(entry, key, "https");
            else
                error(entry, ClientProperties::describe(key, entry.value)
                                 + ": only https, or an empty value (no host name check), is supported");
            return;
        }
        if (key == "auto.offset.reset" && lower(trimmed(entry.value)) == "none") {
            set(entry, key, "error"); // librdkafka's name for "fail when there is no offset"
            return;
        }
        if (key == "buffer.memory")
            return translateBufferMemory(entry);
        if (key == "partition.assignment.strategy")
            return translateAssignors(entry);
        set(entry, key, entry.value);
    }

    void translateBufferMemory(const Entry &entry)
    {
        const std::string value = trimmed(entry.value);
        long long bytes = 0;
        std::istringstream in(value);
        if (!(in >> bytes) || !in.eof() || bytes <= 0) {
            error(entry, ClientProperties::describe(entry.key, entry.value) + ": expected a positive number of bytes");
            return;
        }
        // librdkafka counts its producer queue in KiB.
        set(entry, "queue.buffering.max.kbytes", std::to_string(std::max(1LL, (bytes + 1023) / 1024)));
    }

    void translateAssignors(const Entry &entry)
    {
        static const std::unordered_map<std::string, std::string> names = {
            {"RangeAssignor", "range"},
            {"RoundRobinAssignor", "roundrobin"},
            {"CooperativeStickyAssignor", "cooperative-sticky"},
            {"range", "range"},
            {"roundrobin", "roundrobin"},
            {"cooperative-sticky", "cooperative-sticky"},
        };
        std::string mapped;
        std::istringstream in(entry.value);
        std::string item;
        while (std::getline(in, item, ',')) {
            const std::string name = shortClassName(trimmed(item));
            if (name.empty())
                continue;
            auto it = names.find(name);
            if (it == names.end()) {
                error(entry, "assignor " + name + " is not available in librdkafka; use RangeAssignor, "
                             "RoundRobinAssignor or CooperativeStickyAssignor");
                return;
            }
            mapped += (mapped.empty() ? "" : ",") + it->second;
        }
        set(entry, entry.key, mapped);
    }

    void translateJaas(const Entry &entry)
    {
        std::string reason;
        const auto module = parseJaas(entry.value, reason);
        if (!module) {
            error(entry, "malformed value (masked): " + reason);
            return;
        }
        const std::string name = shortClassName(module->className);
        const auto option = [&](const char *optionName) -> const std::string * {
            auto it = module->options.find(optionName);
            return it == module->options.end() ? nullptr : &it->second;
        };
        if (name == "PlainLoginModule" || name == "ScramLoginModule") {
            const auto *user = option("username");
            const auto *password = option("password");
            if (!user || !password) {
                error(entry, name + " needs both username and password options");
                return;
            }
            set(entry, "sasl.username", *user);
            set(entry, "sasl.password", *password);
        } else if (name == "OAuthBearerLoginModule") {
            if (const auto *clientId = option("clientId")) {
                const auto *secret = option("clientSecret");
                if (!secret) {
                    error(entry, "OAuthBearerLoginModule with clientId needs clientSecret");
                    return;
                }
                set(entry, "sasl.oauthbearer.method", "oidc");
                set(entry, "sasl.oauthbearer.client.id", *clientId);
                set(entry, "sasl.oauthbearer.client.secret", *secret);
                if (const auto *scope = option("scope"))
                    set(entry, "sasl.oauthbearer.scope", *scope);
            } else if (const auto *subject = option("unsecuredLoginStringClaim_sub")) {
                // Kafka's unsecured test tokens: librdkafka builds the same kind itself.
                set(entry, "enable.sasl.oauthbearer.unsecure.jwt", "true");
                set(entry, "sasl.oauthbearer.config", "principal=" + *subject);
            } else {
                error(entry, "OAuthBearerLoginModule without clientId/clientSecret relies on a Java "
                             "callback handler; set sasl.oauthbearer.method=oidc with "
                             "sasl.oauthbearer.client.id and sasl.oauthbearer.client.secret");
            }
        } else if (name == "Krb5LoginModule") {
            if (const auto *keyTab = option("keyTab"))
                set(entry, "sasl.kerberos.keytab", *keyTab);
            if (const auto *principal = option("principal"))
                set(entry, "sasl.kerberos.principal", *principal);
            notice(entry, "Krb5LoginModule: only keyTab and principal are used; librdkafka runs "
                          "kinit itself (sasl.kerberos.kinit.cmd)");
        } else {
            error(entry, "login module " + name + " is not supported by librdkafka; use "
                         "PlainLoginModule, ScramLoginModule, OAuthBearerLoginModule or Krb5LoginModule");
        }
    }

    // Java's default store type is JKS, so a location without a type means JKS.
    std::string storeType(const char *typeKey, const Entry *location) const
    {
        if (const auto *type = m_properties.find(typeKey)) {
            std::string value = trimmed(type->value);
            std::transform(value.begin(), value.end(), value.begin(),
                           [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
            return value;
        }
        return location ? "JKS" : "";
    }

    // A JKS store, which librdkafka cannot read: without a location only noticed (at its type's
    // line), with one refused (at its type's line, else its location's) with the conversion to
    // use instead. True when the store is JKS, and so dealt with.
    bool refusedJks(const char *typeKey, const std::string &type, const Entry *location, const char *withoutLocation,
                    const char *conversion)
    {
        if (type != "JKS")
            return false;
        const auto *typeEntry = m_properties.find(typeKey);
        if (!location) {
            notice(*typeEntry, withoutLocation);
            return true;
        }
        error(typeEntry ? *typeEntry : *location,
              (typeEntry ? std::string() : std::string("no ") + typeKey + ", so JKS (the Java default): ")
                  + "JKS stores are not supported by librdkafka; " + conversion);
        return true;
    }

    void translateTrustStore()
    {
        const auto *location = m_properties.find("ssl.truststore.location");
        const auto *certificates = m_properties.find("ssl.truststore.certificates");
        const auto *password = m_properties.find("ssl.truststore.password");
        const auto *typeEntry = m_properties.find("ssl.truststore.type");
        const std::string type = storeType("ssl.truststore.type", location);
        const Entry *anchor = typeEntry ? typeEntry : location;
        if (refusedJks("ssl.truststore.type", type, location,
                       "no trust store location: librdkafka uses the system CA certificates",
                       "convert to PEM with keytool -exportcert -rfc -alias <alias> -keystore <truststore.jks> "
                       "-file ca.pem, and set ssl.ca.location=ca.pem"))
            return;
        if (type == "PKCS12" && location) {
            error(*anchor, "PKCS#12 trust stores are not supported by librdkafka; extract the CA "
                           "certificates with openssl pkcs12 -in <truststore.p12> -nokeys -out ca.pem, "
                           "and set ssl.ca.location=ca.pem");
            return;
        }
        if (!type.empty() && type != "PEM" && type != "JKS" && type != "PKCS12") {
            error(*anchor, ClientProperties::describe("ssl.truststore.type", typeEntry->value)
                               + ": unknown store type; librdkafka reads PEM (ssl.ca.location)");
            return;
        }
        if (location)
            set(*location, "ssl.ca.location", location->value);
        if (certificates)
            set(*certificates, "ssl.ca.pem", certificates->value);
        if (password)
            notice(*password, "PEM trust material has no password; ignored");
    }

    void translateKeyStore()
    {
        const auto *location = m_properties.find("ssl.keystore.location");
        const auto *key = m_properties.find("ssl.keystore.key");
        const auto *chain = m_properties.find("ssl.keystore.certificate.chain");
        const auto *storePassword = m_properties.find("ssl.keystore.password");
        const auto *keyPassword = m_properties.find("ssl.key.password");
        const auto *typeEntry = m_properties.find("ssl.keystore.type");
        const std::string type = storeType("ssl.keystore.type", location);
        const Entry *anchor = typeEntry ? typeEntry : location;
        if (refusedJks("ssl.keystore.type", type, location, "no key store location; ignored",
                       "convert with keytool -importkeystore -srckeystore <keystore.jks> -srcstoretype JKS "
                       "-destkeystore client.p12 -deststoretype PKCS12, then set "
                       "ssl.keystore.type=PKCS12 and ssl.keystore.location=client.p12"))
            return;
        if (type == "PKCS12") {
            // librdkafka reads PKCS#12 itself, under the same names as Java.
            if (location)
                set(*location, "ssl.keystore.location", location->value);
            if (storePassword)
                set(*storePassword, "ssl.keystore.password", storePassword->value);
            if (keyPassword)
                notice(*keyPassword, "librdkafka opens the PKCS#12 key with ssl.keystore.password; ignored");
            return;
        }
        if (!type.empty() && type != "PEM") {
            error(*anchor, ClientProperties::describe("ssl.keystore.type", typeEntry->value)
                               + ": unknown store type; librdkafka reads PEM or PKCS12");
            return;
        }
        // A Java PEM key store file holds the private key and the certificate chain;
        // OpenSSL reads each from the same file.
        if (location) {
            set(*location, "ssl.certificate.location", location->value);
            set(*location, "ssl.key.location", location->value);
        }
        if (key)
            set(*key, "ssl.key.pem", key->value);
        if (chain)
            set(*chain, "ssl.certificate.pem", chain->value);
        if (keyPassword)
            set(*keyPassword, "ssl.key.password", keyPassword->value);
        if (storePassword)
            notice(*storePassword, "a PEM key store has no store password (the key's is "
                                   "ssl.key.password); ignored");
    }

    // A missing certificate or key file is reported here, at its line, rather than as a
    // TLS handshake failure minutes later.
    void checkFiles()
    {
        static const char *const fileKeys[] = {"ssl.ca.location", "ssl.certificate.location",
                                               "ssl.key.location", "ssl.keystore.location",
                                               "ssl.crl.location", "sasl.kerberos.keytab"};
        for (const char *key : fileKeys) {
            auto it = m_result.config.find(key);
            if (it == m_result.config.end())
                continue;
            std::error_code ec;
            if (!std::filesystem::exists(it->second, ec))
                error(*m_origin.at(key), "file not found: " + it->second);
        }
    }

    // librdkafka itself is the judge of names and values: a scratch configuration
    // object accepts or refuses each setting exactly as a real client would.
    void validate()
    {
        std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
        for (const auto &[key, value] : m_result.config) {
            std::string errstr;
            const auto status = conf->set(key, value, errstr);
            if (status == RdKafka::Conf::CONF_OK)
                continue;
            const Entry &origin = *m_origin.at(key);
            const bool renamed = origin.key != key;
            if (status == RdKafka::Conf::CONF_UNKNOWN) {
                error(origin, renamed ? "becomes " + key + ", which this librdkafka does not know"
                                      : "not a librdkafka setting, nor a Java client setting Plimsoll "
                                        "knows how to translate");
            } else if (ClientProperties::isSecret(key) || ClientProperties::isSecret(origin.key)) {
                // librdkafka's message may quote the value: a secret's is cut out of it,
                // and a very short one could hide anywhere, so then the message goes too.
                if (value.size() < 4) {
                    error(origin, "librdkafka refuses the value of " + key + " (value masked)");
                } else {
                    for (auto at = errstr.find(value); at != std::string::npos; at = errstr.find(value, at))
                        errstr.replace(at, value.size(), "<masked>");
                    error(origin, "as " + key + ": " + errstr);
                }
            } else {
                error(origin, (renamed ? "as " + key + ": " : std::string()) + errstr);
            }
        }
    }

    const ClientProperties &m_properties;
    ClientProperties::Translation m_result;
    std::map<std::string, const Entry *> m_origin; // librdkafka key -> line it came from
};

} // namespace

std::string ClientProperties::Problem::toString() const
{
    std::string text = file;
    if (line > 0)
        text += ":" + std::to_string(line);
    text += ": ";
    if (!key.empty())
        text += key + ": ";
    return text + message;
}

std::string ClientProperties::Translation::errorText() const
{
    std::string text;
    for (const auto &problem : errors)
        text += problem.toString() + "\n";
    return text;
}

const ClientProperties::Entry *ClientProperties::find(std::string_view key) const
{
    for (const auto &entry : m_entries) {
        if (entry.key == key)
            return &entry;
    }
    return nullptr;
}

ClientProperties::Translation ClientProperties::toLibrdkafka() const { return Translator(*this).run(); }

bool ClientProperties::isSecret(std::string_view key)
{
    const std::string k = lower(key);
    for (const char *marker : {"password", "secret", "jaas", "credential"}) {
        if (k.find(marker) != std::string::npos)
            return true;
    }
    // Inline private keys and the OAUTHBEARER config (which may carry a token).
    return k == "ssl.key.pem" || k == "ssl.keystore.key" || k == "ssl_key" || k == "sasl.oauthbearer.config";
}

std::string ClientProperties::describe(std::string_view key, std::string_view value)
{
    return std::string(key) + "=" + (isSecret(key) ? std::string("<masked>") : std::string(value));
}

std::map<std::string, std::string> ClientProperties::redacted(const std::map<std::string, std::string> &config)
{
    std::map<std::string, std::string> out = config;
    for (auto &[key, value] : out) {
        if (isSecret(key))
            value = "<masked>";
    }
    return out;
}

} // namespace plimsoll
