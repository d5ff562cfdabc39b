#pragma once
// Kafka client .properties files (the --command-config of Apache's tools) read as the
// Java clients read them, and translated into librdkafka configuration.
//
// Users bring the file they already use with kafka-producer-perf-test: TLS and SASL
// settings spelled the Java way. Where librdkafka names a setting differently it is
// renamed; where librdkafka cannot do what the file asks (JKS stores, Java classes) the
// translation fails and names the alternative. Secret values never appear in messages.

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

class ClientProperties
{
public:
    struct Entry
    {
        std::string key;
        std::string value;
        int line = 0; // where the logical line starts, 1-based
    };

    // A problem tied to a place in the file; the message never holds a secret value.
    struct Problem
    {
        std::string file;
        int line = 0; // 0 when it concerns the file as a whole
        std::string key;
        std::string message;

        // "client.properties:12: ssl.truststore.type: JKS stores are not supported..."
        std::string toString() const;
    };

    struct Translation
    {
        std::map<std::string, std::string> config; // librdkafka names and values
        std::vector<Problem> errors;                // any error: do not connect
        std::vector<Problem> notices;               // settings dropped on purpose

        bool ok() const { return errors.empty(); }
        // All errors, one per line, for a CLI or a dialog.
        std::string errorText() const;
    };

    // Java properties syntax: # and ! comments, key=value, key:value or key value,
    // backslash line continuations, \t \n \r \f \uXXXX escapes. A later duplicate key
    // replaces the earlier one, as in java.util.Properties. Bytes are taken as UTF-8
    // (Java reads ISO-8859-1, which only differs for non-ASCII text outside \u escapes).
    static ClientProperties parse(std::string_view text, std::string sourceName);
    static ClientProperties load(const std::string &path);

    const std::string &sourceName() const { return m_sourceName; }
    const std::vector<Entry> &entries() const { return m_entries; }
    const std::vector<Problem> &parseProblems() const { return m_problems; }
    const Entry *find(std::string_view key) const;

    // Translates every entry; parse problems are carried over as errors.
    Translation toLibrdkafka() const;

    // True for keys whose values are secrets (passwords, JAAS configs, private keys).
    static bool isSecret(std::string_view key);
    // "key=value", or "key=<masked>" for a secret: the only way values enter messages.
    static std::string describe(std::string_view key, std::string_view value);
    // The config with every secret value masked, for logs and result files.
    static std::map<std::string, std::string> redacted(const std::map<std::string, std::string> &config);

private:
    std::string m_sourceName;
    std::vector<Entry> m_entries;
    std::vector<Problem> m_problems;
};

} // namespace plimsoll
