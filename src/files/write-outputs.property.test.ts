/**
 * Issue 32: output folders stay resumable under any sequence of kills. Sequences of runs of
 * `writeOutputs` (the writer behind `design --out` and `render --out`), over three file sets
 * that share some paths and differ in others, each run killed at a chosen write or rename
 * boundary or left to finish; then one more run of any set must finish without a false
 * "hand-edited", leave no temporary file, and end with every file as that run rendered it and
 * a manifest that records exactly that.
 *
 * A kill is a hook that never returns: nothing after it runs in that write (no cleanup, no
 * `catch`), as after SIGKILL; the files are as the killed run left them. The child-process
 * version with the real design is test/cli/interrupted-write.test.ts.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RenderedFile } from "../render/artifacts.js";
import { writeOutputs } from "./write-outputs.js";

/** Three runs' outputs: shared paths with different contents, paths only one writes, a script. */
function fileSet(variant: number): RenderedFile[] {
  const files: RenderedFile[] = [
    { path: "model.yaml", content: `version: 1 # variant ${variant}\n`, executable: false },
    { path: "cosmosdb_data_model.md", content: `# Data model ${variant}\n`, executable: false },
    { path: "cosmosdb_requirements.md", content: "# Requirements\n", executable: false },
    { path: "infra/main.bicep", content: `// bicep ${variant % 2}\n`, executable: false },
    { path: "infra/create-containers.sh", content: `#!/bin/sh\necho ${variant}\n`, executable: true },
    { path: "src/data-access.ts", content: `export const v = ${variant};\n`, executable: false },
  ];
  if (variant === 1) files.push({ path: "src/only-one.ts", content: "export {};\n", executable: false });
  if (variant === 2) files.push({ path: "infra/only-two.tf", content: "# two\n", executable: false });
  return files;
}

const SETS = [0, 1, 2].map(fileSet);

/** One run of a sequence: which file set, and the hook call it dies at (none: it finishes). */
interface Run {
  readonly set: number;
  readonly killAt: number | undefined;
}

const run: fc.Arbitrary<Run> = fc.record({
  set: fc.integer({ min: 0, max: 2 }),
  // 2 hooks per file (before and after its rename) and 2 per manifest write: at most 20 a run.
  killAt: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
});

/** Runs `writeOutputs`, abandoned at its `killAt`-th hook call; true when it was killed. */
async function writeKilledAt(dir: string, files: readonly RenderedFile[], killAt: number | undefined) {
  let calls = 0;
  let killed!: () => void;
  const died = new Promise<"killed">((resolve) => {
    killed = () => resolve("killed");
  });
  const hook = (): Promise<void> | void => {
    calls++;
    if (calls !== killAt) return;
    killed();
    // Never settles: the write stops here, as the process would.
    return new Promise<void>(() => undefined);
  };
  const hooks = { beforeRename: hook, afterRename: hook };
  return Promise.race([writeOutputs(dir, files, false, { hooks }).then(() => "finished" as const), died]);
}

const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) =>
    statSync(join(dir, name)).isFile(),
  );
}

describe("output folders under any sequence of kills", () => {
  it("the next complete run finishes clean: no false hand-edit, no temporary file, every file as rendered", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(run, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 2 }),
        async (runs, last) => {
          const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-kills-"));
          // Every content any run of the sequence renders: a file is always one of them, whole.
          const contents = new Set(SETS.flatMap((set) => set.map((file) => file.content)));
          for (const { set, killAt } of runs) {
            await writeKilledAt(dir, SETS[set] ?? [], killAt);
            for (const name of listFiles(dir).filter(
              (n) => !n.endsWith(".tmp") && !n.startsWith(".cosmos-modeler"),
            ))
              expect(contents.has(readFileSync(join(dir, name), "utf8")), name).toBe(true);
          }
          const files = SETS[last] ?? [];
          await writeOutputs(dir, files);
          expect(listFiles(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
          for (const file of files) expect(readFileSync(join(dir, file.path), "utf8")).toBe(file.content);
          const manifest = JSON.parse(
            readFileSync(join(dir, ".cosmos-modeler", "manifest.json"), "utf8"),
          ) as {
            files: Record<string, string>;
            writing?: unknown;
          };
          expect(manifest.writing).toBeUndefined();
          for (const file of files) expect(manifest.files[file.path]).toBe(sha256(file.content));
          // And the folder stays the tool's: another set is written over it without a complaint.
          await writeOutputs(dir, SETS[(last + 1) % 3] ?? []);
        },
      ),
      { numRuns: 60, seed: 20261128 },
    );
  }, 120_000);

  it("the reported sequence: killed during the renames, the same set killed right after its intent, then another set", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-kills-"));
    const [first, second, third] = SETS;
    await writeOutputs(dir, first ?? []);
    // Killed after the intent (hook 2: after the manifest's rename) and two files renamed.
    expect(await writeKilledAt(dir, second ?? [], 6)).toBe("killed");
    // The same set again, killed right after recording its intent.
    expect(await writeKilledAt(dir, second ?? [], 2)).toBe("killed");
    await expect(writeOutputs(dir, third ?? [])).resolves.toMatchObject({ written: expect.any(Array) });
  });
});
