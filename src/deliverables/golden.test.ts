/**
 * Golden files: for every example, the files a user gets, produced by the functions the CLI
 * calls, compared with the files checked in under `src/deliverables/__golden__/<example>/`:
 * - `design/`: what `design examples/<example>/workload.yaml --out DIR` writes
 *   (`designModel`, then `renderDesignDeliverables`);
 * - `expert/`: what `render examples/<example>/workload.yaml <expert-model.yaml> --out DIR` writes
 *   for the example's expert model (`evaluateModel`, then `renderDeliverables`).
 * Each folder holds exactly the rendered file set (the manifest of written files aside), but for
 * the data-access runtime in `src/data-access-runtime/`: copies of `src/runtime/`, compared with
 * those files themselves (the same for every example, so not kept twelve times).
 * `UPDATE_GOLDEN=1 npx vitest run src/deliverables` rewrites them, so a change of output shows
 * up as a reviewable diff; `diff -r` against a real `--out` folder shows the same files.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRICES } from "../cosmos/prices.js";
import { evaluateModel } from "../cost/evaluate.js";
import type { RenderedFile } from "../render/artifacts.js";
import { loadExample } from "../test-support/evaluate-fixtures.js";
import { filesUnder } from "../test-support/files.js";
import { designedExample } from "../test-support/designed-examples.js";
import { EXAMPLE_NAMES } from "../test-support/model-examples.js";
import { renderDeliverables, renderDesignDeliverables } from "./render-deliverables.js";

const GOLDEN_DIR = fileURLToPath(new URL("./__golden__/", import.meta.url));
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";

/** Prefix of the runtime's copies in a rendered file set. */
const RUNTIME_COPIES = "src/data-access-runtime/";

/** The runtime's copies equal the runtime's own files; the rest is what the golden folder holds. */
function withoutRuntimeCopies(files: readonly RenderedFile[]): readonly RenderedFile[] {
  const runtimeDir = fileURLToPath(new URL("../runtime/", import.meta.url));
  const copies = files.filter((file) => file.path.startsWith(RUNTIME_COPIES));
  expect(copies.length).toBeGreaterThan(0);
  for (const copy of copies) {
    expect(copy.content, copy.path).toBe(
      readFileSync(join(runtimeDir, copy.path.slice(RUNTIME_COPIES.length)), "utf8"),
    );
  }
  return files.filter((file) => !file.path.startsWith(RUNTIME_COPIES));
}

/** Compares a rendered file set with its golden folder (or rewrites the folder). */
function expectGoldenSet(folder: string, rendered: readonly RenderedFile[]): void {
  const files = withoutRuntimeCopies(rendered);
  const dir = join(GOLDEN_DIR, folder);
  if (UPDATE || !existsSync(dir)) {
    rmSync(dir, { recursive: true, force: true });
    for (const file of files) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.content);
    }
    if (!UPDATE) throw new Error(`golden folder ${folder} was missing and has been written: check it in`);
    return;
  }
  expect(
    files.map((file) => file.path).sort(),
    `${folder}: the rendered file set differs from the golden folder (UPDATE_GOLDEN=1 rewrites it)`,
  ).toEqual(filesUnder(dir));
  for (const file of files) {
    expect(
      file.content,
      `${folder}/${file.path} differs from its golden file (UPDATE_GOLDEN=1 rewrites it)`,
    ).toBe(readFileSync(join(dir, file.path), "utf8"));
  }
}

describe.each(EXAMPLE_NAMES)("golden files of %s", (name) => {
  it("design --out: the designed model's files, with the decisions and the baseline comparison", async () => {
    // The design with the default prices (DEFAULT_PRICES), once per process.
    const { workload, design } = designedExample(name);
    const files = await renderDesignDeliverables(workload, design, { prices: DEFAULT_PRICES });
    expect(files.find((file) => file.path === "cosmosdb_data_model.md")?.content).toContain(
      "**Compared with the baseline**",
    );
    expectGoldenSet(`${name}/design`, files);
  });

  it("render <expert model> --out: the expert model's files", async () => {
    const { workload, model } = loadExample(name);
    const evaluation = evaluateModel(workload, model, { prices: DEFAULT_PRICES });
    expectGoldenSet(
      `${name}/expert`,
      await renderDeliverables(workload, model, evaluation, { prices: DEFAULT_PRICES }),
    );
  });
});
