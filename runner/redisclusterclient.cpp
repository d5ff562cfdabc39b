#include "runner/redisclusterclient.h"

#include <netdb.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace plimsoll {

namespace {

using Clock = std::chrono::steady_clock;

// One RESP2 reply: '+' simple, '-' error, ':' integer, '$' bulk, '*' array.
struct Resp
{
    char type = 0;
    bool null = false;
    std::string text;
    int64_t integer = 0;
    std::vector<Resp> items;

    bool isError() const { return type == '-'; }
};

// Parses one reply starting at `pos`; false when the buffer does not hold all of it yet.
bool parseResp(const std::string &buf, size_t &pos, Resp &out)
{
    const size_t eol = buf.find("\r\n", pos);
    if (eol == std::string::npos || eol == pos)
        return false;
    out = {};
    out.type = buf[pos];
    const std::string line = buf.substr(pos + 1, eol - pos - 1);
    size_t next = eol + 2;
    switch (out.type) {
    case '+':
    case '-':
        out.text = line;
        break;
    case ':':
        out.integer = std::strtoll(line.c_str(), nullptr, 10);
        break;
    case '$': {
        const long long n = std::strtoll(line.c_str(), nullptr, 10);
        if (n < 0) {
            out.null = true;
            break;
        }
        if (buf.size() < next + size_t(n) + 2)
            return false;
        out.text = buf.substr(next, size_t(n));
        next += size_t(n) + 2;
        break;
    }
    case '*': {
        const long long n = std::strtoll(line.c_str(), nullptr, 10);
        if (n < 0) {
            out.null = true;
            break;
        }
        for (long long i = 0; i < n; ++i) {
            Resp item;
            if (!parseResp(buf, next, item))
                return false;
            out.items.push_back(std::move(item));
        }
        break;
    }
    default:
        out.type = '-';
        out.text = "not a RESP reply: " + line.substr(0, 40);
        break;
    }
    pos = next;
    return true;
}

class Connection
{
public:
    Connection(const std::string &hostPort, std::chrono::milliseconds timeout)
        : m_hostPort(hostPort), m_deadline(Clock::now() + timeout)
    {
        const auto colon = hostPort.rfind(':');
        if (colon == std::string::npos || colon == 0 || colon + 1 == hostPort.size()) {
            m_error = "'" + hostPort + "' is not HOST:PORT";
            return;
        }
        const std::string host = hostPort.substr(0, colon), port = hostPort.substr(colon + 1);
        addrinfo hints{};
        hints.ai_socktype = SOCK_STREAM;
        addrinfo *found = nullptr;
        if (int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
            m_error = hostPort + ": " + ::gai_strerror(rc);
            return;
        }
        // Send and receive time out at the deadline's distance; Linux applies SO_SNDTIMEO to
        // connect() as well.
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count();
        timeval tv{time_t(ms / 1000), suseconds_t((ms % 1000) * 1000)};
        for (addrinfo *a = found; a && m_fd < 0; a = a->ai_next) {
            m_fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
            if (m_fd < 0)
                continue;
            ::setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
            ::setsockopt(m_fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
            if (::connect(m_fd, a->ai_addr, a->ai_addrlen) != 0) {
                ::close(m_fd);
                m_fd = -1;
            }
        }
        ::freeaddrinfo(found);
        if (m_fd < 0)
            m_error = hostPort + ": cannot connect";
    }
    ~Connection()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    const std::string &error() const { return m_error; }

    // The reply, or nullopt with error() set. An error reply is a reply (isError()).
    std::optional<Resp> call(const std::vector<std::string> &args)
    {
        if (m_fd < 0)
            return std::nullopt;
        std::string request = "*" + std::to_string(args.size()) + "\r\n";
        for (const std::string &a : args)
            request += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
        for (size_t sent = 0; sent < request.size();) {
            const ssize_t n = ::send(m_fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
            if (n <= 0)
                return fail("cannot send " + args.front());
            sent += size_t(n);
        }
        for (;;) {
            size_t pos = 0;
            Resp reply;
            if (parseResp(m_buffer, pos, reply)) {
                m_buffer.erase(0, pos);
                return reply;
            }
            if (Clock::now() >= m_deadline)
                return fail("no complete reply to " + args.front() + " in time");
            char chunk[16384];
            const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
            if (n <= 0)
                return fail(n == 0 ? "the server closed the connection"
                                   : "no reply to " + args.front() + " (" + std::strerror(errno) + ")");
            m_buffer.append(chunk, size_t(n));
        }
    }

private:
    std::optional<Resp> fail(const std::string &why)
    {
        m_error = m_hostPort + ": " + why;
        return std::nullopt;
    }

    std::string m_hostPort;
    Clock::time_point m_deadline;
    int m_fd = -1;
    std::string m_error;
    std::string m_buffer;
};

std::string textOf(const Resp &r) { return r.type == ':' ? std::to_string(r.integer) : r.text; }

// A RESP2 map is a flat array of key, value, key, value.
const Resp *field(const Resp &map, const char *key)
{
    for (size_t i = 0; i + 1 < map.items.size(); i += 2)
        if (map.items[i].text == key)
            return &map.items[i + 1];
    return nullptr;
}

bool fromShards(const Resp &reply, ClusterSlotMap &map)
{
    for (const Resp &shard : reply.items) {
        const Resp *slots = field(shard, "slots");
        const Resp *nodes = field(shard, "nodes");
        if (!slots || !nodes)
            return false;
        std::string master;
        for (const Resp &node : nodes->items) {
            const Resp *role = field(node, "role");
            if (!role || role->text != "master")
                continue;
            const Resp *endpoint = field(node, "endpoint");
            const Resp *ip = field(node, "ip");
            const Resp *port = field(node, "port");
            const std::string host =
                endpoint && !endpoint->text.empty() && endpoint->text != "?" ? endpoint->text
                                                                               : (ip ? ip->text : "");
            if (!port || host.empty())
                return false;
            master = host + ":" + textOf(*port);
        }
        if (master.empty())
            continue; // a shard without a master owns no slots now
        for (size_t i = 0; i + 1 < slots->items.size(); i += 2)
            map.ranges.push_back({int(slots->items[i].integer), int(slots->items[i + 1].integer), master});
        if (std::find(map.masters.begin(), map.masters.end(), master) == map.masters.end())
            map.masters.push_back(master);
    }
    return true;
}

bool fromSlots(const Resp &reply, ClusterSlotMap &map)
{
    for (const Resp &range : reply.items) {
        if (range.items.size() < 3 || range.items[2].items.size() < 2)
            return false;
        const std::string master = range.items[2].items[0].text + ":" + textOf(range.items[2].items[1]);
        map.ranges.push_back({int(range.items[0].integer), int(range.items[1].integer), master});
        if (std::find(map.masters.begin(), map.masters.end(), master) == map.masters.end())
            map.masters.push_back(master);
    }
    return true;
}

std::string escapeGlob(const std::string &text)
{
    std::string out;
    for (char c : text) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

} // namespace

ClusterSlotMap readClusterSlotMap(const std::string &hostPort, std::chrono::milliseconds timeout)
{
    ClusterSlotMap map;
    Connection c(hostPort, timeout);
    if (!c.error().empty()) {
        map.error = c.error();
        return map;
    }
    auto reply = c.call({"CLUSTER", "SHARDS"});
    if (!reply) {
        map.error = c.error();
        return map;
    }
    map.source = "CLUSTER SHARDS";
    bool parsed = !reply->isError() && fromShards(*reply, map);
    if (!parsed) {
        // Before Redis 7 there is no CLUSTER SHARDS ("unknown subcommand").
        map.ranges.clear();
        map.masters.clear();
        reply = c.call({"CLUSTER", "SLOTS"});
        if (!reply) {
            map.error = c.error();
            return map;
        }
        if (reply->isError()) {
            map.error = hostPort + ": CLUSTER SLOTS answered " + reply->text;
            return map;
        }
        map.source = "CLUSTER SLOTS";
        if (!fromSlots(*reply, map)) {
            map.error = hostPort + ": CLUSTER SLOTS answered something that is not a slot map";
            return map;
        }
    }
    if (map.ranges.empty()) {
        map.error = hostPort + ": " + map.source + " lists no slots (is the cluster created?)";
        return map;
    }
    // In slot order, masters by their first slot: CLUSTER SHARDS lists shards in no stated
    // order, and one cluster must read the same through either command.
    std::sort(map.ranges.begin(), map.ranges.end(),
              [](const SlotRange &a, const SlotRange &b) { return a.start < b.start; });
    map.masters.clear();
    for (const SlotRange &r : map.ranges)
        if (std::find(map.masters.begin(), map.masters.end(), r.shard) == map.masters.end())
            map.masters.push_back(r.shard);
    map.ok = true;
    return map;
}

MeasuredStreamKeys measureStreamKeys(const ClusterSlotMap &map, const std::string &match,
                                     std::chrono::milliseconds timeout)
{
    MeasuredStreamKeys out;
    out.match = match;
    for (const std::string &master : map.masters) {
        Connection c(master, timeout);
        if (!c.error().empty()) {
            out.error = c.error();
            return out;
        }
        std::vector<std::string> found;
        std::string cursor = "0";
        do {
            const auto reply = c.call({"SCAN", cursor, "MATCH", match, "COUNT", "1000", "TYPE", "stream"});
            if (!reply || reply->isError() || reply->items.size() != 2) {
                out.error = reply ? master + ": SCAN answered " + (reply->isError() ? reply->text : "an odd reply")
                                  : c.error();
                return out;
            }
            cursor = reply->items[0].text;
            for (const Resp &k : reply->items[1].items)
                found.push_back(k.text);
        } while (cursor != "0");
        std::sort(found.begin(), found.end());
        found.erase(std::unique(found.begin(), found.end()), found.end()); // SCAN may repeat a key
        for (const std::string &key : found) {
            const auto usage = c.call({"MEMORY", "USAGE", key});
            if (!usage || usage->isError()) {
                out.error = usage ? master + ": MEMORY USAGE answered " + usage->text : c.error();
                return out;
            }
            out.keys.push_back({key, master,
                                usage->null ? std::nullopt : std::optional<int64_t>(usage->integer)});
        }
    }
    out.ok = true;
    return out;
}

std::string streamKeyGlob(const std::string &pattern, const std::string &topic)
{
    std::string out;
    for (size_t i = 0; i < pattern.size();) {
        if (pattern.compare(i, 7, "{topic}") == 0) {
            out += escapeGlob(topic);
            i += 7;
        } else if (pattern.compare(i, 11, "{partition}") == 0) {
            out += '*';
            i += 11;
        } else {
            out += escapeGlob(std::string(1, pattern[i]));
            ++i;
        }
    }
    return out;
}

std::optional<int> partitionOfKey(const std::string &pattern, const std::string &topic, const std::string &key)
{
    const auto at = pattern.find("{partition}");
    if (at == std::string::npos)
        return std::nullopt;
    const std::string prefix = Placement::streamKey(pattern.substr(0, at), topic, 0);
    if (key.size() <= prefix.size() || key.compare(0, prefix.size(), prefix) != 0)
        return std::nullopt;
    size_t end = prefix.size();
    while (end < key.size() && end - prefix.size() < 9 && key[end] >= '0' && key[end] <= '9')
        ++end;
    if (end == prefix.size())
        return std::nullopt;
    const int partition = std::stoi(key.substr(prefix.size(), end - prefix.size()));
    // The whole key must be what the pattern makes of that partition ("…:07" is not partition 7).
    if (Placement::streamKey(pattern, topic, partition) != key)
        return std::nullopt;
    return partition;
}

} // namespace plimsoll
