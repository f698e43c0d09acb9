/**
 * The deployable artifacts agree with the evaluation exactly: one capacity mode for the account
 * (serverless in every template only when every container is serverless), every container's
 * throughput (manual RU/s or autoscale maximum) as the evaluation provisions it, and zone
 * redundancy on by default only where it adds nothing to the evaluated bill. They deploy as
 * written as far as can be checked offline: Terraform against the azurerm schema, Bicep against
 * the Microsoft.DocumentDB types, the script with `bash -n` and `shellcheck`. Checked on the
 * design of every example and on its baseline.
 */
import { describe, expect, it } from "vitest";
import { evaluateModel } from "../cost/evaluate.js";
import { modelThroughputOf } from "../cost/throughput.js";
import { renderAzureCli } from "../render/azure-cli.js";
import { renderBicep } from "../render/bicep.js";
import { planInfrastructure } from "../render/infrastructure.js";
import { renderTerraform } from "../render/terraform.js";
import { designedExample } from "../test-support/designed-examples.js";
import { EXAMPLE_NAMES } from "../test-support/model-examples.js";
import { productionSettingsOf } from "../render/production-settings.js";
import { parseBicepSubset } from "../test-support/bicep-subset.js";
import {
  bicepFileProblems,
  loadAzurermSchema,
  loadBicepSchemas,
  parseTerraform,
  terraformProblems,
} from "../test-support/iac-schemas.js";
import { bashSyntaxErrors, shellcheckAvailable, shellcheckReport } from "../test-support/shell-checks.js";

const SHELLCHECK = shellcheckAvailable();
if (!SHELLCHECK)
  console.warn(
    "iac-agreement: shellcheck is not installed (apt-get install shellcheck): scripts get bash -n only",
  );

describe("the IaC agrees with the evaluation", () => {
  it.each(EXAMPLE_NAMES.flatMap((name) => [[name, false] as const, [name, true] as const]))(
    "%s (baseline: %s)",
    async (name, baseline) => {
      const { workload, design } = designedExample(name, { baseline });
      const model = design.model;
      const evaluation = evaluateModel(workload, model);
      const throughputByContainer = Object.fromEntries(
        evaluation.containers.map((c) => [c.name, modelThroughputOf(c.throughput)]),
      );
      const options = { throughputByContainer, scale: workload.scale };
      const plan = planInfrastructure(model, options);
      const serverless = evaluation.account.mode === "serverless";
      expect(plan.serverless).toBe(serverless);
      expect(plan.notes.filter((note) => note.includes("ignored"))).toEqual([]);
      expect(renderBicep(model, options).includes("EnableServerless")).toBe(serverless);
      expect(renderTerraform(model, options).includes("EnableServerless")).toBe(serverless);
      expect(renderAzureCli(model, options).includes("EnableServerless")).toBe(serverless);
      for (const container of evaluation.containers) {
        const planned = plan.containers.find((c) => c.definition.id === container.name);
        const expected =
          container.throughput.mode === "manual"
            ? { kind: "manual", rus: container.throughput.provisionedRus }
            : container.throughput.mode === "autoscale"
              ? { kind: "autoscale", maxRus: container.throughput.provisionedRus }
              : undefined;
        expect(planned?.throughput, container.name).toEqual(expected);
      }
      const everyAutoscale = evaluation.containers.every((c) => c.throughput.mode === "autoscale");
      expect(productionSettingsOf(plan).zoneRedundant).toBe(
        !serverless && (plan.multiRegionWrites || everyAutoscale),
      );
      const tf = await parseTerraform(renderTerraform(model, options));
      expect(terraformProblems(tf, loadAzurermSchema())).toEqual([]);
      expect(bicepFileProblems(parseBicepSubset(renderBicep(model, options)), loadBicepSchemas())).toEqual(
        [],
      );
      const script = renderAzureCli(model, options);
      expect(bashSyntaxErrors(script)).toBe("");
      if (SHELLCHECK) expect(shellcheckReport(script)).toBe("");
    },
  );
});
