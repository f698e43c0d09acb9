/**
 * Issue 28: import reads a dump in time linear in its size. Dumps of 2.5 and 10 MB (a schema,
 * then rows as INSERT statements, as `pg_dump --inserts` and `mysqldump` write them) in the
 * PostgreSQL and MySQL dialects, each imported by the built CLI in a child process, measured
 * from outside: wall time and peak RSS. Target: 10 MB in under 20 s, and the 10 MB dump at most
 * 6 times the 2.5 MB one's time (linear with the start-up; quadratic would be 16 times).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Bench } from "./bench.js";
import { runMeasured } from "./measured-process.js";

const CLI = join(dirname(fileURLToPath(import.meta.url)), "..", "cli", "main.js");
const LIMIT_MS = 20_000;
const SIZES_MB = [2.5, 10] as const;
/** Under the CLI's 10 MB (10,485,760 bytes) input limit. */
const MB = 1_000_000;

/** A dump of `bytes`: two tables, then INSERTs of 50 rows each (strings with `;` inside). */
function dump(dialect: "postgresql" | "mysql", bytes: number): string {
  const q = (name: string) => (dialect === "mysql" ? `\`${name}\`` : name);
  const lines = [
    `CREATE TABLE ${q("customer")} (${q("customer_id")} integer NOT NULL, ${q("name")} varchar(50) NOT NULL, PRIMARY KEY (${q("customer_id")}));`,
    `CREATE TABLE ${q("orders")} (${q("order_id")} integer NOT NULL, ${q("customer_id")} integer NOT NULL, ${q("note")} varchar(80), PRIMARY KEY (${q("order_id")}), FOREIGN KEY (${q("customer_id")}) REFERENCES ${q("customer")} (${q("customer_id")}));`,
  ];
  let size = lines.join("\n").length;
  for (let i = 0; size < bytes; i++) {
    const rows = Array.from(
      { length: 50 },
      (_, j) => `(${i * 50 + j}, ${((i * 50 + j) % 1000) + 1}, 'order ${i * 50 + j}; a note')`,
    );
    const line = `INSERT INTO ${q("orders")} VALUES ${rows.join(", ")};`;
    if (size + line.length + 1 > bytes) break;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

export const bench: Bench = {
  name: "import of large dumps (issue 28: linear time, 10 MB under 20 s)",
  run() {
    const dir = mkdtempSync(join(tmpdir(), "import-size-"));
    const rows: string[] = [];
    const failures: string[] = [];
    try {
      for (const dialect of ["postgresql", "mysql"] as const) {
        const times: number[] = [];
        for (const mb of SIZES_MB) {
          const file = join(dir, `${dialect}-${mb}.sql`);
          writeFileSync(file, dump(dialect, mb * MB));
          const run = runMeasured(CLI, ["import", file, "--out", join(dir, `${dialect}-${mb}`)], {
            timeoutMs: 3 * LIMIT_MS,
          });
          times.push(run.wallMs);
          rows.push(
            `  ${dialect} ${mb} MB: ${(run.wallMs / 1000).toFixed(1)} s, peak RSS ${run.maxRssMiB?.toFixed(0) ?? "?"} MiB, exit ${run.status ?? run.signal}`,
          );
          if (run.status !== 0) failures.push(`${dialect} ${mb} MB exited ${run.status ?? run.signal}`);
          if (mb === 10 && run.wallMs > LIMIT_MS)
            failures.push(`${dialect} 10 MB took ${(run.wallMs / 1000).toFixed(1)} s`);
        }
        const [small = 1, large = 1] = times;
        if (large / small > 6)
          failures.push(`${dialect}: 10 MB took ${(large / small).toFixed(1)}x the time of 2.5 MB`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const passed = failures.length === 0;
    return Promise.resolve({
      passed,
      ran: true,
      report: [...rows, passed ? "targets met" : `missed: ${failures.join("; ")}`].join("\n"),
    });
  },
};
