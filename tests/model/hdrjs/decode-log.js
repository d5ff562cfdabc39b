// Reads an HdrHistogram interval log with hdr-histogram-js (HdrHistogram's JavaScript
// implementation) and prints, per interval, what the reference decoder sees: tag, count,
// percentiles, max, start and end timestamps (ms since the epoch). Used by Plimsoll's
// interop test to check that logs written by HdrLogWriter read back in HdrHistogram.
// Usage: node decode-log.js LOG   (NODE_PATH names the node_modules holding hdr-histogram-js)
const fs = require("fs");
const hdr = require("hdr-histogram-js");

const reader = new hdr.HistogramLogReader(fs.readFileSync(process.argv[2], "utf8"));
const out = [];
for (let h = reader.nextIntervalHistogram(); h !== null; h = reader.nextIntervalHistogram()) {
  out.push({
    tag: h.tag || "",
    count: h.totalCount,
    p50: h.getValueAtPercentile(50),
    p99: h.getValueAtPercentile(99),
    p999: h.getValueAtPercentile(99.9),
    max: h.maxValue,
    start: h.startTimeStampMsec,
    end: h.endTimeStampMsec,
  });
}
process.stdout.write(JSON.stringify(out));
