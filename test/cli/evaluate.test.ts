/**
 * End-to-end tests of `cosmos-modeler evaluate`: the built CLI run as a user would, with the
 * blogging example, its models in test/fixtures/examples and the model fixtures of
 * test/fixtures/evaluate.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { runCliInThread } from "../support/cli-thread.js";
import { EXAMPLE_MODELS_DIR, examplePath, REPO_ROOT } from "../../src/test-support/model-examples.js";

const run = promisify(execFile);
const repo = REPO_ROOT;
const cli = resolve(repo, "dist/cli/main.js");
const workload = examplePath("blogging/workload.yaml");
const blogging = resolve(EXAMPLE_MODELS_DIR, "blogging");
const fixtures = "test/fixtures/evaluate";

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built CLI in a process of its own. */
function runProcess(args: readonly string[]): Promise<Outcome> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: repo });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end();
  });
}

/** The built CLI in a thread of this process (test/support/cli-thread.ts: one start for the file). */
function runCli(args: readonly string[]): Promise<Outcome> {
  const { status, stdout, stderr } = runCliInThread(args);
  return Promise.resolve({ code: status, stdout, stderr });
}

const isNumber = (value: unknown): boolean => typeof value === "number" && Number.isFinite(value);

interface EvaluationJson {
  patterns: {
    id: string;
    plan: { kind: string; operations: unknown[] };
    fanOut: boolean;
    ru: { estimate: number; low: number; high: number; async: number };
    rus: { avg: number; peak: number };
  }[];
  containers: {
    name: string;
    physicalPartitions: number;
    storageGB: number;
    rus: { avg: number; peak: number };
    hottestLogicalPartition: { rus: number; storageGB: number };
    throughput: { mode: string };
    monthlyCostUSD: number;
  }[];
  totals: { rus: { avg: number; peak: number }; monthlyCostUSD: number };
  issues: { code: string; severity: string; path: string; message: string }[];
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
  // `npm test` builds first; run alone, build unless dist/ is newer than every source file (a
  // rebuild while other CLI tests run would rewrite the files they execute). Other work in
  // progress may have type errors; tsc still emits, so only the CLI must exist.
  const built = resolve(repo, "dist/cli/commands/evaluate.js");
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

describe("cosmos-modeler evaluate", () => {
  it("prints the documented JSON shape for the blogging expert model and exits 0", async () => {
    const outcome = await runProcess(["evaluate", workload, `${blogging}/expert-model.yaml`, "--json"]);
    expect(outcome.code).toBe(0);
    const parsed = JSON.parse(outcome.stdout) as EvaluationJson;
    expect(Object.keys(parsed)).toEqual(
      expect.arrayContaining(["patterns", "containers", "totals", "issues"]),
    );
    expect(parsed.patterns.map((p) => p.id)).toEqual([
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
    for (const pattern of parsed.patterns) {
      expect(typeof pattern.plan.kind).toBe("string");
      expect(Array.isArray(pattern.plan.operations)).toBe(true);
      expect(pattern.plan.operations.length).toBeGreaterThan(0);
      expect(typeof pattern.fanOut).toBe("boolean");
      for (const key of ["estimate", "low", "high", "async"] as const)
        expect(isNumber(pattern.ru[key])).toBe(true);
      expect(pattern.ru.low).toBeLessThanOrEqual(pattern.ru.estimate);
      expect(pattern.ru.estimate).toBeLessThanOrEqual(pattern.ru.high);
      expect(isNumber(pattern.rus.avg) && isNumber(pattern.rus.peak)).toBe(true);
    }
    expect(parsed.containers.map((c) => c.name)).toEqual(["users", "posts", "feed"]);
    for (const c of parsed.containers) {
      expect(Number.isInteger(c.physicalPartitions) && c.physicalPartitions >= 1).toBe(true);
      expect(isNumber(c.storageGB)).toBe(true);
      expect(isNumber(c.rus.avg) && isNumber(c.rus.peak)).toBe(true);
      expect(isNumber(c.hottestLogicalPartition.rus) && isNumber(c.hottestLogicalPartition.storageGB)).toBe(
        true,
      );
      expect(["manual", "autoscale", "serverless", "shared"]).toContain(c.throughput.mode);
      expect(c.monthlyCostUSD).toBeGreaterThan(0);
    }
    expect(parsed.totals.monthlyCostUSD).toBeCloseTo(
      parsed.containers.reduce((sum, c) => sum + c.monthlyCostUSD, 0),
      6,
    );
    expect(parsed.totals.rus.peak).toBeCloseTo(
      parsed.containers.reduce((sum, c) => sum + c.rus.peak, 0),
      6,
    );
    expect(parsed.issues.filter((i) => i.severity === "error")).toEqual([]);
    // Q2 is the article's 1 RU point read, Q6 the bounded feed.
    expect(parsed.patterns.find((p) => p.id === "Q2")?.plan.kind).toBe("pointRead");
    expect(parsed.patterns.find((p) => p.id === "Q6")?.fanOut).toBe(false);
  });

  it("exits 1 for model-v3 and reports its single-partition feed as a hot partition, without a stack trace", async () => {
    const text = await runCli(["evaluate", workload, `${blogging}/model-v3.yaml`]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^Evaluation of Blogging platform/);
    expect(text.stderr).toMatch(
      /^error evaluate\.hotPartition \S+model-v3\.yaml:\d+ containers\.feed: the hottest logical partition of feed needs [\d,]+ RU\/s at peak, over the 10,000 RU\/s one partition can serve/m,
    );
    expect(text.stderr).not.toMatch(/\n\s+at /);

    const json = await runCli(["evaluate", workload, `${blogging}/model-v3.yaml`, "--json"]);
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as EvaluationJson;
    expect(parsed.issues.filter((i) => i.code === "evaluate.hotPartition").map((i) => i.path)).toEqual([
      "containers.feed",
    ]);
  });

  it("exits 1 for a model naming an unknown entity, with file, line, path and a suggestion", async () => {
    const file = `${fixtures}/blogging-misspelt-entity.yaml`;
    const outcome = await runCli(["evaluate", workload, file, "--json"]);
    expect(outcome.code).toBe(1);
    // --json: the issues are the one JSON document on stdout (and the errors also on stderr).
    expect(
      (JSON.parse(outcome.stdout) as { issues: { code: string; line?: number }[] }).issues,
    ).toContainEqual(expect.objectContaining({ code: "model.unknownEntity", file, line: 27 }));
    expect(outcome.stderr).toContain(
      `error model.unknownEntity ${file}:27 containers[1].items[1].entity: the workload has no entity "Coment" (did you mean "Comment"?)`,
    );
    expect(outcome.stderr).not.toMatch(/\n\s+at /);
  });

  it("prices the month with --prices: every rate doubled doubles the bill", async () => {
    const model = `${blogging}/expert-model.yaml`;
    const base = JSON.parse((await runCli(["evaluate", workload, model, "--json"])).stdout) as EvaluationJson;
    const doubled = await runCli([
      "evaluate",
      workload,
      model,
      "--json",
      "--prices",
      `${fixtures}/prices-doubled.yaml`,
    ]);
    expect(doubled.code).toBe(0);
    const parsed = JSON.parse(doubled.stdout) as EvaluationJson;
    expect(parsed.totals.monthlyCostUSD).toBeCloseTo(2 * base.totals.monthlyCostUSD, 6);
    // The RU figures do not depend on prices.
    expect(parsed.totals.rus).toEqual(base.totals.rus);
    const text = await runCli(["evaluate", workload, model, "--prices", `${fixtures}/prices-doubled.yaml`]);
    expect(text.stdout).toContain("test region at twice the list price");
  });

  it("refuses a price file out of range with each of its issues on a line of its own, file and line included", async () => {
    const prices = join(mkdtempSync(join(tmpdir(), "cosmos-modeler-prices-")), "prices.yaml");
    writeFileSync(prices, "storagePerGBMonth: 1e300\nmonthlyThroughputUSD: -1\n");
    const model = `${blogging}/expert-model.yaml`;
    const text = await runCli(["evaluate", workload, model, "--prices", prices]);
    expect(text.code).toBe(1);
    const lines = text.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^error prices\.\w+ .*prices\.yaml:[12] /);
    const json = await runCli(["evaluate", workload, model, "--prices", prices, "--json"]);
    const issues = (JSON.parse(json.stdout) as { issues: { line?: number }[] }).issues;
    expect(issues.map((issue) => issue.line)).toEqual([1, 2]);
  });

  it("costs V1's follow-ups per item with --follow-ups per-item, and refuses other values with exit 2", async () => {
    const model = `${blogging}/model-v1.yaml`;
    const cheapest = JSON.parse(
      (await runCli(["evaluate", workload, model, "--json"])).stdout,
    ) as EvaluationJson;
    const perItem = JSON.parse(
      (await runCli(["evaluate", workload, model, "--json", "--follow-ups", "per-item"])).stdout,
    ) as EvaluationJson;
    const q6 = (e: EvaluationJson) => e.patterns.find((p) => p.id === "Q6")?.ru.estimate ?? Number.NaN;
    // 100 user reads instead of one query for the 100 posts' authors.
    expect(q6(perItem)).toBeGreaterThan(q6(cheapest));
    const bad = await runCli(["evaluate", workload, model, "--follow-ups", "sometimes"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--follow-ups must be "cheapest" or "per-item", got "sometimes"');
  });

  it("exits 1 naming a missing model file", async () => {
    const outcome = await runCli(["evaluate", workload, `${fixtures}/no-such-model.yaml`]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("cli.fileNotFound");
    expect(outcome.stderr).not.toMatch(/\n\s+at /);
  });
});
