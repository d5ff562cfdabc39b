#pragma once
// What the suites that run the plimsoll binary against the test broker share: the broker's
// address, a directory of the test's own (its store and files), the process, and what the binary
// last said on stderr.

#include "servicesenv.h"

#include <gtest/gtest.h>

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <string>

namespace plimsoll::test {

class BrokerBinaryTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ServicesEnv::load(m_env);
        m_bootstrap = QString::fromStdString(m_env.value("PLIMSOLL_TEST_KAFKA_BOOTSTRAP"));
        ASSERT_FALSE(m_bootstrap.isEmpty());
        ASSERT_TRUE(m_dir.isValid());
    }

    ServicesEnv m_env;
    QString m_bootstrap;
    QTemporaryDir m_dir;
    QProcess m_process;
    std::string m_err;
};

} // namespace plimsoll::test
