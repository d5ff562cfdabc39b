#include "model/sizing/placement.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <numeric>

using namespace plimsoll;

TEST(Crc16, MatchesPublishedVectors)
{
    // The CRC catalogue's check value for CRC-16/XMODEM.
    EXPECT_EQ(Placement::crc16("123456789"), 0x31C3);
    EXPECT_EQ(Placement::crc16(""), 0x0000);
    // Redis Cluster specification and CLUSTER KEYSLOT documentation.
    EXPECT_EQ(Placement::hashSlot("foo"), 12182);
    EXPECT_EQ(Placement::hashSlot("bar"), 5061);
    EXPECT_EQ(Placement::hashSlot("somekey"), 11058);
    EXPECT_EQ(Placement::hashSlot("foo{hash_tag}"), 2515);
}

TEST(HashSlot, FollowsRedisHashTagRules)
{
    EXPECT_EQ(Placement::hashSlot("{user1000}.following"),
              Placement::hashSlot("{user1000}.followers"));
    EXPECT_EQ(Placement::hashSlot("{user1000}.following"), Placement::hashSlot("user1000"));
    // Empty tag: the whole key is hashed.
    EXPECT_EQ(Placement::hashSlot("foo{}{bar}"), Placement::crc16("foo{}{bar}") % 16384);
    EXPECT_NE(Placement::hashSlot("foo{}{bar}"), Placement::hashSlot("bar"));
    // First '{' to the first '}' after it.
    EXPECT_EQ(Placement::hashSlot("foo{{bar}}zap"), Placement::crc16("{bar") % 16384);
    EXPECT_EQ(Placement::hashSlot("foo{bar}{zap}"), Placement::hashSlot("bar"));
    // An unclosed brace is no tag.
    EXPECT_EQ(Placement::hashSlot("foo{bar"), Placement::crc16("foo{bar") % 16384);
}

TEST(Placement, StreamKeysFollowThePattern)
{
    EXPECT_EQ(Placement::streamKey(kKorvetStreamKeyPattern, "logs", 7), "korvet:stream:logs:7");
    EXPECT_EQ(Placement::streamKey("k:{{topic}}:{partition}", "logs", 3), "k:{logs}:3");
    // A hash-tagged pattern puts the whole topic on one shard.
    const PlacementResult tagged =
        Placement::evenShards(24, "k:{{topic}}:{partition}").place("logs", 96);
    ASSERT_TRUE(tagged.ok);
    EXPECT_EQ(tagged.maxPerShard, 96);
    EXPECT_EQ(tagged.emptyShards.size(), 23u);
}

TEST(Placement, EvenSlotRangesGiveTheRemainderToEarlierShards)
{
    const PlacementResult r = Placement::evenShards(24).place("logs", 1);
    ASSERT_TRUE(r.ok);
    ASSERT_EQ(r.shards.size(), 24u);
    EXPECT_EQ(r.shards.front().slotCount, 683);
    EXPECT_EQ(r.shards[15].slotCount, 683);
    EXPECT_EQ(r.shards[16].slotCount, 682);
    int total = 0;
    for (const ShardLoad &s : r.shards)
        total += s.slotCount;
    EXPECT_EQ(total, 16384);
}

TEST(Placement, NinetySixPartitionsOnTwentyFourShardsBeatTwentyFour)
{
    const Placement cluster = Placement::evenShards(24);
    const PlacementResult equal = cluster.place("logs", 24);
    const PlacementResult fourfold = cluster.place("logs", 96);
    ASSERT_TRUE(equal.ok);
    ASSERT_TRUE(fourfold.ok);
    // The seed's claim: equal counts leave some shards double-loaded and others empty.
    EXPECT_FALSE(equal.emptyShards.empty());
    EXPECT_GE(equal.maxPerShard, 2);
    EXPECT_LT(fourfold.maxSkew, equal.maxSkew);
    EXPECT_LT(fourfold.emptyShards.size(), equal.emptyShards.size());
    int placed = 0;
    for (const ShardLoad &s : fourfold.shards)
        placed += int(s.partitions.size());
    EXPECT_EQ(placed, 96);
    std::printf("logs: 24 partitions → max %d, skew %.2f, %zu empty; 96 → max %d min %d, skew "
                "%.2f, %zu empty\n",
                equal.maxPerShard, equal.maxSkew, equal.emptyShards.size(), fourfold.maxPerShard,
                fourfold.minPerShard, fourfold.maxSkew, fourfold.emptyShards.size());
}

TEST(Placement, RecommendationIsAMultipleOfBrokersAndMeetsTheTarget)
{
    const Placement cluster = Placement::evenShards(24);
    const PartitionRecommendation r = cluster.recommendPartitions(3, "logs", 1.25);
    std::printf("recommendation: %s\n", r.reason.c_str());
    ASSERT_GT(r.partitions, 0);
    EXPECT_GE(r.partitions, 96);
    EXPECT_EQ(r.partitions % 3, 0);
    EXPECT_EQ(r.placement.partitions, r.partitions);
    EXPECT_DOUBLE_EQ(r.placement.maxSkew, r.skew);
    if (r.found) {
        EXPECT_LE(r.skew, 1.25);
        // Smallest: no smaller multiple of 3 from 96 up meets the target.
        for (int p = 96; p < r.partitions; p += 3)
            EXPECT_GT(cluster.place("logs", p).maxSkew, 1.25) << p;
    }

    // A target this loose is met at the first candidate; 5 brokers round 96 up to 100.
    const PartitionRecommendation loose = cluster.recommendPartitions(5, "logs", 100.0);
    EXPECT_TRUE(loose.found);
    EXPECT_EQ(loose.partitions, 100);
    EXPECT_NE(loose.reason.find("5 brokers"), std::string::npos) << loose.reason;

    // An unreachable target reports the least skewed candidate and says why.
    const PartitionRecommendation impossible = cluster.recommendPartitions(3, "logs", 1.0, 4, 8);
    EXPECT_FALSE(impossible.found);
    EXPECT_GE(impossible.partitions, 96);
    EXPECT_LE(impossible.partitions, 192);
    EXPECT_NE(impossible.reason.find("least skewed"), std::string::npos) << impossible.reason;
}

TEST(Placement, ExplicitSlotMapsAreHonouredAndChecked)
{
    // Two shards, one of them owning two ranges (as after a reshard).
    const Placement map({{0, 4999, "a"}, {5000, 9999, "b"}, {10000, 16383, "a"}});
    const PlacementResult r = map.place("logs", 8);
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.shards.size(), 2u);
    EXPECT_EQ(r.shards[0].slotCount, 5000 + 6384);
    for (int p = 0; p < 8; ++p) {
        const int slot = r.partitionSlot[size_t(p)];
        EXPECT_EQ(slot, Placement::hashSlot("korvet:stream:logs:" + std::to_string(p)));
        EXPECT_EQ(r.shards[size_t(r.partitionShard[size_t(p)])].shard,
                  slot >= 5000 && slot <= 9999 ? "b" : "a");
    }

    const PlacementResult hole = Placement({{0, 100, "a"}}).place("logs", 4);
    EXPECT_FALSE(hole.ok);
    EXPECT_NE(hole.error.find("slot 101 is not owned"), std::string::npos) << hole.error;
    const PlacementResult overlap = Placement({{0, 9000, "a"}, {9000, 16383, "b"}}).place("x", 1);
    EXPECT_FALSE(overlap.ok);
    EXPECT_NE(overlap.error.find("slot 9000"), std::string::npos) << overlap.error;
    EXPECT_FALSE(Placement::evenShards(0).place("logs", 4).ok);
}
