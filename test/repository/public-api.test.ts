/**
 * The package's public API is what docs/library.md lists: the built entry points export exactly
 * the documented functions and constants (types aside), and the documented example runs against
 * the built package, resolved by its own name as a user's program would.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureBuilt, ROOT } from "../support/built-cli.js";

/** Runs an ES module in the repository root (where `cosmos-modeler` resolves to this package). */
function runModule(source: string): string {
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`exited ${run.status}:\n${run.stdout}${run.stderr}`);
  return run.stdout;
}

/** The names in the first column of the table that follows `heading` in docs/library.md. */
function documentedNames(heading: string): string[] {
  const text = readFileSync(join(ROOT, "docs", "library.md"), "utf8");
  const section = text.slice(text.indexOf(heading));
  const table = section.slice(section.indexOf("\n|")).split("\n\n")[0] ?? "";
  return table
    .split("\n")
    .slice(3)
    .map((row) => /^\| `([^`]+)`/.exec(row)?.[1])
    .filter((name): name is string => name !== undefined);
}

describe("the public API", () => {
  it("the main entry exports exactly what docs/library.md lists", () => {
    ensureBuilt();
    const names = JSON.parse(
      runModule(`const m = await import("cosmos-modeler"); console.log(JSON.stringify(Object.keys(m)));`),
    ) as string[];
    expect([...names].sort()).toEqual(documentedNames("## The main entry").sort());
  });

  it("every documented subpath loads and exports what its row names", () => {
    ensureBuilt();
    const text = readFileSync(join(ROOT, "docs", "library.md"), "utf8");
    const rows = text
      .slice(text.indexOf("## Subpath exports"))
      .split("\n")
      .filter((l) => l.startsWith("| `cosmos"));
    expect(rows.length).toBe(4);
    for (const row of rows) {
      const subpath = /^\| `([^`]+)`/.exec(row)?.[1] ?? "";
      const named = [...(row.split("|")[2] ?? "").matchAll(/`(\w+)`/g)].map((m) => m[1] ?? "");
      const exported = JSON.parse(
        runModule(
          `const m = await import(${JSON.stringify(subpath)}); console.log(JSON.stringify(Object.keys(m)));`,
        ),
      ) as string[];
      for (const name of named) expect(exported, `${subpath} exports ${name}`).toContain(name);
    }
  });

  it("runs the documented example on the blogging workload", () => {
    ensureBuilt();
    const out = runModule(`
      import { readFileSync } from "node:fs";
      import { designModel, formatIssue, loadWorkload, renderDesignDeliverables } from "cosmos-modeler";
      const loaded = loadWorkload(readFileSync("examples/blogging/workload.yaml", "utf8"), { file: "workload.yaml" });
      if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\\n"));
      const design = designModel(loaded.value);
      const files = await renderDesignDeliverables(loaded.value, design);
      console.log(JSON.stringify({ cost: design.evaluation.totals.monthlyCostUSD, files: files.map((f) => f.path) }));
    `);
    const result = JSON.parse(out) as { cost: number; files: string[] };
    expect(result.cost).toBeGreaterThan(0);
    expect(result.files).toEqual(
      expect.arrayContaining(["model.yaml", "cosmosdb_data_model.md", "report.html"]),
    );
  });
});
