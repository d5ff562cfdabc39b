// The loss-proof path's own cost: what a producer spends on each value's envelope and what a
// consumer spends checking it, at the suite's record size (1 KiB), beside the checksums it
// was chosen among — zlib's CRC-32 (version 1 before), ISA-L's CRC-32 and CRC-32C.
#include "runner/envelope.h"

#include <benchmark/benchmark.h>

#include <zlib.h>

#include <string>

namespace {

using namespace plimsoll;

constexpr std::size_t kRecordBytes = 1024;

std::array<uint8_t, 16> someRunId()
{
    std::array<uint8_t, 16> id{};
    Envelope::runIdFromUuid("0f8e2a44-5b1c-4d2e-9a7f-3c6b1d0e9f21", id);
    return id;
}

void BM_EnvelopeWrite(benchmark::State &state)
{
    EnvelopeWriter writer(someRunId(), 1, kRecordBytes);
    uint64_t sequence = 0;
    for (auto _ : state) {
        const std::string_view value = writer.write(sequence, int64_t(sequence) * 1000);
        ++sequence;
        benchmark::DoNotOptimize(value.data());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kRecordBytes));
}
BENCHMARK(BM_EnvelopeWrite);

void BM_EnvelopeReadVerified(benchmark::State &state)
{
    EnvelopeWriter writer(someRunId(), 1, kRecordBytes);
    const std::string value(writer.write(1, 1000));
    Envelope out;
    for (auto _ : state) {
        benchmark::DoNotOptimize(readEnvelope(value, true, out));
        benchmark::DoNotOptimize(out.sequence);
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kRecordBytes));
}
BENCHMARK(BM_EnvelopeReadVerified);

void BM_EnvelopeReadUnverified(benchmark::State &state)
{
    EnvelopeWriter writer(someRunId(), 1, kRecordBytes);
    const std::string value(writer.write(1, 1000));
    Envelope out;
    for (auto _ : state) {
        benchmark::DoNotOptimize(readEnvelope(value, false, out));
        benchmark::DoNotOptimize(out.sequence);
    }
}
BENCHMARK(BM_EnvelopeReadUnverified);

// The candidates, each over one record's 1 KiB.
template <typename Crc> void checksumOfOneRecord(benchmark::State &state, Crc crc)
{
    std::string value(kRecordBytes, '\0');
    for (std::size_t i = 0; i < value.size(); ++i)
        value[i] = char('a' + i * 7 % 26);
    for (auto _ : state)
        benchmark::DoNotOptimize(crc(value));
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kRecordBytes));
}

void BM_Crc32Zlib(benchmark::State &state)
{
    checksumOfOneRecord(state, [](const std::string &v) {
        return crc32(0, reinterpret_cast<const Bytef *>(v.data()), uInt(v.size()));
    });
}
BENCHMARK(BM_Crc32Zlib);

void BM_Crc32IsaL(benchmark::State &state)
{
    checksumOfOneRecord(state, [](const std::string &v) { return crc32Of(v.data(), v.size()); });
}
BENCHMARK(BM_Crc32IsaL);

void BM_Crc32cIsaL(benchmark::State &state)
{
    checksumOfOneRecord(state, [](const std::string &v) { return crc32cOf(v.data(), v.size()); });
}
BENCHMARK(BM_Crc32cIsaL);

} // namespace

BENCHMARK_MAIN();
