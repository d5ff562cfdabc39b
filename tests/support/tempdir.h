#pragma once
// Where the suites read their inputs: small samples of our own (tests/data) and the shared
// corpus of real tool outputs, read in place beside the clone (../shared/corpus) or wherever
// PLIMSOLL_CORPUS_DIR points at run time.
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace plimsoll::test {
inline std::string dataPath(const std::string &name)
{
    return std::string(PLIMSOLL_TEST_DATA_DIR) + "/" + name;
}

inline std::string corpusDir()
{
    if (const char *dir = std::getenv("PLIMSOLL_CORPUS_DIR"); dir && *dir)
        return dir;
    return PLIMSOLL_CORPUS_DIR;
}

inline std::string corpusPath(const std::string &name)
{
    return corpusDir() + "/" + name;
}

inline bool underCi()
{
    const char *ci = std::getenv("CI");
    return ci && (std::string(ci) == "true" || std::string(ci) == "1");
}

// Empty when the corpus is there; otherwise the one line a skipped (or, under CI, failed)
// test reports.
inline std::string corpusMissing()
{
    std::error_code ec;
    if (std::filesystem::is_directory(corpusDir(), ec))
        return {};
    return "shared corpus not found at " + corpusDir() +
           ": set PLIMSOLL_CORPUS_DIR to the directory of real tool outputs to run this test";
}
} // namespace plimsoll::test

// First statement of a test that reads the shared corpus: without it the test is skipped with
// one line naming the directory, except under CI=true, where the corpus must be there.
#define PLIMSOLL_REQUIRES_CORPUS()                                                            \
    do {                                                                                      \
        const std::string corpusWhy_ = ::plimsoll::test::corpusMissing();                     \
        if (!corpusWhy_.empty()) {                                                            \
            if (::plimsoll::test::underCi())                                                  \
                FAIL() << corpusWhy_ << " (CI=true: the corpus is required)";                 \
            GTEST_SKIP() << corpusWhy_;                                                       \
        }                                                                                     \
    } while (false)
