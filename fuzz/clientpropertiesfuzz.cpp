// The --command-config reader: Java properties syntax, then the translation into
// librdkafka's configuration, and the masking every message relies on.
//
// Besides "no crash", one property a user would notice: a secret never reaches a message.
// Each input is read after lines that set secrets to a canary; whatever the input adds,
// the canary must not appear in a parse problem, an error, a notice or the redacted config
// (unless the input itself spells the canary, which would make it no longer a secret).

#include "fuzz/fuzztarget.h"
#include "runner/clientproperties.h"

#include <cstdlib>
#include <string>
#include <string_view>

namespace {

constexpr std::string_view kCanary = "Pl1msollCanary7Q";

const std::string &secretPreamble()
{
    static const std::string text = std::string("sasl.password=") + std::string(kCanary) +
                                    "\nssl.key.password=" + std::string(kCanary) +
                                    "\nsasl.jaas.config=org.apache.kafka.common.security.plain."
                                    "PlainLoginModule required username=\"u\" password=\"" +
                                    std::string(kCanary) + "\";\n";
    return text;
}

void requireNoCanary(const std::string &text)
{
    if (text.find(kCanary) != std::string::npos)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using plimsoll::ClientProperties;
    const std::string_view input(reinterpret_cast<const char *>(data), size);

    // The input alone, as the user wrote it.
    {
        const ClientProperties props = ClientProperties::parse(input, "fuzz.properties");
        const ClientProperties::Translation t = props.toLibrdkafka();
        (void)t.errorText();
        for (const auto &[key, value] : ClientProperties::redacted(t.config))
            (void)ClientProperties::describe(key, value);
    }

    // After the secrets: nothing the input adds may bring them into a message.
    if (input.find(kCanary) != std::string_view::npos)
        return 0;
    const std::string text = secretPreamble() + std::string(input);
    const ClientProperties props = ClientProperties::parse(text, "fuzz.properties");
    for (const ClientProperties::Problem &p : props.parseProblems())
        requireNoCanary(p.toString());
    const ClientProperties::Translation t = props.toLibrdkafka();
    requireNoCanary(t.errorText());
    for (const ClientProperties::Problem &p : t.notices)
        requireNoCanary(p.toString());
    for (const auto &[key, value] : ClientProperties::redacted(t.config)) {
        requireNoCanary(key);
        requireNoCanary(value);
        requireNoCanary(ClientProperties::describe(key, value));
    }
    return 0;
}
