/**
 * Issue 14: an interrupted `design --out` is resumable. A child process writes the deliverables
 * of a changed workload through the same `writeOutputs` the CLI uses, with a test hook that
 * kills it (SIGKILL, nothing runs after) between two renames, or between writing a temporary file
 * and renaming it; the next `design --out` must then write its files without `--force`, leave no
 * temporary file behind and end with a manifest that records only final contents.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { runCliInThread } from "../support/cli-thread.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A small workload (the test is about writing, not designing): one entity, a read and a write. */
function smallWorkload(dir: string, peak: number): string {
  const path = join(dir, `workload-${peak}.yaml`);
  writeFileSync(
    path,
    [
      "version: 1",
      "name: Notes",
      "entities:",
      "  Note:",
      "    key: noteId",
      "    count: 100000",
      "    avgBytes: 500",
      "    attributes: { noteId: string, ownerId: string, createdAt: datetime }",
      "accessPatterns:",
      "  - { id: Q1, name: List a user's notes, type: read, entity: Note, where: { ownerId: eq }, rps: { avg: 5, peak: " +
        String(peak) +
        " } }",
      "  - { id: C1, name: Write a note, type: write, operation: create, entity: Note, rps: { avg: 1, peak: 2 } }",
      "",
    ].join("\n"),
  );
  return path;
}

beforeAll(() => {
  if (!existsSync(join(root, "dist", "files", "write-outputs.js"))) {
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

/**
 * Runs, in a child process, the design of `workload` and the writing of its deliverables into
 * `out`, killed by SIGKILL at the `killAt`-th call of the hook `hook`.
 */
function writeAndKill(workload: string, out: string, hook: "beforeRename" | "afterRename", killAt: number) {
  const dist = (path: string) => pathToFileURL(join(root, "dist", path)).href;
  const script = `
    import { readFileSync } from "node:fs";
    const { loadWorkload } = await import(${JSON.stringify(dist("workload/load-workload.js"))});
    const { designModel } = await import(${JSON.stringify(dist("design/design-model.js"))});
    const { renderDesignDeliverables } = await import(${JSON.stringify(dist("deliverables/render-deliverables.js"))});
    const { writeOutputs } = await import(${JSON.stringify(dist("files/write-outputs.js"))});
    const loaded = loadWorkload(readFileSync(${JSON.stringify(workload)}, "utf8"), {});
    const result = designModel(loaded.value);
    const files = await renderDesignDeliverables(loaded.value, result);
    let calls = 0;
    await writeOutputs(${JSON.stringify(out)}, files, false, {
      hooks: { ${hook}: () => { calls++; if (calls === ${killAt}) process.kill(process.pid, "SIGKILL"); } },
    });
  `;
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
}

function temporaries(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".tmp"));
}

function manifest(dir: string): { files: Record<string, string>; writing?: Record<string, string[]> } {
  return JSON.parse(readFileSync(join(dir, ".cosmos-modeler", "manifest.json"), "utf8")) as {
    files: Record<string, string>;
    writing?: Record<string, string[]>;
  };
}

describe("an interrupted design --out", () => {
  it.each([
    ["between two renames", "afterRename", 3],
    ["after writing a temporary file, before its rename", "beforeRename", 2],
  ] as const)("killed %s: the next run writes without --force and cleans up", (_, hook, killAt) => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interrupted-"));
    const out = join(dir, "out");
    expect(run(["design", smallWorkload(dir, 20), "--out", out]).status).toBe(0);
    // A different peak changes the documents and the evaluation: most files are rewritten.
    const changed = smallWorkload(dir, 400);
    const killed = writeAndKill(changed, out, hook, killAt);
    expect(killed.signal).toBe("SIGKILL");
    // The run died with its intent recorded: the manifest lists what it was writing.
    expect(Object.keys(manifest(out).writing ?? {}).length).toBeGreaterThan(0);
    if (hook === "beforeRename") expect(temporaries(out).length).toBeGreaterThan(0);

    const resumed = run(["design", changed, "--out", out]);
    expect(resumed.stderr).not.toContain("cli.handEdited");
    expect(resumed.status).toBe(0);
    expect(temporaries(out)).toEqual([]);
    const after = manifest(out);
    expect(after.writing).toBeUndefined();
    expect(Object.keys(after.files)).toContain("model.yaml");
  });

  it("two interrupted runs (killed during the renames, then right after recording the intent), then another workload: written, no false hand-edit", () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interrupted-"));
    const out = join(dir, "out");
    expect(run(["design", smallWorkload(dir, 20), "--out", out]).status).toBe(0);
    const changed = smallWorkload(dir, 400);
    // The first hook call after a rename is the manifest's (the intent), then one per file.
    expect(writeAndKill(changed, out, "afterRename", 5).signal).toBe("SIGKILL");
    expect(writeAndKill(changed, out, "afterRename", 1).signal).toBe("SIGKILL");
    const other = run(["design", smallWorkload(dir, 3000), "--out", out]);
    expect(other.stderr).not.toContain("cli.handEdited");
    expect(other.status).toBe(0);
    expect(temporaries(out)).toEqual([]);
    expect(manifest(out).writing).toBeUndefined();
  });

  it("still refuses a file edited by hand after an interrupted run", () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interrupted-"));
    const out = join(dir, "out");
    expect(run(["design", smallWorkload(dir, 20), "--out", out]).status).toBe(0);
    const changed = smallWorkload(dir, 400);
    expect(writeAndKill(changed, out, "afterRename", 2).signal).toBe("SIGKILL");
    writeFileSync(join(out, "model.yaml"), "# my own edits\n");
    const resumed = run(["design", changed, "--out", out]);
    expect(resumed.status).toBe(1);
    expect(resumed.stderr).toContain("cli.handEdited");
    expect(resumed.stderr).toContain("model.yaml");
  });
});
