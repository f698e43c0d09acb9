/**
 * Every infrastructure output (`containers.json`, `main.bicep`, `main.tf`, `create-containers.sh`)
 * creates the same containers, read back from each file: the model's containers and the
 * change-feed processors' lease container (partitioned by `/id`), with TTL on (`defaultTtl`, -1
 * unless the model sets one) wherever items carry their own `ttl`: item types' own and soft-delete
 * tombstones. A model that forgets `defaultTtl` there still gets -1 in every output, with a note,
 * beside the evaluation's error `evaluate.ttlOff`.
 */
import { describe, expect, it } from "vitest";
import { expiringItems } from "../cost/soundness.js";
import { evaluateModel } from "../cost/evaluate.js";
import type { Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import { loadExample } from "../test-support/evaluate-fixtures.js";
import { containersOfEveryOutput, INFRASTRUCTURE_FILES } from "../test-support/infrastructure-outputs.js";
import { EXAMPLE_NAMES } from "../test-support/model-examples.js";
import { soundnessFixture } from "../test-support/soundness-fixtures.js";
import { renderDeliverables } from "./render-deliverables.js";

/** Renders what `render --out` writes and checks the containers of every output against the model. */
async function expectEveryOutputAgrees(workload: Workload, model: Model): Promise<string[]> {
  const files = await renderDeliverables(workload, model, evaluateModel(workload, model));
  const outputs = await containersOfEveryOutput(files);
  const expectedIds = [
    ...model.containers.map((c) => c.name),
    ...(model.leases === undefined ? [] : [model.leases]),
  ];
  for (const file of INFRASTRUCTURE_FILES) {
    const containers = outputs[file];
    expect(containers.map((c) => c.id).sort(), file).toEqual([...expectedIds].sort());
    if (model.leases !== undefined)
      expect(
        containers.find((c) => c.id === model.leases)?.partitionKeyPaths,
        `${file}: lease container`,
      ).toEqual(["/id"]);
    for (const container of model.containers) {
      const written = containers.find((c) => c.id === container.name);
      const expiring = expiringItems(workload, model, container);
      const expected = container.defaultTtl ?? (expiring.length > 0 ? -1 : undefined);
      expect(written?.defaultTtl, `${file}: defaultTtl of ${container.name} (${expiring.join("; ")})`).toBe(
        expected,
      );
    }
  }
  // Bicep, Terraform and the script provision the same RU/s per container.
  const rus = (file: (typeof INFRASTRUCTURE_FILES)[number]) =>
    Object.fromEntries(outputs[file].map((c) => [c.id, c.rus]));
  expect(rus("infra/main.tf")).toEqual(rus("infra/main.bicep"));
  expect(rus("infra/create-containers.sh")).toEqual(rus("infra/main.bicep"));
  return files.map((f) => f.content);
}

describe("every infrastructure output", () => {
  it.each(EXAMPLE_NAMES)(
    "%s: the model's containers and the lease container, TTL on where items carry a ttl",
    async (name) => {
      const { workload, model } = loadExample(name);
      await expectEveryOutputAgrees(workload, model);
    },
  );

  it("turns TTL on (-1) for soft-delete tombstones the model forgot, and says so", async () => {
    const { workload, model } = soundnessFixture("social-likes");
    const copy = model("model-copy-addressed.yaml");
    const withoutTtl: Model = { ...copy, containers: copy.containers.map(({ defaultTtl: _ttl, ...c }) => c) };
    const tombstones = withoutTtl.containers.flatMap((c) => expiringItems(workload, withoutTtl, c));
    expect(tombstones.join(" ")).toContain("tombstone");
    expect(evaluateModel(workload, withoutTtl).issues.map((i) => i.code)).toContain("evaluate.ttlOff");
    const contents = await expectEveryOutputAgrees(workload, withoutTtl);
    expect(
      contents.filter((text) => text.includes("defaultTtl -1 (TTL on, no default expiry)")),
    ).toHaveLength(3);
  });

  it("turns TTL on (-1) for item types' own ttl the model forgot", async () => {
    const { workload, model } = loadExample("accounts-sessions");
    const expiring = model.containers.filter((c) => c.items.some((i) => i.ttl !== undefined));
    expect(expiring.length).toBeGreaterThan(0);
    const withoutTtl: Model = {
      ...model,
      containers: model.containers.map(({ defaultTtl: _ttl, ...c }) => c),
    };
    await expectEveryOutputAgrees(workload, withoutTtl);
  });
});
