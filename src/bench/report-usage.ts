/**
 * Preloaded (`node --import`) into a process a bench measures: at exit, writes the process's
 * peak resident set size to file descriptor 3 as JSON (`{"maxRssKiB": n}`), where
 * measured-process.ts reads it. A process without descriptor 3 writes nothing.
 */
import { writeSync } from "node:fs";

process.on("exit", () => {
  try {
    writeSync(3, JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS }));
  } catch {
    // No descriptor 3: not run by a bench.
  }
});
