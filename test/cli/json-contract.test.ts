/**
 * Issue 32: with `--json`, stdout is exactly one JSON document for every outcome of every
 * command: success, rejected input, a missing input, usage errors (an unknown option, a missing
 * argument, an invalid option value). A failure's document is `{ issues: [...] }` with at least
 * one error, and its exit status says which kind of failure it is (docs/json-output.md).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { examplePath } from "../../src/test-support/model-examples.js";
import { BROKEN_WORKLOAD } from "../support/broken-workload.js";
import { CLI, ROOT } from "../support/built-cli.js";
import { runCliInThread, type CliRun } from "../support/cli-thread.js";

const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-json-contract-"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const workload = examplePath("blogging/workload.yaml");
const model = examplePath("blogging/expert-model.yaml");
const missing = join(dir, "does-not-exist.yaml");
const broken = file("broken.yaml", BROKEN_WORKLOAD);
const ops = file("ops.jsonl", '{"op":"read","itemBytes":1024}\n');
const badOps = file("bad-ops.jsonl", '{"op":"nope"}\n');
const schema = join(ROOT, "examples", "online-shop", "schema.sql");
const out = (name: string): string => join(dir, name);

type Outcome = "ok" | "input" | "usage";
const STATUS: Record<Outcome, readonly number[]> = { ok: [0, 1], input: [1], usage: [2] };

/** [command, case, arguments (--json is added), outcome]. */
const CASES: readonly (readonly [string, string, readonly string[], Outcome])[] = [
  ["check", "valid", ["check", workload], "ok"],
  ["check", "invalid", ["check", broken], "input"],
  ["check", "missing file", ["check", missing], "input"],
  ["check", "missing argument", ["check"], "usage"],
  ["check", "unknown option", ["check", workload, "--nope"], "usage"],
  ["estimate-ru", "valid", ["estimate-ru", ops], "ok"],
  ["estimate-ru", "invalid", ["estimate-ru", badOps], "input"],
  ["estimate-ru", "missing file", ["estimate-ru", missing], "input"],
  ["estimate-ru", "missing argument", ["estimate-ru"], "usage"],
  ["evaluate", "valid", ["evaluate", workload, model], "ok"],
  ["evaluate", "invalid", ["evaluate", broken, model], "input"],
  ["evaluate", "missing file", ["evaluate", workload, missing], "input"],
  ["evaluate", "missing argument", ["evaluate", workload], "usage"],
  ["evaluate", "invalid option value", ["evaluate", workload, model, "--follow-ups", "x"], "usage"],
  ["evaluate", "--compare without --html", ["evaluate", workload, model, "--compare", model], "usage"],
  [
    "evaluate",
    "--verification without --html",
    ["evaluate", workload, model, "--verification", missing],
    "usage",
  ],
  ["design", "valid", ["design", workload], "ok"],
  ["design", "invalid", ["design", broken], "input"],
  ["design", "missing file", ["design", missing], "input"],
  ["design", "missing argument", ["design"], "usage"],
  ["design", "unknown option", ["design", workload, "--outt", "x"], "usage"],
  ["design", "--verification without --out", ["design", workload, "--verification", missing], "usage"],
  ["design", "--compare without --out", ["design", workload, "--compare", model], "usage"],
  ["render", "valid", ["render", workload, model, "--out", out("render")], "ok"],
  ["render", "invalid", ["render", broken, model, "--out", out("render-broken")], "input"],
  ["render", "missing file", ["render", missing, "--out", out("render-missing")], "input"],
  ["render", "missing --out", ["render", workload, model], "usage"],
  ["verify", "invalid", ["verify", broken, model], "input"],
  ["verify", "missing file", ["verify", missing, model], "input"],
  ["verify", "missing argument", ["verify", workload], "usage"],
  ["verify", "invalid option value", ["verify", workload, model, "--scale", "-1"], "usage"],
  ["import", "valid", ["import", schema, "--out", out("import")], "ok"],
  ["import", "missing file", ["import", join(dir, "missing.sql"), "--out", out("import-missing")], "input"],
  ["import", "missing argument", ["import"], "usage"],
  ["import", "invalid option value", ["import", schema, "--dialect", "cobol"], "usage"],
  ["interview", "no --json option", ["interview", "--dir", out("interview")], "usage"],
  ["mcp", "no --json option", ["mcp", "--dir", out("mcp")], "usage"],
  ["(none)", "no command", [], "usage"],
  ["(none)", "unknown command", ["nope"], "usage"],
];

function expectOneDocument(run: CliRun, outcome: Outcome): void {
  expect(STATUS[outcome], run.stderr).toContain(run.status);
  let document: unknown;
  expect(
    () => (document = JSON.parse(run.stdout)),
    `stdout: ${run.stdout}\nstderr: ${run.stderr}`,
  ).not.toThrow();
  expect(document).toBeTypeOf("object");
  if (outcome === "ok") return;
  const { issues } = document as { issues: { code: string; severity: string; message: string }[] };
  expect(issues.some((issue) => issue.severity === "error")).toBe(true);
  if (outcome === "usage") expect(issues[0]).toMatchObject({ code: "cli.usage", severity: "error" });
}

describe("--json: one JSON document on stdout for every outcome of every command", () => {
  it.each(CASES)("%s, %s", (_command, _case, args, outcome) => {
    expectOneDocument(runCliInThread([...args, "--json"]), outcome);
  });

  it("estimate-ru with invalid operations on standard input prints {issues}", () => {
    const run = spawnSync(process.execPath, [CLI, "estimate-ru", "-", "--json"], {
      cwd: ROOT,
      encoding: "utf8",
      input: '{"op":"nope"}\n',
    });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      issues: [expect.objectContaining({ code: "operation.invalidOp", file: "<stdin>", line: 1 })],
    });
  });

  it("check loads a workload saved with bare-CR line endings (issue 32), and locates its errors", () => {
    const cr = file("cr.yaml", readFileSync(workload, "utf8").replace(/\n/g, "\r"));
    const run = runCliInThread(["check", cr, "--json"]);
    expect(run.status, run.stdout).toBe(0);
    const brokenCr = file("broken-cr.yaml", readFileSync(broken, "utf8").replace(/\n/g, "\r"));
    const { issues } = JSON.parse(runCliInThread(["check", brokenCr, "--json"]).stdout) as {
      issues: { code: string; line: number }[];
    };
    expect(issues).toContainEqual(expect.objectContaining({ code: "workload.unknownEntity", line: 6 }));
  });

  it("verify on valid inputs prints its report", () => {
    const run = spawnSync(process.execPath, [CLI, "verify", workload, model, "--json", "--max-items", "20"], {
      cwd: ROOT,
      encoding: "utf8",
      env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("COSMOS_"))),
    });
    expectOneDocument({ status: run.status ?? -1, stdout: run.stdout, stderr: run.stderr }, "ok");
  }, 120_000);
});
