#pragma once
// A temporary directory removed at the end of the test.
#include <QTemporaryDir>
#include <string>

namespace plimsoll::test {
inline std::string dataPath(const std::string &name)
{
    return std::string(PLIMSOLL_TEST_DATA_DIR) + "/" + name;
}
inline std::string corpusPath(const std::string &name)
{
    return std::string(PLIMSOLL_CORPUS_DIR) + "/" + name;
}
} // namespace plimsoll::test
