/**
 * Golden files: every example's requirements document and infrastructure artifacts
 * (rendered from its expert model) are compared with the files checked in under
 * `src/render/__golden__/<example>/`. `UPDATE_GOLDEN=1 npx vitest run src/render` rewrites them,
 * so a change of output shows up as a reviewable diff.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { EXAMPLE_NAMES, readExample } from "../test-support/model-examples.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { renderAzureCli } from "./azure-cli.js";
import { renderBicep } from "./bicep.js";
import { renderDiagram } from "./diagram.js";
import { renderContainerDefinitions, type InfrastructureOptions } from "./infrastructure.js";
import { renderRequirements } from "./requirements.js";
import { renderTerraform } from "./terraform.js";

const GOLDEN_DIR = fileURLToPath(new URL("./__golden__/", import.meta.url));
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";

function expectGolden(relativePath: string, actual: string): void {
  const file = join(GOLDEN_DIR, relativePath);
  if (UPDATE || !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    if (!UPDATE) throw new Error(`golden file ${relativePath} was missing and has been written: check it in`);
    return;
  }
  expect(actual, `${relativePath} differs from its golden file (UPDATE_GOLDEN=1 rewrites it)`).toBe(
    readFileSync(file, "utf8"),
  );
}

function loadExample(name: string): { workload: Workload; model: Model } {
  const loaded = loadWorkload(readExample(`${name}/workload.yaml`), { file: `${name}/workload.yaml` });
  if (!loaded.ok) throw new Error(`${name}: ${JSON.stringify(loaded.issues)}`);
  const model = loadModel(readExample(`${name}/expert-model.yaml`), {
    file: `${name}/expert-model.yaml`,
    workload: loaded.value,
  });
  if (!model.ok) throw new Error(`${name}: ${JSON.stringify(model.issues)}`);
  return { workload: loaded.value, model: model.value };
}

describe.each(EXAMPLE_NAMES)("golden files of %s", (name) => {
  it("renders the requirements document", () => {
    const { workload } = loadExample(name);
    expectGolden(`${name}/cosmosdb_requirements.md`, renderRequirements(workload));
  });

  it("renders the container definitions, Bicep, Terraform and Azure CLI script of the expert model", () => {
    const { workload, model } = loadExample(name);
    const options: InfrastructureOptions = { scale: workload.scale };
    expectGolden(`${name}/containers.json`, renderContainerDefinitions(model, options));
    expectGolden(`${name}/main.bicep`, renderBicep(model, options));
    expectGolden(`${name}/main.tf`, renderTerraform(model, options));
    expectGolden(`${name}/create-containers.sh`, renderAzureCli(model, options));
    expectGolden(`${name}/diagram.mmd`, renderDiagram(model));
  });
});
