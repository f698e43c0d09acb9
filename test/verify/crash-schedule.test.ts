/**
 * The crash-schedule property in npm test (issue 25): the generated module's change-feed
 * processors over a simulated feed, killed before or after handler writes, checkpoints and
 * recorded intents, restarted from their leases; every read, write and probe of verify must still
 * pass. A sample: `npm run bench -- crash-schedule` runs the six examples' designs and expert
 * models and 50 random designs.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../../src/model/load-model.js";
import { crashReport, crashSchedules, runCrashProperty } from "../../src/test-support/crash-property.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "../../src/verify/endpoint.js";
import { loadWorkload } from "../../src/workload/load-workload.js";

let endpoint: CosmosEndpoint | undefined;

beforeAll(async () => {
  endpoint = await startEmbeddedEndpoint();
}, 30_000);

afterAll(async () => {
  await endpoint?.close();
});

function subject(example: string, modelFile: string) {
  const text = readFileSync(new URL(`../../examples/${example}/workload.yaml`, import.meta.url), "utf8");
  const workload = loadWorkload(text, { file: "workload.yaml" });
  if (!workload.ok) throw new Error(`${example}: workload`);
  const modelText = readFileSync(
    new URL(`../fixtures/examples/${example}/${modelFile}`, import.meta.url),
    "utf8",
  );
  const model = loadModel(modelText, { file: modelFile, workload: workload.value });
  if (!model.ok) throw new Error(`${example}/${modelFile}: model`);
  return { label: `${example}/${modelFile}`, workload: workload.value, model: model.value };
}

describe("crash schedules", () => {
  it("spreads single and double crashes over the steps", () => {
    expect(crashSchedules(0, 6, 2)).toEqual([]);
    const schedules = crashSchedules(100, 4, 1);
    expect(schedules.map((s) => s.map((p) => `${p.step}${p.when[0] ?? ""}`).join("+"))).toEqual([
      "13a",
      "38b",
      "63a",
      "88b",
      "25a+75b",
    ]);
  });

  it("social-reactions' design: counters exact whatever step the processor dies at", async () => {
    if (endpoint === undefined) throw new Error("no endpoint");
    const outcome = await runCrashProperty(
      endpoint,
      [subject("social-reactions", "design-2026-11-23.yaml")],
      {
        points: 4,
        doubles: 1,
        maxItemsPerEntity: 20,
      },
    );
    expect(outcome.withSteps, crashReport(outcome)).toBe(1);
    expect(outcome.crashes, crashReport(outcome)).toBeGreaterThanOrEqual(5);
    expect(outcome.failures, crashReport(outcome)).toEqual([]);
    expect(outcome.baselineFailures, crashReport(outcome)).toEqual([]);
  }, 240_000);
});
