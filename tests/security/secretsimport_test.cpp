// Secrets in what users hand to `plimsoll import`: credentials in a URL (user:password@,
// ?token=) never reach standard output, standard error, the store or its WAL.
#include "security/securitysupport.h"

#include <gtest/gtest.h>

#include <QTemporaryDir>

#include <string>

namespace plimsoll::test {
namespace {

TEST(SecuritySecrets, UrlCredentialsNeverReachOutputOrStore)
{
    const std::string canary = makeCanary();
    QTemporaryDir dir;
    const QString db = dir.filePath("store.db");
    const std::string port = std::to_string(freeLoopbackPort());
    const std::vector<std::string> urls = {
        "http://plimsoll:" + canary + "@127.0.0.1:" + port + "/results.json",
        "http://127.0.0.1:" + port + "/results.json?token=" + canary + "&run=1",
        "https://plimsoll:" + canary + "@127.0.0.1:" + port + "/r.jsonl?access_token=" + canary,
    };
    for (const std::string &url : urls) {
        for (const bool json : {false, true}) {
            QStringList args{"--db", db, "import"};
            if (json)
                args << "--json";
            args << QString::fromStdString(url);
            const CliRun r = runPlimsoll(args, 120);
            SCOPED_TRACE(url);
            EXPECT_FALSE(r.crashed);
            EXPECT_EQ(r.exitCode, 1) << "nothing listens there: the import must fail";
            EXPECT_EQ(r.out.find(canary), std::string::npos) << "stdout: " << r.out;
            EXPECT_EQ(r.err.find(canary), std::string::npos) << "stderr: " << r.err;
        }
    }
    EXPECT_TRUE(filesContaining(dir.path(), canary).empty()) << "the store (or its WAL) holds it";
}

} // namespace
} // namespace plimsoll::test
