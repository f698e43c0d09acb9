/**
 * `cosmos-modeler calibrate` end to end (issue 30): measured charges in (the public measurements
 * of bench/data as a recording), coefficients out, a design with them that says which
 * coefficients it used; charges of the embedded endpoint refused; a wrong coefficients file
 * refused with its field.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BENCH_DATA_DIR, REPO_ROOT } from "../../src/test-support/model-examples.js";

const cli = resolve(REPO_ROOT, "dist/cli/main.js");
const workload = resolve(REPO_ROOT, "examples/blogging/workload.yaml");

function runCli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: REPO_ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

let dir = "";
let recording = "";
/** The estimates of the record-charges run (built-in coefficients), by pattern. */
let builtInEstimates: Map<string, number> | undefined;
beforeAll(async () => {
  await readFile(cli);
  dir = await mkdtemp(join(tmpdir(), "cosmos-modeler-calibrate-"));
  // the public measurements of the calibration split, as an account's recording (those the model
  // leaves out excluded)
  const lines = (await readFile(resolve(BENCH_DATA_DIR, "ru-measurements.jsonl"), "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((row) => row["calibration"] !== false && row["split"] !== "held-out")
    .map((row) => JSON.stringify({ ...row, endpoint: "azure" }));
  recording = join(dir, "charges.jsonl");
  await writeFile(recording, `${lines.join("\n")}\n`);
});

describe("cosmos-modeler calibrate", () => {
  it("fits coefficients to recorded charges, and a design with them says which it used", async () => {
    const out = join(dir, "coefficients.json");
    const calibrated = await runCli(["calibrate", recording, "--out", out, "--json"]);
    expect(calibrated.stderr).toBe("");
    expect(calibrated.code).toBe(0);
    const report = JSON.parse(calibrated.stdout) as {
      rows: number;
      families: { family: string; leaveOneOutError?: number; defaultError: number }[];
      changes: { coefficient: string }[];
    };
    expect(report.rows).toBe(44);
    expect(report.families.map((f) => f.family)).toEqual(
      expect.arrayContaining(["read", "insert", "indexedQuery"]),
    );
    const file = JSON.parse(await readFile(out, "utf8")) as {
      fittedOn: string;
      coefficients: Record<string, unknown>;
    };
    expect(file.fittedOn).toContain("44 measured operations");

    const withDefaults = await runCli(["design", workload, "--json"]);
    const withFitted = await runCli(["design", workload, "--json", "--coefficients", out]);
    expect(withFitted.code).toBe(0);
    type Designed = {
      evaluation: { totals: { monthlyCostUSD: number }; requestCharges?: { source: string } };
    };
    const fitted = JSON.parse(withFitted.stdout) as Designed;
    const defaults = JSON.parse(withDefaults.stdout) as Designed;
    expect(fitted.evaluation.requestCharges?.source).toContain("coefficients.json");
    expect(defaults.evaluation.requestCharges).toBeUndefined();
    // the fit on these rows alone moves the query coefficients: the figures follow
    expect(fitted.evaluation.totals.monthlyCostUSD).not.toBe(defaults.evaluation.totals.monthlyCostUSD);

    const text = await runCli(["design", workload, "--coefficients", out, "--out", join(dir, "design")]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("request charges from coefficients fitted on 44 measured operations");
    expect(await readFile(join(dir, "design", "cosmosdb_data_model.md"), "utf8")).toContain(
      "request charges from coefficients fitted on 44 measured operations",
    );
  });

  it("refuses charges of the embedded endpoint (not Cosmos DB's), with file and line", async () => {
    const embedded = join(dir, "embedded.jsonl");
    await writeFile(
      embedded,
      `${JSON.stringify({ op: "read", itemBytes: 900, measuredRU: 1, source: "verify embedded", endpoint: "embedded" })}\n`,
    );
    const outcome = await runCli(["calibrate", embedded, "--out", join(dir, "never.json")]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(
      /embedded\.jsonl:1 endpoint: recorded on an endpoint whose request charges are not Cosmos DB's/,
    );
    expect(outcome.stderr).not.toMatch(/\n\s+at /);
  });

  it("verify --record-charges records each one-request read with its features; on the embedded endpoint calibrate refuses them", async () => {
    const charges = join(dir, "embedded-charges.jsonl");
    const verified = await runCli([
      "verify",
      workload,
      resolve(REPO_ROOT, "test/fixtures/examples/blogging/expert-model.yaml"),
      "--record-charges",
      charges,
      "--json",
    ]);
    expect(verified.code, verified.stderr).toBe(0);
    builtInEstimates = new Map(
      (
        JSON.parse(verified.stdout) as {
          patterns: { patternId: string; estimatedRu: { estimate: number } }[];
        }
      ).patterns.map((p) => [p.patternId, p.estimatedRu.estimate]),
    );
    const lines = (await readFile(charges, "utf8"))
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatchObject({ endpoint: "embedded", chargeBearing: false });
      expect(["read", "query"]).toContain(line["op"]);
      expect(line["op"] === "read" ? line["itemBytes"] : line["returned"]).toEqual(expect.any(Number));
    }
    const outcome = await runCli(["calibrate", charges, "--out", join(dir, "never-coefficients.json")]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("calibration.notChargeBearing");
  }, 120_000);

  it("verify --coefficients compares the charges with estimates from the fitted coefficients", async () => {
    const out = join(dir, "verify-coefficients.json");
    expect((await runCli(["calibrate", recording, "--out", out])).code).toBe(0);
    const expert = resolve(REPO_ROOT, "test/fixtures/examples/blogging/expert-model.yaml");
    type Report = { patterns: { patternId: string; estimatedRu: { estimate: number } }[] };
    const estimates = async (extra: readonly string[]): Promise<Map<string, number>> => {
      const run = await runCli(["verify", workload, expert, "--json", ...extra]);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as Report;
      return new Map(report.patterns.map((p) => [p.patternId, p.estimatedRu.estimate]));
    };
    const builtIn = builtInEstimates ?? (await estimates([]));
    const fitted = await estimates(["--coefficients", out]);
    expect([...fitted.keys()]).toEqual([...builtIn.keys()]);
    // the fit moved the query coefficients: some read's estimate follows
    expect([...fitted].some(([id, estimate]) => estimate !== builtIn.get(id))).toBe(true);
  }, 120_000);

  it("refuses a coefficients file with a wrong field, naming it", async () => {
    const wrong = join(dir, "wrong-coefficients.json");
    await writeFile(wrong, JSON.stringify({ version: 1, fittedOn: "x", coefficients: { writeBase: -1 } }));
    const outcome = await runCli([
      "evaluate",
      workload,
      resolve(REPO_ROOT, "test/fixtures/examples/blogging/expert-model.yaml"),
      "--coefficients",
      wrong,
    ]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(
      /coefficients\.invalid \S*wrong-coefficients\.json coefficients\.writeBase: Too small/,
    );
    expect(outcome.stderr).not.toMatch(/\n\s+at /);
  });
});
