/**
 * The generated data-access project is lint clean under this repository's eslint configuration
 * (eslint.config.js: recommended + typescript-eslint strict, unused variables and `prefer-const`
 * as errors) for every example model: the module and the runtime folder it ships. The strict
 * compile of the same files is in render-data-access.test.ts.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { loadExampleModel } from "../../test-support/generated-module.js";
import { EXAMPLE_NAMES } from "../../test-support/model-examples.js";
import { renderDataAccessFiles } from "./render-data-access.js";

const REPOSITORY = fileURLToPath(new URL("../../../", import.meta.url));

const MODELS: readonly (readonly [string, string, string])[] = [
  ...EXAMPLE_NAMES.map((name) => [name, name, "expert-model.yaml"] as const),
  ["blogging-v1", "blogging", "model-v1.yaml"],
  ["blogging-v2", "blogging", "model-v2.yaml"],
  ["blogging-v3", "blogging", "model-v3.yaml"],
];

describe("the generated data-access project", () => {
  it("has no eslint message for any example model (module and runtime)", async () => {
    // The repository's configuration, applied to files under test-output/ (which it ignores).
    const eslint = new ESLint({ cwd: REPOSITORY, ignore: false });
    const messages: string[] = [];
    const linted = new Set<string>();
    for (const [label, name, file] of MODELS) {
      const example = loadExampleModel(name, file);
      for (const generated of renderDataAccessFiles(example.workload, example.model, example.plans)) {
        // The runtime files are the same for every model: lint them once.
        if (generated.path !== "data-access.ts" && linted.has(generated.path)) continue;
        linted.add(generated.path);
        const filePath = join(REPOSITORY, "test-output", "lint", label, generated.path);
        const [result] = await eslint.lintText(generated.content, { filePath });
        for (const message of result?.messages ?? []) {
          messages.push(
            `${label}/${generated.path}:${message.line} ${message.ruleId ?? ""} ${message.message}`,
          );
        }
      }
    }
    expect(linted.size).toBeGreaterThan(20);
    expect(messages).toEqual([]);
  }, 120_000);
});
