import { spawn } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BENCH_DATA_DIR, REPO_ROOT } from "../../src/test-support/model-examples.js";

const repo = REPO_ROOT;
const cli = resolve(repo, "dist/cli/main.js");
const measurements = resolve(BENCH_DATA_DIR, "ru-measurements.jsonl");

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function runCli(args: readonly string[], stdin?: string): Promise<Outcome> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: repo });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

beforeAll(async () => {
  // dist/ is built by `npm test`, or by vitest's global setup (test/support/global-setup.ts).
  await readFile(cli);
});

describe("cosmos-modeler estimate-ru", () => {
  it("estimates every line of the benchmark file, in order, with --json", async () => {
    const text = await readFile(measurements, "utf8");
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    const outcome = await runCli(["estimate-ru", measurements, "--json"]);
    expect(outcome.code).toBe(0);
    const parsed = JSON.parse(outcome.stdout) as {
      estimates: { estimate: number; low: number; high: number }[];
    };
    expect(Object.keys(parsed)).toEqual(["estimates"]);
    expect(parsed.estimates).toHaveLength(lines.length);
    for (const estimate of parsed.estimates) {
      expect(Object.keys(estimate)).toEqual(["estimate", "low", "high"]);
      expect(estimate.low).toBeLessThanOrEqual(estimate.estimate);
      expect(estimate.estimate).toBeLessThanOrEqual(estimate.high);
    }
    // Against the measurements the coefficients were fitted on (the calibration split): at least
    // 90% inside the printed ranges. The held-out split is the bench's (estimator-accuracy).
    const rows = lines.map((line) => JSON.parse(line) as { measuredRU: number; split: string });
    const fitted = parsed.estimates.filter((_, index) => rows[index]?.split === "calibration");
    const inside = parsed.estimates.filter((estimate, index) => {
      const row = rows[index];
      return (
        row?.split === "calibration" && estimate.low <= row.measuredRU && row.measuredRU <= estimate.high
      );
    });
    expect(fitted.length).toBeGreaterThan(40);
    expect(inside.length / fitted.length).toBeGreaterThanOrEqual(0.9);
  });

  it("reads standard input with -, skips blank lines, and prints a table without --json", async () => {
    const input = '{"op":"read","itemBytes":819}\n\n{"op":"create","itemBytes":819,"indexedValues":0}\n';
    const json = await runCli(["estimate-ru", "-", "--json"], input);
    expect(json.code).toBe(0);
    const { estimates } = JSON.parse(json.stdout) as { estimates: { estimate: number }[] };
    expect(estimates.map((estimate) => estimate.estimate)).toHaveLength(2);
    expect(estimates[0]?.estimate).toBe(1); // documented: a 1 KB point read costs 1 RU
    expect(estimates[1]?.estimate).toBeGreaterThan(5); // documented: ~5.5 RU unindexed insert
    expect(estimates[1]?.estimate).toBeLessThan(6);

    const table = await runCli(["estimate-ru", "-"], input);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/RU estimate/);
    expect(table.stdout.split("\n")[1]).toMatch(/^\s*1\s+read\s+itemBytes=819\s+1\.00/);
    expect(table.stdout.split("\n")[2]).toMatch(/^\s*3\s+create/);
  });

  it("reports every bad line with file, line and field, and exits 1 with only {issues} on stdout", async () => {
    const dir = await mkdtemp(join(tmpdir(), "estimate-ru-"));
    const file = join(dir, "ops.jsonl");
    await writeFile(
      file,
      '{"op":"read","itemBytes":819}\n{"op":"raed","itemBytes":10}\nnot json\n{"op":"create","itemBytes":-5}\n',
    );
    const outcome = await runCli(["estimate-ru", file, "--json"]);
    expect(outcome.code).toBe(1);
    const printed = JSON.parse(outcome.stdout) as { issues: { code: string; line: number }[] };
    expect(printed.issues.map((issue) => [issue.code, issue.line])).toEqual([
      ["operation.invalidOp", 2],
      ["operation.invalidJson", 3],
      ["operation.invalidNumber", 4],
    ]);
    expect(outcome.stderr).toContain(`${file}:2 op: op must be one of read, create`);
    expect(outcome.stderr).toContain(`${file}:3: not a JSON object`);
    expect(outcome.stderr).toContain(`${file}:4 itemBytes: itemBytes must be a non-negative number; got -5`);
    expect(outcome.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it("names stdin in issues and fails on a missing file", async () => {
    const bad = await runCli(["estimate-ru", "-"], '{"op":"query","partitions":0}\n');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("<stdin>:1 partitions:");
    const missing = await runCli(["estimate-ru", join(tmpdir(), "does-not-exist.jsonl")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cli.fileNotFound");
  });
});
