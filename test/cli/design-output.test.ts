/**
 * Issue 29, "the CLI is silent, then floods": `design` shows its progress on a terminal's stderr
 * (phases with counts, nothing when stderr is not a terminal or with `--json`), and ends with a
 * short summary whatever the workload's size; the decisions in full come with `--decisions` and
 * are in the files.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { workloadDocumentArbitrary, workloadText } from "../../src/test-support/workload-arbitrary.js";
import { cli, root } from "../interview/terminal.js";
import { runCliInThread } from "../support/cli-thread.js";

const blogging = join(root, "examples", "blogging", "workload.yaml");
const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;

describe("what design prints", () => {
  it("ends with a summary of under 30 lines and at most 10 findings on a 60-entity workload", () => {
    const [document] = fc.sample(workloadDocumentArbitrary({ minEntities: 60, maxEntities: 60 }), {
      numRuns: 1,
      seed: 29,
    });
    const file = join(mkdtempSync(join(tmpdir(), "design-output-")), "workload.yaml");
    writeFileSync(file, workloadText(document ?? {}));
    const run = runCliInThread(["design", file]);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines.length).toBeLessThan(30);
    expect(lines[0]).toMatch(/^Design of .*: \d+ container\(s\), [\d,]+ RU\/s at peak, \$[\d,]+ per month$/);
    expect(run.stdout).toMatch(/\d+ decision\(s\)/);
    expect(run.stdout).not.toContain("why:");
    // Findings: the first ten, errors first, then how many more.
    const findings = run.stderr.trimEnd().split("\n");
    expect(findings.length).toBeLessThanOrEqual(11);
    if (findings.length === 11) expect(findings[10]).toMatch(/^\.\.\. and \d+ more finding\(s\)/);
  }, 120_000);

  it("prints every decision with --decisions, then the summary", () => {
    const run = runCliInThread(["design", blogging, "--decisions"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Design of Blogging platform\n\n\* /);
    expect(run.stdout).toContain("  why: ");
    expect(run.stdout).toMatch(/\nDesign of Blogging platform: 2 container\(s\)/);
  }, 120_000);

  it("shows no progress when stderr is not a terminal", () => {
    const run = spawnSync(process.execPath, [cli, "design", blogging], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
  }, 120_000);

  it.skipIf(!hasScript)(
    "shows its phases with counts on a terminal, then the summary",
    () => {
      // `script` runs the command in a pseudo-terminal: stdout and stderr are the terminal.
      const command = [process.execPath, cli, "design", blogging].map((a) => `'${a}'`).join(" ");
      const run = spawnSync("script", ["-qfec", command, "/dev/null"], { encoding: "utf8" });
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/\rdesign \(4 entities, \d+ patterns\)\s+\[#*-*\] 0\/1/);
      expect(run.stdout).toMatch(/\rdesign \(4 entities, \d+ patterns\)\s+\[#{30}\] (\d+)\/\1/);
      expect(run.stdout).toContain("Design of Blogging platform: 2 container(s)");
      const json = spawnSync("script", ["-qfec", `${command} --json`, "/dev/null"], { encoding: "utf8" });
      expect(json.stdout).not.toContain("\r[design");
      expect(json.stdout).not.toMatch(/\[#*-*\] \d+\/\d+/);
    },
    120_000,
  );
});
