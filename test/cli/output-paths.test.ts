/**
 * Issue 32: output paths are checked before any work, and writes never follow links. A regular
 * file (or a path under one), an empty path (an unset `$DIR`), a path on a virtual file system and
 * a path through a symbolic link, above or inside the output folder, are usage errors (exit 2,
 * `cli.invalidOutputPath`) that name the flag and the path, say what is wrong and what would be
 * valid; nothing is written.
 */
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { examplePath } from "../../src/test-support/model-examples.js";
import { runCliInThread } from "../support/cli-thread.js";

const workload = examplePath("blogging/workload.yaml");
const model = examplePath("blogging/expert-model.yaml");

const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-output-paths-"));
const aFile = join(dir, "a-file");
writeFileSync(aFile, "not a folder\n");
const elsewhere = join(dir, "elsewhere");
mkdirSync(elsewhere);
const link = join(dir, "link");
symlinkSync(elsewhere, link);
const withInnerLink = join(dir, "with-inner-link");
mkdirSync(withInnerLink);
symlinkSync(elsewhere, join(withInnerLink, "infra"));
const broken = join(dir, "broken.yaml");
writeFileSync(broken, "version: 1\nentities: 3\n");

interface JsonIssue {
  readonly code: string;
  readonly message: string;
}

/** [what, arguments (--json is added), the flag, what the message says]. */
const CASES: readonly (readonly [string, readonly string[], string, RegExp])[] = [
  ["design --out a regular file", ["design", workload, "--out", aFile], "--out", /is a file, not a folder/],
  [
    "design --out under a regular file",
    ["design", workload, "--out", join(aFile, "out")],
    "--out",
    /a-file is a file, not a folder, so nothing can be under it/,
  ],
  ["design --out an empty path", ["design", workload, "--out", ""], "--out", /the path is empty/],
  [
    "design --out under /proc",
    ["design", workload, "--out", "/proc/x"],
    "--out",
    /\/proc is a virtual file system/,
  ],
  [
    "design --out under /sys",
    ["design", workload, "--out", "/sys/x"],
    "--out",
    /\/sys is a virtual file system/,
  ],
  ["design --out a symbolic link", ["design", workload, "--out", link], "--out", /link is a symbolic link/],
  [
    "design --out under a symbolic link",
    ["design", workload, "--out", join(link, "out")],
    "--out",
    /link is a symbolic link/,
  ],
  [
    "design --out a folder with a link inside",
    ["design", workload, "--out", withInnerLink],
    "--out",
    /infra is a symbolic link inside the output folder/,
  ],
  [
    "render --out a regular file",
    ["render", workload, model, "--out", aFile],
    "--out",
    /is a file, not a folder/,
  ],
  ["render --out an empty path", ["render", workload, model, "--out", ""], "--out", /the path is empty/],
  [
    "evaluate --html a folder",
    ["evaluate", workload, model, "--html", dir],
    "--html",
    /is a folder, not a file/,
  ],
  [
    "evaluate --html under a regular file",
    ["evaluate", workload, model, "--html", join(aFile, "report.html")],
    "--html",
    /is a file, not a folder, so nothing can be under it/,
  ],
  [
    "evaluate --html through a link",
    ["evaluate", workload, model, "--html", join(link, "report.html")],
    "--html",
    /link is a symbolic link/,
  ],
  [
    "evaluate --html an empty path",
    ["evaluate", workload, model, "--html", ""],
    "--html",
    /the path is empty/,
  ],
  ["verify --html a folder", ["verify", workload, model, "--html", dir], "--html", /is a folder, not a file/],
  ["import --out a regular file", ["import", "x.sql", "--out", aFile], "--out", /is a file, not a folder/],
];

describe("output paths refused before any work", () => {
  it.each(CASES)("%s", (_what, args, flag, why) => {
    const start = performance.now();
    const run = runCliInThread([...args, "--json"], 20_000);
    expect(performance.now() - start).toBeLessThan(20_000);
    expect(run.status, run.stderr).toBe(2);
    const { issues } = JSON.parse(run.stdout) as { issues: JsonIssue[] };
    expect(issues).toHaveLength(1);
    expect(issues[0]?.code).toBe("cli.invalidOutputPath");
    expect(issues[0]?.message).toMatch(why);
    if (!why.source.includes("inside the output folder")) expect(issues[0]?.message).toContain(`${flag} "`);
    expect(issues[0]?.message).toMatch(/give a (folder|file) path|give another folder/);
    expect(run.stderr).toMatch(/^error: /);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("the path is checked before the input: a broken workload with a bad --out reports the path", () => {
    const run = runCliInThread(["design", broken, "--out", aFile]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`error: --out "${aFile}": it is a file, not a folder`);
  });

  it("a good --out still writes", () => {
    const out = join(dir, "fresh", "out");
    const run = runCliInThread(["design", workload, "--out", out, "--json"]);
    expect(run.status, run.stderr).toBeLessThan(2);
    expect(readdirSync(out)).toContain("model.yaml");
  });
});
