/**
 * End-to-end tests of `cosmos-modeler verify`: the built CLI on the embedded endpoint with the
 * blogging example (small data through the test-only --max-items), the feed fixture of
 * test/fixtures/verify, a fault injected into the maintenance, wrong usage, and a connection
 * string that is never printed.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { examplePath, REPO_ROOT } from "../../src/test-support/model-examples.js";

const run = promisify(execFile);
const repo = REPO_ROOT;
const cli = resolve(repo, "dist/cli/main.js");
const workload = examplePath("blogging/workload.yaml");
const expert = examplePath("blogging/expert-model.yaml");
const SMALL = ["--max-items", "200"];

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((done, fail) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("COSMOS_")),
    ) as Record<string, string>;
    const child = spawn(process.execPath, [cli, ...args], { cwd: repo, env: { ...clean, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end();
  });
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

beforeAll(async () => {
  // `npm test` builds first; run alone, build when dist/ is older than the sources.
  const built = resolve(repo, "dist/cli/commands/verify.js");
  if (!existsSync(built) || statSync(built).mtimeMs < newestSource(resolve(repo, "src"))) {
    await run(
      process.execPath,
      [resolve(repo, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
      {
        cwd: repo,
      },
    ).catch(() => undefined);
  }
  expect(existsSync(built)).toBe(true);
}, 120_000);

interface ReportJson {
  endpoint: { kind: string };
  databaseId: string;
  kept: boolean;
  ok: boolean;
  patterns: {
    patternId: string;
    type: string;
    status: string;
    detail?: string;
    measuredRu?: number;
    estimatedRu: { estimate: number; low: number; high: number };
    requests: number;
  }[];
  counts: { passed: number; failed: number; notCheckable: number };
  probes: { probe: string; status: string; counted?: unknown; patternId?: string }[];
  probeCounts: { passed: number; failed: number; notCheckable: number };
  limitations: { capability: string; reason: string }[];
}

describe("cosmos-modeler verify", () => {
  it("passes the blogging expert model on the embedded endpoint and prints one JSON document", async () => {
    const outcome = await runCli(["verify", workload, expert, "--json", ...SMALL]);
    expect(outcome.stderr).toBe("");
    expect(outcome.code).toBe(0);
    const report = JSON.parse(outcome.stdout) as ReportJson;
    expect(report.endpoint.kind).toBe("embedded");
    expect(report.ok).toBe(true);
    expect(report.counts).toEqual({ passed: 10, failed: 0, notCheckable: 0 });
    expect(report.patterns.map((p) => p.patternId)).toEqual([
      "C1",
      "Q1",
      "C2",
      "Q2",
      "Q3",
      "C3",
      "Q4",
      "C4",
      "Q5",
      "Q6",
    ]);
    // The embedded endpoint's flat 1 RU is not a measurement.
    expect(report.patterns.every((p) => p.measuredRu === undefined)).toBe(true);
    expect(report.limitations.map((l) => l.capability)).toContain("measuresRequestCharge");
    // The probes of the generated code: two counters raced with edits, every query paged.
    expect(report.probes.filter((p) => p.probe === "concurrentCounter")).toEqual([
      expect.objectContaining({ status: "passed", counted: [20] }),
      expect.objectContaining({ status: "passed", counted: [20] }),
    ]);
    expect(report.probes.filter((p) => p.probe === "paging").map((p) => p.patternId)).toContain("Q6");
    expect(report.probeCounts.failed).toBe(0);
  }, 60_000);

  // One text run shows the table, the seed, a fault and exit 1 (the library tests in
  // test/verify/verify.test.ts check each fault and a model that keeps too few feed items).
  it("prints a table per pattern, n/a (embedded) for charges, the database removed, and exits 1 naming Q2 when a counter increment is dropped on purpose (--fault)", async () => {
    const outcome = await runCli([
      "verify",
      workload,
      expert,
      ...SMALL,
      "--seed",
      "3",
      "--fault",
      "drop-counter",
    ]);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toMatch(/^pattern\s+type\s+result\s+RU measured\s+RU estimated\s+latency/m);
    expect(outcome.stdout).toMatch(/^Q6\s+read\s+passed\s+n\/a \(embedded\)\s+\d/m);
    expect(outcome.stdout).toContain("seed 3, fault injected: drop-counter");
    expect(outcome.stdout).toMatch(/database cosmos-modeler-verify-\S+ removed/);
    expect(outcome.stdout).toMatch(/^Q2\s+read\s+FAILED/m);
    expect(outcome.stdout).toMatch(/^ {2}Q2: .*count\((Comment|Like)\): expected \d+, got \d+/m);
    expect(outcome.stdout).toMatch(
      /^ {2}FAILED: posts\/post\.likeCount: 20 Like created while the holder is edited 20 times\n {4}expected 20, counted 0; 0 writes failed$/m,
    );
    expect(outcome.stdout).toMatch(/^result: \d+ passed, [1-9]\d* failed, 0 not checkable here; probes: /m);
  }, 60_000);

  it("scales the data with --scale and reports the records it generated", async () => {
    // --max-items bounds the comments and likes (2,000 each without it); the users and posts
    // stay as scaled.
    const outcome = await runCli([
      "verify",
      workload,
      expert,
      "--json",
      "--scale",
      "0.00004",
      "--max-items",
      "120",
    ]);
    expect(outcome.code).toBe(0);
    const report = JSON.parse(outcome.stdout) as ReportJson & {
      data: { recordsPerEntity: Record<string, number> };
    };
    // blogging: 100,000 users x 0.00004 = 4 records; 2,750,000 posts x 0.00004 = 110.
    expect(report.data.recordsPerEntity["User"]).toBe(4);
    expect(report.data.recordsPerEntity["Post"]).toBe(110);
    expect(report.ok).toBe(true);
  }, 60_000);

  it("rejects a wrong --scale, --seed or --fault as usage (exit 2)", async () => {
    for (const args of [
      ["--scale", "abc"],
      ["--seed", "-1"],
      ["--fault", "drop-everything"],
    ]) {
      const outcome = await runCli(["verify", workload, expert, ...args]);
      expect(outcome.code, args.join(" ")).toBe(2);
      expect(outcome.stdout).toBe("");
      expect(outcome.stderr).toMatch(/^error: --/);
    }
  }, 30_000);

  it("never prints the key of a connection string, from the flag or the environment", async () => {
    const key = "c2VjcmV0LWtleS12YWx1ZS0xMjM0NQ==";
    const connection = `AccountEndpoint=http://127.0.0.1:1/;AccountKey=${key};`;
    const fromFlag = await runCli(["verify", workload, expert, "--connection-string", connection]);
    expect(fromFlag.code).toBe(1);
    expect(fromFlag.stderr).toMatch(
      /^error verify\.endpointUnreachable: could not connect to http:\/\/127\.0\.0\.1:1\//,
    );
    const fromEnv = await runCli(["verify", workload, expert, "--json"], {
      COSMOS_ENDPOINT: "http://127.0.0.1:1/",
      COSMOS_KEY: key,
    });
    expect(fromEnv.code).toBe(1);
    const missing = await runCli(["verify", workload, expert, "--connection-string", `AccountKey=${key}`]);
    expect(missing.stderr).toMatch(
      /verify\.badConnectionString: the connection string has no AccountEndpoint/,
    );
    for (const outcome of [fromFlag, fromEnv, missing]) {
      expect(outcome.stdout + outcome.stderr).not.toContain(key);
    }
  }, 60_000);
});
