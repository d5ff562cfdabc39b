// Runs one client and reports what it cost: wall time and the CPU-seconds of the process and
// everything it waited for (getrusage RUSAGE_CHILDREN through wait4), so a JVM's GC and JIT
// threads count as much as librdkafka's broker threads.
//
//   perf_run RESULT.json STDOUT_FILE -- PROGRAM ARGS...
//
// The client's stdout goes to STDOUT_FILE, its stderr passes through. RESULT.json gets
// {"wall_s", "user_s", "sys_s", "cpu_s", "instructions", "exit_code"}; perf_run exits with the
// client's code. "instructions": the user-space instructions the client and every thread and
// process it started retired (perf_event, counted from its exec), which a noisy neighbour does not
// move as it moves CPU-seconds; null where the kernel does not count them for this user or the
// machine has no such counter (a virtual machine without a PMU).
#include <linux/perf_event.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace {

double seconds(const timeval &tv) { return double(tv.tv_sec) + double(tv.tv_usec) / 1e6; }

// A counter of `pid`'s user-space instructions from its next exec on, its threads and children
// included; -1 when the kernel refuses one.
int instructionCounter(pid_t pid)
{
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.enable_on_exec = 1;
    attr.inherit = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    return int(syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 5 || std::strcmp(argv[3], "--") != 0) {
        std::fprintf(stderr, "usage: perf_run RESULT.json STDOUT_FILE -- PROGRAM ARGS...\n");
        return 2;
    }
    // The child waits for its counter before it execs: `go` closes once it is open (or refused).
    int go[2];
    if (pipe(go) != 0) {
        std::perror("perf_run: pipe");
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0) {
        std::perror("perf_run: fork");
        return 2;
    }
    if (pid == 0) {
        close(go[1]);
        char byte;
        while (read(go[0], &byte, 1) < 0 && errno == EINTR) {
        }
        close(go[0]);
        const int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
            std::perror("perf_run: stdout file");
            _exit(127);
        }
        close(fd);
        execvp(argv[4], argv + 4);
        std::perror("perf_run: exec");
        _exit(127);
    }
    close(go[0]);
    const int counter = instructionCounter(pid);
    close(go[1]);
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) < 0) {
        std::perror("perf_run: wait4");
        return 2;
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // wait4's rusage covers the child; its own children (a shell's exec'd java) are the same
    // process after exec. Grandchildren it waited for are added by RUSAGE_CHILDREN below.
    rusage children{};
    getrusage(RUSAGE_CHILDREN, &children);
    const double user = std::max(seconds(usage.ru_utime), seconds(children.ru_utime));
    const double sys = std::max(seconds(usage.ru_stime), seconds(children.ru_stime));
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    char instructions[32] = "null";
    if (long long count = 0; counter >= 0 && read(counter, &count, sizeof count) == sizeof count)
        std::snprintf(instructions, sizeof instructions, "%lld", count);
    FILE *out = std::fopen(argv[1], "w");
    if (!out) {
        std::perror("perf_run: result file");
        return 2;
    }
    std::fprintf(out,
                 "{\"wall_s\": %.3f, \"user_s\": %.3f, \"sys_s\": %.3f, \"cpu_s\": %.3f, \"instructions\": %s, "
                 "\"exit_code\": %d}\n",
                 wall, user, sys, user + sys, instructions, code);
    std::fclose(out);
    return code;
}
