#pragma once
// Numeric command-line options with a stated domain (model/core/domain.h): the help shows it and a
// value outside it ends parsing with exit 2 and "--replication must be 1 or more (got 0)",
// the same words the window uses for the same field.

#include "model/core/domain.h"

#include <CLI/CLI.hpp>

#include <string>

namespace plimsoll {

// A CLI11 check of the option's text against `domain`; `flag` names it in the message.
CLI::Validator domainValidator(const std::string &flag, const Domain &domain);

// add_option with the domain checked and appended to the help text.
template <class T>
CLI::Option *addNumber(CLI::App *command, const std::string &flag, T &value, const Domain &domain,
                       const std::string &help)
{
    return command->add_option(flag, value, help + " (" + domain.describe() + ")")
        ->check(domainValidator(flag, domain));
}

// A CLI11 transform for --since/--until: an ISO-8601 time with a zone, or a bare date
// (2026-11-30, midnight UTC), normalized to the store's form; anything else is a usage error.
CLI::Validator isoTime(const std::string &flag);

// The message CLI11 prints for a failed parse, without CLI11's repetition of the option name
// in front of a domain message ("--x: --x must be …" → "--x must be …").
std::string usageMessage(const CLI::Error &error);

} // namespace plimsoll
