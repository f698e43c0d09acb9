/**
 * End-to-end tests of `cosmos-modeler check`: they run the built CLI (`node dist/cli/main.js`)
 * as a user would, and check exit status, stdout and stderr.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { runCliInThread } from "../support/cli-thread.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(root, "dist", "cli", "main.js");
const examples = join(root, "examples");

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

beforeAll(() => {
  // `npm test` builds first; when run alone, build unless dist/ is newer than every source file.
  const built = join(root, "dist", "cli", "commands", "check.js");
  if (!existsSync(built) || statSync(built).mtimeMs < newestSource(join(root, "src"))) {
    spawnSync(
      process.execPath,
      [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
      {
        cwd: root,
        encoding: "utf8",
      },
    );
  }
  expect(existsSync(built)).toBe(true);
});

/**
 * The built CLI: with standard input, a process of its own; otherwise in a thread of this process
 * (test/support/cli-thread.ts: one start for the file).
 */
function run(args: readonly string[], input?: string) {
  if (input === undefined) return runCliInThread(args);
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: "utf8", input });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function writeTemporary(name: string, content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "check-test-")), name);
  writeFileSync(path, content);
  return path;
}

const blogging = join(examples, "blogging", "workload.yaml");
const malformed = readFileSync(blogging, "utf8")
  .replace("count: 2750000", "count: -3")
  .replace("avgBytes: 150\n    maxBytes: 600", "avgBytes: 150\n    maxBytse: 600");

describe("cosmos-modeler check", () => {
  it("a valid workload: summary on stdout, exit 0", () => {
    const { status, stdout, stderr } = run(["check", blogging]);
    expect(stderr).toBe("");
    expect(stdout).toBe(
      `${blogging}: 4 entities, 5 relationships, 10 access patterns, 0 errors, 0 warnings\n`,
    );
    expect(status).toBe(0);
  });

  it("warnings do not fail: exit 0 and the warning on stderr", () => {
    const file = join(examples, "iot-telemetry", "workload.yaml");
    const { status, stdout, stderr } = run(["check", file]);
    expect(status).toBe(0);
    expect(stdout).toContain("0 errors, 1 warning\n");
    expect(stderr).toMatch(
      new RegExp(`^warning workload\\.massiveScale ${file}:\\d+ accessPatterns\\[0\\]\\.rps\\.peak: `),
    );
  });

  it("a malformed workload: exit 1, every issue with file, line and field, no stack trace", () => {
    const file = writeTemporary("workload.yaml", malformed);
    const { status, stdout, stderr } = run(["check", file]);
    expect(status).toBe(1);
    const post = malformed.split("\n").findIndex((line) => line.includes("count: -3")) + 1;
    expect(stderr).toContain(
      `error workload.invalidValue ${file}:${post} entities.Post.count: expected a positive number, got -3\n`,
    );
    expect(stderr).toMatch(
      new RegExp(
        `error workload\\.unknownField ${file}:\\d+ entities\\.User\\.maxBytse: unknown field \\(did you mean "maxBytes"\\?\\)`,
      ),
    );
    expect(stderr).not.toContain("    at ");
    expect(stdout).toBe(`${file}: 4 entities, 5 relationships, 10 access patterns, 2 errors, 0 warnings\n`);
  });

  it("--json prints one JSON document with the summary and the issues", () => {
    const good = run(["check", join(examples, "social-reactions", "workload.yaml"), "--json"]);
    expect(good.status).toBe(0);
    expect(good.stderr).toBe("");
    const report = JSON.parse(good.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      ok: true,
      file: join(examples, "social-reactions", "workload.yaml"),
      summary: { entities: 3, relationships: 3, accessPatterns: 9, errors: 0, warnings: 1 },
      issues: [{ code: "workload.massiveScale", severity: "warning" }],
    });

    const file = writeTemporary(
      "bad.json",
      JSON.stringify({ version: 1, name: "x", entities: {}, accessPatterns: [] }),
    );
    const bad = run(["check", file, "--json"]);
    expect(bad.status).toBe(1);
    const badReport = JSON.parse(bad.stdout) as {
      ok: boolean;
      summary: { errors: number };
      issues: { path: string }[];
    };
    expect(badReport.ok).toBe(false);
    expect(badReport.summary.errors).toBe(2);
    expect(badReport.issues.map((issue) => issue.path).sort()).toEqual(["accessPatterns", "entities"]);
  });

  it("reads standard input for -", () => {
    const { status, stdout } = run(["check", "-"], readFileSync(blogging, "utf8"));
    expect(status).toBe(0);
    expect(stdout).toBe("<stdin>: 4 entities, 5 relationships, 10 access patterns, 0 errors, 0 warnings\n");
  });

  it("usage errors exit 2; a missing file exits 1 with a readable message", () => {
    expect(run(["check"]).status).toBe(2);
    expect(run(["check", blogging, "extra"]).status).toBe(2);
    expect(run(["check", blogging, "--bogus"]).status).toBe(2);
    const missing = run(["check", "/nonexistent/workload.yaml"]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(
      "error cli.fileNotFound /nonexistent/workload.yaml: cannot read the file",
    );
    expect(missing.stderr).not.toContain("    at ");
  });
});
