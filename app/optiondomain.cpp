#include "app/optiondomain.h"

#include "model/core/records.h"

#include <regex>

namespace plimsoll {

CLI::Validator domainValidator(const std::string &flag, const Domain &domain)
{
    return CLI::Validator(
        [flag, domain](std::string &text) { return domain.checkText(flag, text).value_or(std::string()); },
        std::string());
}

CLI::Validator isoTime(const std::string &flag)
{
    return CLI::Validator(
        [flag](std::string &text) {
            const bool bareDate = text.find('T') == std::string::npos && text.find(' ') == std::string::npos;
            // A time is read with its zone: without one it could be UTC or the machine's local
            // time, and a guess either way moves the bound by hours.
            static const std::regex zone(R"((Z|z|[+-]\d\d(:?\d\d)?)$)");
            if (!bareDate && !std::regex_search(text, zone))
                return flag + " '" + text + "' has no time zone: add one (" + text + "Z for UTC, or " +
                       text + "+02:00) or give a bare date (midnight UTC)";
            const auto normalized = normalizeTimestamp(bareDate ? text + "T00:00:00Z" : text);
            if (!normalized)
                return flag + " must be an ISO-8601 date or time, e.g. 2026-08-11 or "
                              "2026-08-11T03:00:00Z (got '" + text + "')";
            text = *normalized;
            return std::string();
        },
        std::string());
}

std::string usageMessage(const CLI::Error &error)
{
    std::string message = error.what();
    // CLI11 reports a failed check as "NAME: <the check's message>"; ours names the option itself.
    const auto colon = message.find(": ");
    if (colon != std::string::npos && colon > 0 &&
        message.compare(colon + 2, colon + 1, message.substr(0, colon) + " ") == 0)
        message.erase(0, colon + 2);
    return message;
}

} // namespace plimsoll
