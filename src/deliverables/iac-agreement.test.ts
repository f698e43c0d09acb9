/**
 * The deployable artifacts agree with the evaluation exactly: one capacity mode for the account
 * (serverless in every template only when every container is serverless), and every container's
 * throughput (manual RU/s or autoscale maximum) as the evaluation provisions it. Checked on the
 * design of every example and on its baseline.
 */
import { describe, expect, it } from "vitest";
import { evaluateModel } from "../cost/evaluate.js";
import { modelThroughputOf } from "../cost/throughput.js";
import { renderAzureCli } from "../render/azure-cli.js";
import { renderBicep } from "../render/bicep.js";
import { planInfrastructure } from "../render/infrastructure.js";
import { renderTerraform } from "../render/terraform.js";
import { EXAMPLE_NAMES, readExampleWorkload } from "../test-support/model-examples.js";
import { designModel } from "../design/design-model.js";

describe("the IaC agrees with the evaluation", () => {
  it.each(EXAMPLE_NAMES.flatMap((name) => [[name, false] as const, [name, true] as const]))(
    "%s (baseline: %s)",
    (name, baseline) => {
      const workload = readExampleWorkload(name);
      const model = designModel(workload, { baseline }).model;
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
    },
  );
});
