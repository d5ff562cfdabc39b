// The parts of `placement --measure` that need no cluster: the SCAN glob of a topic's stream
// keys and the partition a found key stands for.
#include "runner/redisclusterclient.h"

#include <gtest/gtest.h>

using namespace plimsoll;

TEST(runnerRedisCluster, GlobOfATopicsStreamKeys)
{
    EXPECT_EQ(streamKeyGlob(kKorvetStreamKeyPattern, "logs"), "korvet:stream:logs:*");
    // Glob metacharacters of a topic name are literal.
    EXPECT_EQ(streamKeyGlob("k:{topic}:{partition}", "a*b?[c]"), "k:a\\*b\\?\\[c\\]:*");
    // A hash tag's braces are not glob syntax and stay.
    EXPECT_EQ(streamKeyGlob("s:{{topic}}:{partition}", "t"), "s:{t}:*");
}

TEST(runnerRedisCluster, PartitionOfAKeyIsTheInverseOfItsPattern)
{
    EXPECT_EQ(partitionOfKey(kKorvetStreamKeyPattern, "logs", "korvet:stream:logs:17"), 17);
    EXPECT_EQ(partitionOfKey("s:{{topic}}:{partition}:x", "t", "s:{t}:3:x"), 3);
    EXPECT_FALSE(partitionOfKey(kKorvetStreamKeyPattern, "logs", "korvet:stream:logs:07"));
    EXPECT_FALSE(partitionOfKey(kKorvetStreamKeyPattern, "logs", "korvet:stream:logs:x"));
    EXPECT_FALSE(partitionOfKey(kKorvetStreamKeyPattern, "logs", "korvet:stream:logs2:1"));
    EXPECT_FALSE(partitionOfKey(kKorvetStreamKeyPattern, "logs", "korvet:stream:logs:1:extra"));
}
