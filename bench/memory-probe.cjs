// Preloaded into a service by bench/banking-memory.ts (node -r): every 250 ms it writes the process's
// memory figures (process.memoryUsage and V8's heap spaces, in MB) to MEMORY_PROBE_FILE, whole
// (written to a side file and renamed, so a reader never sees half of it).
const { writeFileSync, renameSync } = require('node:fs');
const v8 = require('node:v8');
const file = process.env.MEMORY_PROBE_FILE;
const mb = (x) => Math.round((x / 1048576) * 10) / 10;
if (file) {
  setInterval(() => {
    const m = process.memoryUsage();
    const spaces = {};
    for (const s of v8.getHeapSpaceStatistics())
      spaces[s.space_name] = { size: mb(s.space_size), used: mb(s.space_used_size) };
    writeFileSync(
      `${file}.tmp`,
      JSON.stringify({
        rss: mb(m.rss),
        heapTotal: mb(m.heapTotal),
        heapUsed: mb(m.heapUsed),
        external: mb(m.external),
        spaces,
      }),
    );
    renameSync(`${file}.tmp`, file);
  }, 250).unref();
}
