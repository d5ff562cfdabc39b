// The engine `make test` runs: any compiler, no libFuzzer. It replays every seed and every
// recorded finding (tests/data/fuzz-regressions/<target>/) exactly, then runs a bounded,
// deterministic mutation loop over the seeds (fixed RNG seed, so a failure in CI is the same
// failure on a laptop). It cannot steer by coverage as libFuzzer does; its job is to keep
// findings fixed and catch gross regressions within seconds, under ASan/UBSan in
// `make test-asan`. Finding new bugs is `make fuzz`'s job.
//
//   fuzz_<target>_replay [--seconds S] [--max-runs N] [--timeout S] [--crash-dir DIR] PATH...
//
// On a crash, abort or per-input timeout the input is written to DIR (default: the working
// directory) as crash-<hash>, and its name is printed, ready to become a regression file.

#include "fuzz/fuzztarget.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

// The input under test, for the signal handler: written out as the finding.
const std::string *g_current = nullptr;
char g_crashPath[4096] = "crash-input";

void writeAll(int fd, const char *p, size_t n)
{
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w <= 0)
            return;
        p += w;
        n -= size_t(w);
    }
}

// Async-signal-safe: open/write/close only, then the default action (core, exit code).
void onFatal(int sig)
{
    const char *what = sig == SIGALRM ? "timeout" : "crash";
    if (g_current) {
        const int fd = ::open(g_crashPath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            writeAll(fd, g_current->data(), g_current->size());
            ::close(fd);
        }
        writeAll(2, "\nfuzz replay: ", 14);
        writeAll(2, what, std::strlen(what));
        writeAll(2, " on the input saved as ", 23);
        writeAll(2, g_crashPath, std::strlen(g_crashPath));
        writeAll(2, "\n", 1);
    }
    std::signal(sig == SIGALRM ? SIGABRT : sig, SIG_DFL);
    std::raise(sig == SIGALRM ? SIGABRT : sig);
}

std::string readFile(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void collect(const fs::path &path, std::vector<fs::path> &out)
{
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        for (const auto &entry : fs::recursive_directory_iterator(path, ec)) {
            if (entry.is_regular_file(ec))
                out.push_back(entry.path());
        }
    } else if (fs::is_regular_file(path, ec)) {
        out.push_back(path);
    }
}

// Tokens that matter to the formats Plimsoll reads: structure, numbers at the edges of
// their types, escapes, line ends.
const char *const kDictionary[] = {
    "[", "]", "{", "}", "\"", ",", ":", "=", "\\", "\\u", "\\ud800", "\n", "\r\n", "\t", "#",
    " ", "-", "0", "-1", "1e308", "-1e308", "1e-320", "NaN", "nan", "+Inf", "inf", "9223372036854775807",
    "18446744073709551616", "-9223372036854775808", "0x", "null", "true", "{\"a\":", "[[[[[[[[",
    "\xEF\xBB\xBF", "\0", "PT", "ms", "KB", "GB", "le=\"", "# TYPE ", "HISTFAaA", "Tag=",
};

// The edge numbers above: kDictionary[kFirstNumber .. kFirstNumber + kNumbers).
constexpr size_t kFirstNumber = 18;
constexpr size_t kNumbers = 11;

std::string mutate(std::mt19937_64 &rng, const std::vector<std::string> &seeds, size_t maxLen)
{
    auto pick = [&rng](size_t n) { return n == 0 ? size_t(0) : size_t(rng() % n); };
    std::string s = seeds[pick(seeds.size())];
    const int rounds = 1 + int(rng() % 4);
    for (int r = 0; r < rounds; ++r) {
        switch (rng() % 8) {
        case 0: // flip a bit
            if (!s.empty())
                s[pick(s.size())] ^= char(1u << (rng() % 8));
            break;
        case 1: // a random byte
            if (!s.empty())
                s[pick(s.size())] = char(rng());
            break;
        case 2: { // insert a dictionary token
            const std::string token = kDictionary[pick(std::size(kDictionary))];
            s.insert(pick(s.size() + 1), token.empty() ? std::string(1, '\0') : token);
            break;
        }
        case 3: { // delete a range
            if (s.empty())
                break;
            const size_t at = pick(s.size());
            s.erase(at, 1 + pick(std::min<size_t>(s.size() - at, 64)));
            break;
        }
        case 4: { // repeat a range (nesting, long lines, many records)
            if (s.empty())
                break;
            const size_t at = pick(s.size());
            const std::string chunk = s.substr(at, 1 + pick(std::min<size_t>(s.size() - at, 32)));
            const size_t times = 1 + pick(64);
            std::string repeated;
            for (size_t i = 0; i < times && repeated.size() < maxLen; ++i)
                repeated += chunk;
            s.insert(at, repeated);
            break;
        }
        case 5: // truncate
            s.resize(pick(s.size() + 1));
            break;
        case 6: { // splice with another seed
            const std::string &other = seeds[pick(seeds.size())];
            s = s.substr(0, pick(s.size() + 1)) + other.substr(pick(other.size() + 1));
            break;
        }
        default: { // an edge number replaces a digit run
            const size_t at = s.find_first_of("0123456789", pick(s.size() + 1));
            if (at == std::string::npos)
                break;
            const size_t end = std::min(s.find_first_not_of("0123456789.", at), s.size());
            s.replace(at, end - at, kDictionary[kFirstNumber + pick(kNumbers)]);
            break;
        }
        }
        if (s.size() > maxLen)
            s.resize(maxLen);
    }
    return s;
}

void runOne(const std::string &input, unsigned timeoutSeconds)
{
    g_current = &input;
    ::alarm(timeoutSeconds);
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(input.data()), input.size());
    ::alarm(0);
    g_current = nullptr;
}

} // namespace

int main(int argc, char **argv)
{
    double seconds = 3;
    long maxRuns = 1000000;
    unsigned timeout = 20;
    size_t maxLen = 256 * 1024;
    std::string crashDir = ".";
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "fuzz replay: %s needs a value\n", arg.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (arg == "--seconds")
            seconds = std::stod(value());
        else if (arg == "--max-runs")
            maxRuns = std::stol(value());
        else if (arg == "--timeout")
            timeout = unsigned(std::stoul(value()));
        else if (arg == "--crash-dir")
            crashDir = value();
        else
            collect(arg, files);
    }
    std::sort(files.begin(), files.end()); // a fixed order: the same run everywhere
    LLVMFuzzerInitialize(&argc, &argv);
    // On an alternate stack: a stack overflow (the commonest finding so far) leaves no room
    // on the normal one to save the input.
    static char alternateStack[256 * 1024];
    stack_t ss{};
    ss.ss_sp = alternateStack;
    ss.ss_size = sizeof alternateStack;
    sigaltstack(&ss, nullptr);
    struct sigaction action{};
    action.sa_handler = onFatal;
    action.sa_flags = SA_ONSTACK;
    for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL, SIGALRM})
        sigaction(sig, &action, nullptr);

    std::vector<std::string> seeds;
    for (const fs::path &file : files) {
        std::snprintf(g_crashPath, sizeof g_crashPath, "%s/crash-replay-%s", crashDir.c_str(),
                      file.filename().c_str());
        seeds.push_back(readFile(file));
        runOne(seeds.back(), timeout);
    }
    if (seeds.empty())
        seeds.emplace_back();

    std::mt19937_64 rng(20260511);
    const auto start = std::chrono::steady_clock::now();
    const auto budget = std::chrono::duration<double>(seconds);
    long runs = 0;
    while (runs < maxRuns && std::chrono::steady_clock::now() - start < budget) {
        const std::string input = mutate(rng, seeds, maxLen);
        std::snprintf(g_crashPath, sizeof g_crashPath, "%s/crash-mutation-%ld", crashDir.c_str(),
                      runs);
        runOne(input, timeout);
        ++runs;
    }
    std::printf("fuzz replay: %zu inputs replayed, %ld mutations in %.1f s, no failure\n",
                files.size(), runs,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return 0;
}
