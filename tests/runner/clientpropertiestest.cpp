// Java .properties parsing and the Java-client -> librdkafka translation.
#include "runner/clientproperties.h"

#include <gtest/gtest.h>

#include <QTemporaryDir>

#include <fstream>

namespace plimsoll {
namespace {

std::string valueOf(const ClientProperties &properties, const std::string &key)
{
    const auto *entry = properties.find(key);
    return entry ? entry->value : std::string("<absent>");
}

std::string allMessages(const ClientProperties::Translation &translation)
{
    std::string text = translation.errorText();
    for (const auto &notice : translation.notices)
        text += notice.toString() + "\n";
    return text;
}

// Certificate paths must exist for the translation to accept them.
class CertificateFiles
{
public:
    CertificateFiles()
    {
        for (const char *name : {"ca.pem", "client.pem", "client.p12"})
            std::ofstream(path(name)) << "placeholder\n";
    }
    std::string path(const std::string &name) const { return m_dir.filePath(QString::fromStdString(name)).toStdString(); }

private:
    QTemporaryDir m_dir;
};

TEST(runnerPropertiesSyntax, ReadsAllSeparatorsCommentsAndBlankLines)
{
    const auto properties = ClientProperties::parse("# comment\n"
                                                    "! also a comment\n"
                                                    "\n"
                                                    "   \t\n"
                                                    "equals=1\n"
                                                    "colon:2\n"
                                                    "space 3\n"
                                                    "  padded   =   4  \n"
                                                    "empty=\n"
                                                    "bare\n"
                                                    "first=a=b\n",
                                                    "t.properties");
    EXPECT_TRUE(properties.parseProblems().empty());
    EXPECT_EQ(valueOf(properties, "equals"), "1");
    EXPECT_EQ(valueOf(properties, "colon"), "2");
    EXPECT_EQ(valueOf(properties, "space"), "3");
    EXPECT_EQ(valueOf(properties, "padded"), "4  "); // Java keeps trailing blanks of a value
    EXPECT_EQ(valueOf(properties, "empty"), "");
    EXPECT_EQ(valueOf(properties, "bare"), "");
    EXPECT_EQ(valueOf(properties, "first"), "a=b");
    EXPECT_EQ(properties.entries().size(), 7u);
    EXPECT_EQ(properties.find("equals")->line, 5);
}

TEST(runnerPropertiesSyntax, JoinsContinuationLinesAndKeepsTheStartLine)
{
    const auto properties = ClientProperties::parse("sasl.jaas.config=org.example.Module \\\n"
                                                    "      required \\\n"
                                                    "   user=\"u\";\n"
                                                    "after=x\n",
                                                    "t.properties");
    EXPECT_EQ(valueOf(properties, "sasl.jaas.config"), "org.example.Module required user=\"u\";");
    EXPECT_EQ(properties.find("sasl.jaas.config")->line, 1);
    EXPECT_EQ(properties.find("after")->line, 4);
}

TEST(runnerPropertiesSyntax, EvenBackslashesDoNotContinue)
{
    const auto properties = ClientProperties::parse("dir=C:\\\\\nnext=1\n", "t.properties");
    EXPECT_EQ(valueOf(properties, "dir"), "C:\\");
    EXPECT_EQ(valueOf(properties, "next"), "1");
}

TEST(runnerPropertiesSyntax, CommentLinesDoNotContinue)
{
    const auto properties = ClientProperties::parse("# ends with a backslash \\\nkey=v\n", "t.properties");
    EXPECT_EQ(valueOf(properties, "key"), "v");
}

TEST(runnerPropertiesSyntax, DecodesEscapes)
{
    const auto properties = ClientProperties::parse("key\\ with\\ spaces=v\n"
                                                    "a\\=b=c\n"
                                                    "tab=x\\ty\n"
                                                    "unicode=caf\\u00e9 \\u20ac\n"
                                                    "pair=\\ud83d\\ude00\n"
                                                    "other=\\q\n",
                                                    "t.properties");
    EXPECT_EQ(valueOf(properties, "key with spaces"), "v");
    EXPECT_EQ(valueOf(properties, "a=b"), "c");
    EXPECT_EQ(valueOf(properties, "tab"), "x\ty");
    EXPECT_EQ(valueOf(properties, "unicode"), "caf\xC3\xA9 \xE2\x82\xAC");
    EXPECT_EQ(valueOf(properties, "pair"), "\xF0\x9F\x98\x80");
    EXPECT_EQ(valueOf(properties, "other"), "q");
}

TEST(runnerPropertiesSyntax, HandlesCrLfAndCrLineEnds)
{
    const auto properties = ClientProperties::parse("a=1\r\nb=2\rc=3", "t.properties");
    EXPECT_EQ(valueOf(properties, "a"), "1");
    EXPECT_EQ(valueOf(properties, "b"), "2");
    EXPECT_EQ(valueOf(properties, "c"), "3");
    EXPECT_EQ(properties.find("c")->line, 3);
}

TEST(runnerPropertiesSyntax, LaterDuplicateWins)
{
    const auto properties = ClientProperties::parse("acks=1\nacks=all\n", "t.properties");
    EXPECT_EQ(valueOf(properties, "acks"), "all");
    EXPECT_EQ(properties.find("acks")->line, 2);
    EXPECT_EQ(properties.entries().size(), 1u);
}

TEST(runnerPropertiesSyntax, MalformedUnicodeEscapeIsAnErrorAtItsLine)
{
    const auto properties = ClientProperties::parse("good=1\nbad=\\u12G4\n", "client.properties");
    ASSERT_EQ(properties.parseProblems().size(), 1u);
    EXPECT_EQ(properties.parseProblems()[0].toString(), "client.properties:2: bad: malformed \\uXXXX escape");
    EXPECT_FALSE(properties.toLibrdkafka().ok());
}

TEST(runnerPropertiesSyntax, MissingFileIsReportedWithItsPath)
{
    const auto properties = ClientProperties::load("/nonexistent/plimsoll/client.properties");
    ASSERT_EQ(properties.parseProblems().size(), 1u);
    EXPECT_EQ(properties.parseProblems()[0].toString(), "/nonexistent/plimsoll/client.properties: no such file");
}

TEST(runnerPropertiesTranslation, PassesSharedNamesAndRenamesJavaOnes)
{
    const auto translation = ClientProperties::parse("bootstrap.servers=broker:9092\n"
                                                     "acks=all\n"
                                                     "linger.ms=5\n"
                                                     "compression.type=lz4\n"
                                                     "security.protocol=SASL_PLAINTEXT\n"
                                                     "sasl.mechanism=SCRAM-SHA-512\n"
                                                     "max.request.size=2097152\n"
                                                     "fetch.max.wait.ms=100\n"
                                                     "receive.buffer.bytes=65536\n"
                                                     "buffer.memory=33554432\n"
                                                     "auto.offset.reset=none\n"
                                                     "partition.assignment.strategy=org.apache.kafka.clients."
                                                     "consumer.CooperativeStickyAssignor\n",
                                                     "client.properties")
                                 .toLibrdkafka();
    ASSERT_TRUE(translation.ok()) << translation.errorText();
    const auto &c = translation.config;
    EXPECT_EQ(c.at("bootstrap.servers"), "broker:9092");
    EXPECT_EQ(c.at("acks"), "all");
    EXPECT_EQ(c.at("linger.ms"), "5");
    EXPECT_EQ(c.at("compression.type"), "lz4");
    EXPECT_EQ(c.at("security.protocol"), "sasl_plaintext");
    EXPECT_EQ(c.at("sasl.mechanisms"), "SCRAM-SHA-512");
    EXPECT_EQ(c.at("message.max.bytes"), "2097152");
    EXPECT_EQ(c.at("fetch.wait.max.ms"), "100");
    EXPECT_EQ(c.at("socket.receive.buffer.bytes"), "65536");
    EXPECT_EQ(c.at("queue.buffering.max.kbytes"), "32768");
    EXPECT_EQ(c.at("auto.offset.reset"), "error");
    EXPECT_EQ(c.at("partition.assignment.strategy"), "cooperative-sticky");
    EXPECT_FALSE(c.count("sasl.mechanism"));
}

TEST(runnerPropertiesTranslation, EmptyEndpointIdentificationMeansNone)
{
    auto translation = ClientProperties::parse("ssl.endpoint.identification.algorithm=\n", "c").toLibrdkafka();
    ASSERT_TRUE(translation.ok()) << translation.errorText();
    EXPECT_EQ(translation.config.at("ssl.endpoint.identification.algorithm"), "none");

    translation = ClientProperties::parse("ssl.endpoint.identification.algorithm=HTTPS\n", "c").toLibrdkafka();
    ASSERT_TRUE(translation.ok()) << translation.errorText();
    EXPECT_EQ(translation.config.at("ssl.endpoint.identification.algorithm"), "https");
}

TEST(runnerPropertiesTranslation, PemTrustStoreBecomesCaLocation)
{
    CertificateFiles files;
    const auto translation = ClientProperties::parse("security.protocol=SSL\n"
                                                     "ssl.truststore.type=PEM\n"
                                                     "ssl.truststore.location=" + files.path("ca.pem") + "\n",
                                                     "client.properties")
                                 .toLibrdkafka();
    ASSERT_TRUE(translation.ok()) << translation.errorText();
    EXPECT_EQ(translation.config.at("ssl.ca.location"), files.path("ca.pem"));
    EXPECT_FALSE(translation.config.count("ssl.truststore.location"));
    EXPECT_FALSE(translation.config.count("ssl.truststore.type"));
}

TEST(runnerPropertiesTranslation, PemKeyStoreGivesCertificateAndKeyFromOneFile)
{
    CertificateFiles files;
    const auto translation = ClientProperties::parse("ssl.keystore.type=PEM\n"
                                                     "ssl.keystore.location=" + files.path("client.pem") + "\n"
                                                     "ssl.key.password=key-secret\n",
                                                     "client.properties")
                                 .toLibrdkafka();
    ASSERT_TRUE(translation.ok()) << translation.errorText();
    EXPECT_EQ(translation.config.at("ssl.certificate.location"), files.path("client.pem"));
    EXPECT_EQ(translation.config.at("ssl.key.location"), files.path("client.pem"));
    EXPECT_EQ(translation.config.at("ssl.key.password"), "key-secret");
}

TEST(runnerPropertiesTranslation, Pkcs12KeyStorePassesThrough)
{
    CertificateFiles files;
    const auto translation = ClientProperties::parse("ssl.keystore.type=PKCS12\n"
                                                     "ssl.keystore.location=" + files.path("client.p12") + "\n"
                                                     "ssl.keystore.password=store-secret\n",
                                                     "client.properties")
                                 .toLibrdkafka();
    ASSERT_TRUE(translation.ok()) << translation.errorText();
    EXPECT_EQ(translation.config.at("ssl.keystore.location"), files.path("client.p12"));
    EXPECT_EQ(translation.config.at("ssl.keystore.password"), "store-secret");
}

TEST(runnerPropertiesTranslation, JksTrustStoreIsRefusedWithTheConversion)
{
    const auto translation = ClientProperties::parse("security.protocol=SSL\n"
                                                     "ssl.truststore.location=/etc/kafka/truststore.jks\n"
                                                     "ssl.truststore.type=JKS\n"
                                                     "ssl.truststore.password=changeit-hunter2\n",
                                                     "client.properties")
                                 .toLibrdkafka();
    ASSERT_FALSE(translation.ok());
    ASSERT_EQ(translation.errors.size(), 1u) << translation.errorText();
    const auto &problem = translation.errors[0];
    EXPECT_EQ(problem.line, 3);
    EXPECT_EQ(problem.key, "ssl.truststore.type");
    const std::string text = problem.toString();
    EXPECT_EQ(text.rfind("client.properties:3: ssl.truststore.type: ", 0), 0u) << text;
    EXPECT_NE(text.find("JKS stores are not supported by librdkafka"), std::string::npos) << text;
    EXPECT_NE(text.find("keytool -exportcert"), std::string::npos) << text;
    EXPECT_NE(text.find("ssl.ca.location"), std::string::npos) << text;
    EXPECT_EQ(allMessages(translation).find("hunter2"), std::string::npos);
}

TEST(runnerPropertiesTranslation, TrustStoreWithoutTypeIsJksAsInJava)
{
    const auto translation =
        ClientProperties::parse("ssl.truststore.location=/etc/kafka/truststore.jks\n", "c.properties").toLibrdkafka();
    ASSERT_EQ(translation.errors.size(), 1u) << translation.errorText();
    EXPECT_EQ(translation.errors[0].key, "ssl.truststore.location");
    EXPECT_NE(translation.errors[0].message.find("JKS (the Java default)"), std::string::npos);
}

TEST(runnerPropertiesTranslation, Pkcs12TrustStoreIsRefusedWithOpensslAlternative)
{
    const auto translation = ClientProperties::parse("ssl.truststore.type=PKCS12\n"
                                                     "ssl.truststore.location=/etc/kafka/truststore.p12\n",
                                                     "c.properties")
                                 .toLibrdkafka();
    ASSERT_EQ(translation.errors.size(), 1u) << translation.errorText();
    EXPECT_NE(translation.errors[0].message.find("openssl pkcs12"), std::string::npos);
}

TEST(runnerPropertiesTranslation, JksKeyStoreIsRefusedWithTheConversion)
{
    const auto translation = ClientProperties::parse("ssl.keystore.location=/etc/kafka/client.jks\n"
                                                     "ssl.keystore.password=hunter2\n"
                                                     "ssl.key.password=hunter2\n",
                                                     "c.properties")
                                 .toLibrdkafka();
    ASSERT_EQ(translation.errors.size(), 1u) << translation.errorText();
    EXPECT_NE(translation.errors[0].message.find("keytool -importkeystore"), std::string::npos);
    EXPECT_EQ(allMessages(translation).find("hunter2"), std::string::npos);
}

TEST(runnerPropertiesTranslation, PlainJaasConfigBecomesUsernameAndPassword)
{
    const auto translation =
        ClientProperties::parse("security.protocol=SASL_SSL\n"
                                "sasl.mechanism=PLAIN\n"
                                "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\\n"
                                "    username=\"alice\" password=\"hunter2\";\n",
                                "c.properties")
            .toLibrdkafka();
    ASSERT_TRUE(translation.ok()) << translation.errorText();
    EXPECT_EQ(translation.config.at("sasl.username"), "alice");
    EXPECT_EQ(translation.config.at("sasl.password"), "hunter2");
    EXPECT_EQ(translation.config.at("sasl.mechanisms"), "PLAIN");
    EXPECT_FALSE(translation.config.count("sasl.jaas.config"));
    EXPECT_EQ(ClientProperties::redacted(translation.config).at("sasl.password"), "<masked>");
    EXPECT_EQ(ClientProperties::redacted(translation.config).at("sasl.username"), "alice");
}

TEST(runnerPropertiesTranslation, ScramJaasConfigIsMappedWithEscapes)
{
    // In the file: password="p\\"w" -> properties unescape -> JAAS unescape -> p"w
    const auto translation = ClientProperties::parse("sasl.jaas.config=org.apache.kafka.common.security.scram."
                                                     "ScramLoginModule required username=bob password=\"p\\\\\"w\";\n",
                                                     "c")
                                 .toLibrdkafka();
    ASSERT_TRUE(translation.ok()) << translation.errorText();
    EXPECT_EQ(translation.config.at("sasl.username"), "bob");
    EXPECT_EQ(translation.config.at("sasl.password"), "p\"w");
}

TEST(runnerPropertiesTranslation, UnsecuredOauthJaasConfigIsMapped)
{
    const auto translation = ClientProperties::parse("sasl.jaas.config=org.apache.kafka.common.security.oauthbearer."
                                                     "OAuthBearerLoginModule required "
                                                     "unsecuredLoginStringClaim_sub=\"alice\";\n",
                                                     "c")
                                 .toLibrdkafka();
    ASSERT_TRUE(translation.ok()) << translation.errorText();
    EXPECT_EQ(translation.config.at("enable.sasl.oauthbearer.unsecure.jwt"), "true");
    EXPECT_EQ(translation.config.at("sasl.oauthbearer.config"), "principal=alice");
}

TEST(runnerPropertiesTranslation, OidcJaasConfigIsMappedOrRefusedByThisLibrdkafka)
{
    const std::string secret = "oidc-client-secret-value";
    const auto translation = ClientProperties::parse("sasl.jaas.config=org.apache.kafka.common.security.oauthbearer."
                                                     "OAuthBearerLoginModule required clientId=\"app\" clientSecret=\""
                                                         + secret + "\" scope=\"kafka\";\n",
                                                     "c")
                                 .toLibrdkafka();
    if (translation.ok()) {
        EXPECT_EQ(translation.config.at("sasl.oauthbearer.method"), "oidc");
        EXPECT_EQ(translation.config.at("sasl.oauthbearer.client.id"), "app");
        EXPECT_EQ(translation.config.at("sasl.oauthbearer.client.secret"), secret);
        EXPECT_EQ(translation.config.at("sasl.oauthbearer.scope"), "kafka");
    } else {
        // Debian's librdkafka 2.0.2 is built without OIDC: it must say so, not hide it.
        EXPECT_NE(translation.errorText().find("not supported in this build"), std::string::npos)
            << translation.errorText();
    }
    EXPECT_EQ(allMessages(translation).find(secret), std::string::npos) << allMessages(translation);
}

TEST(runnerPropertiesTranslation, PasswordNeverAppearsInAnyMessage)
{
    const std::string secret = "S3cr3t-hunter2";
    const auto translation = ClientProperties::parse(
                                 // Malformed: no closing semicolon.
                                 "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
                                 "username=\"alice\" password=\""
                                     + secret + "\"\n"
                                     "ssl.truststore.type=JKS\n"
                                     "ssl.truststore.location=/x/truststore.jks\n"
                                     "ssl.truststore.password=" + secret + "\n"
                                     "ssl.keystore.type=BOGUS\n"
                                     "ssl.keystore.password=" + secret + "\n"
                                     "ssl.key.password=" + secret + "\n"
                                     "sasl.oauthbearer.client.secret=" + secret + "\n"
                                     "unknown.secret.password=" + secret + "\n",
                                 "client.properties")
                                 .toLibrdkafka();
    ASSERT_FALSE(translation.ok());
    const std::string text = allMessages(translation);
    EXPECT_EQ(text.find(secret), std::string::npos) << text;
    EXPECT_NE(text.find("sasl.jaas.config: malformed value (masked)"), std::string::npos) << text;
    EXPECT_NE(text.find("unknown.secret.password"), std::string::npos) << text;
}

TEST(runnerPropertiesTranslation, UnsupportedLoginModuleIsRefused)
{
    const auto translation =
        ClientProperties::parse("sasl.jaas.config=com.example.CustomLoginModule required token=\"t\";\n", "c")
            .toLibrdkafka();
    ASSERT_EQ(translation.errors.size(), 1u);
    EXPECT_NE(translation.errors[0].message.find("CustomLoginModule is not supported"), std::string::npos);
}

TEST(runnerPropertiesTranslation, JavaClassesAreRefusedWithAlternative)
{
    const auto translation =
        ClientProperties::parse("partitioner.class=org.apache.kafka.clients.producer.RoundRobinPartitioner\n", "c")
            .toLibrdkafka();
    ASSERT_EQ(translation.errors.size(), 1u);
    EXPECT_NE(translation.errors[0].message.find("murmur2_random"), std::string::npos);
}

TEST(runnerPropertiesTranslation, JavaOnlySettingsAreNoticedNotFatal)
{
    const auto translation = ClientProperties::parse("key.serializer=org.apache.kafka.common.serialization."
                                                     "ByteArraySerializer\n"
                                                     "max.block.ms=60000\n"
                                                     "ssl.enabled.protocols=TLSv1.3\n",
                                                     "c")
                                 .toLibrdkafka();
    EXPECT_TRUE(translation.ok()) << translation.errorText();
    EXPECT_EQ(translation.notices.size(), 3u);
    EXPECT_TRUE(translation.config.empty());
}

TEST(runnerPropertiesTranslation, UnknownKeysAndBadValuesNameLineAndKey)
{
    const auto translation = ClientProperties::parse("linger.ms=5\n"
                                                     "no.such.setting=1\n"
                                                     "acks=sometimes\n",
                                                     "client.properties")
                                 .toLibrdkafka();
    ASSERT_EQ(translation.errors.size(), 2u) << translation.errorText();
    const std::string text = translation.errorText();
    EXPECT_NE(text.find("client.properties:2: no.such.setting: not a librdkafka setting"), std::string::npos) << text;
    EXPECT_NE(text.find("client.properties:3: acks: "), std::string::npos) << text;
}

TEST(runnerPropertiesTranslation, MissingCertificateFileIsReportedAtItsLine)
{
    const auto translation = ClientProperties::parse("security.protocol=SSL\n"
                                                     "ssl.truststore.type=PEM\n"
                                                     "ssl.truststore.location=/nonexistent/ca.pem\n",
                                                     "c.properties")
                                 .toLibrdkafka();
    ASSERT_EQ(translation.errors.size(), 1u);
    EXPECT_EQ(translation.errors[0].toString(),
              "c.properties:3: ssl.truststore.location: file not found: /nonexistent/ca.pem");
}

TEST(runnerPropertiesSecrets, RecognisesSecretKeys)
{
    for (const char *key : {"sasl.password", "ssl.key.password", "ssl.keystore.password", "ssl.truststore.password",
                            "sasl.jaas.config", "sasl.oauthbearer.client.secret", "ssl.key.pem", "ssl.keystore.key"})
        EXPECT_TRUE(ClientProperties::isSecret(key)) << key;
    for (const char *key : {"bootstrap.servers", "sasl.username", "ssl.ca.location", "sasl.oauthbearer.token.endpoint.url"})
        EXPECT_FALSE(ClientProperties::isSecret(key)) << key;
    EXPECT_EQ(ClientProperties::describe("sasl.password", "x"), "sasl.password=<masked>");
    EXPECT_EQ(ClientProperties::describe("acks", "all"), "acks=all");
}

} // namespace
} // namespace plimsoll
