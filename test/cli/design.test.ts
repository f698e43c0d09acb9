/**
 * End-to-end tests of `cosmos-modeler design` and `render`: the built CLI, its files, the JSON
 * contract of DESIGN.md, and the protection of files edited by hand.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { runCliInThread } from "../support/cli-thread.js";
import { filesUnder } from "../../src/test-support/files.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(root, "dist", "cli", "main.js");
const blogging = join(root, "examples", "blogging", "workload.yaml");

beforeAll(() => {
  // `npm test` builds first; when run alone, build once.
  if (!existsSync(join(root, "dist", "cli", "commands", "design.js"))) {
    spawnSync(
      process.execPath,
      [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
      {
        cwd: root,
      },
    );
  }
});

/** The built CLI, in a thread of this process (test/support/cli-thread.ts: one start for the file). */
function run(args: readonly string[]) {
  return runCliInThread(args);
}

describe("cosmos-modeler design", () => {
  it("runs within its heap budget; a design over it is an internal error (exit 70, one JSON document), not a crash", () => {
    const result = spawnSync(process.execPath, [cli, "design", blogging, "--json"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, COSMOS_MODELER_HEAP_MB: "2" },
    });
    expect(result.status).toBe(70);
    expect(result.stderr).not.toContain("    at ");
    const document = JSON.parse(result.stdout) as { issues: { code: string; message: string }[] };
    expect(document.issues).toHaveLength(1);
    expect(document.issues[0]?.code).toBe("internal.error");
    expect(document.issues[0]?.message).toMatch(/memory budget of 2 MB/);
  });

  it("--json prints {model, evaluation, decisions} (DESIGN.md)", () => {
    const { status, stdout, stderr } = run(["design", blogging, "--json"]);
    expect(stderr).not.toContain("    at ");
    expect(status).toBe(0);
    const result = JSON.parse(stdout) as {
      model: { version: number; containers: { name: string; partitionKey: string[] }[] };
      evaluation: { patterns: { id: string }[]; totals: { monthlyCostUSD: number } };
      decisions: {
        id: string;
        title: string;
        chosen: string;
        alternatives: { name: string; rusPeak: number; monthlyCostUSD: number }[];
        why: string;
      }[];
    };
    expect(result.model.version).toBe(1);
    expect(result.model.containers.length).toBeGreaterThan(0);
    expect(result.evaluation.patterns.map((p) => p.id)).toEqual([
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
    expect(result.decisions.length).toBeGreaterThan(3);
    const priced = result.decisions.find((d) => d.alternatives.length > 1);
    expect(priced?.alternatives.every((a) => a.rusPeak > 0 && a.monthlyCostUSD > 0)).toBe(true);
  });

  it("--out writes the model, both documents and the artifacts, and the model evaluates again", () => {
    const out = mkdtempSync(join(tmpdir(), "design-test-"));
    const { status, stdout } = run(["design", blogging, "--out", out]);
    expect(status).toBe(0);
    expect(stdout).toContain("Wrote");
    for (const file of [
      "model.yaml",
      "cosmosdb_requirements.md",
      "cosmosdb_data_model.md",
      "src/data-access.ts",
      "src/data-access-runtime/index.ts",
      "containers.json",
      "infra/main.bicep",
      "infra/main.tf",
      "infra/create-containers.sh",
      "diagram.mmd",
    ]) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
    // Exactly the golden files (src/deliverables/golden.test.ts), the manifest aside, and the
    // data-access runtime as a copy of src/runtime.
    const golden = join(root, "src", "deliverables", "__golden__", "blogging", "design");
    const runtime = "src/data-access-runtime/";
    for (const file of filesUnder(out).filter((path) => path.startsWith(runtime))) {
      expect(readFileSync(join(out, file), "utf8"), file).toBe(
        readFileSync(join(root, "src", "runtime", file.slice(runtime.length)), "utf8"),
      );
    }
    const written = filesUnder(out).filter(
      (file) => !file.startsWith(".cosmos-modeler") && !file.startsWith(runtime),
    );
    expect(written).toEqual(filesUnder(golden));
    for (const file of written)
      expect(readFileSync(join(out, file), "utf8"), file).toBe(readFileSync(join(golden, file), "utf8"));
    expect(statSync(join(out, "infra/create-containers.sh")).mode & 0o111).not.toBe(0);
    const evaluated = run(["evaluate", blogging, join(out, "model.yaml"), "--json"]);
    expect(evaluated.status).toBe(0);
    // The document and the evaluation show the same total.
    const total = (JSON.parse(evaluated.stdout) as { totals: { monthlyCostUSD: number } }).totals
      .monthlyCostUSD;
    const document = readFileSync(join(out, "cosmosdb_data_model.md"), "utf8");
    expect(document).toContain(
      total.toLocaleString("en-US", { maximumFractionDigits: 2, minimumFractionDigits: 2 }),
    );
  });

  it("does not overwrite a file edited by hand without --force", () => {
    const out = mkdtempSync(join(tmpdir(), "design-test-"));
    expect(run(["design", blogging, "--out", out]).status).toBe(0);
    const edited = `${readFileSync(join(out, "model.yaml"), "utf8")}# my note\n`;
    writeFileSync(join(out, "model.yaml"), edited);
    const again = run(["design", blogging, "--out", out]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("cli.handEdited");
    expect(again.stderr).toContain("model.yaml");
    expect(readFileSync(join(out, "model.yaml"), "utf8")).toBe(edited);
    expect(run(["design", blogging, "--out", out, "--force"]).status).toBe(0);
    expect(readFileSync(join(out, "model.yaml"), "utf8")).not.toContain("# my note");
  });

  it("overwrites a file the interview wrote (its session records the hash), not one edited by hand", () => {
    const out = mkdtempSync(join(tmpdir(), "design-test-"));
    const byInterview = "# written by the interview\n";
    writeFileSync(join(out, "cosmosdb_requirements.md"), byInterview);
    mkdirSync(join(out, ".cosmos-modeler"));
    const hash = createHash("sha256").update(byInterview).digest("hex");
    writeFileSync(
      join(out, ".cosmos-modeler", "session.json"),
      JSON.stringify({
        format: "cosmos-modeler-session",
        state: {},
        written: { "cosmosdb_requirements.md": [hash] },
      }),
    );
    expect(run(["design", blogging, "--out", out]).status).toBe(0);
    expect(readFileSync(join(out, "cosmosdb_requirements.md"), "utf8")).not.toBe(byInterview);
  });

  it("--baseline emits one container per entity", () => {
    const { stdout } = run(["design", blogging, "--json", "--baseline"]);
    const model = (JSON.parse(stdout) as { model: { containers: { partitionKey: string[] }[] } }).model;
    expect(model.containers.map((c) => c.partitionKey)).toEqual([
      ["/userId"],
      ["/postId"],
      ["/commentId"],
      ["/likeId"],
    ]);
  });
});

describe("cosmos-modeler render", () => {
  it("renders a given model", () => {
    const out = mkdtempSync(join(tmpdir(), "render-test-"));
    const model = join(root, "test", "fixtures", "examples", "blogging", "expert-model.yaml");
    const { status } = run(["render", blogging, model, "--out", out, "--json"]);
    expect(status).toBe(0);
    expect(readFileSync(join(out, "model.yaml"), "utf8")).toContain("replicas: 8");
    expect(readFileSync(join(out, "cosmosdb_data_model.md"), "utf8")).toContain("## Access Pattern Mapping");
  });

  it("needs --out (usage error, exit 2)", () => {
    expect(run(["render", blogging]).status).toBe(2);
  });
});
