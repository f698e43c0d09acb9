/**
 * Designed models that did not load back (the design-property bench, seeds 1-3, 2026-11-25),
 * reduced to the smallest workloads that reproduced them (src/design/__fixtures__/loadable): each
 * is designed, written as model.yaml, loaded back against its workload and evaluated again to the
 * same figures. And `syntheticKeyPaths`, the rule that fixed the first class.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatIssue } from "../common/issues.js";
import { evaluateModel } from "../cost/evaluate.js";
import { loadModel } from "../model/load-model.js";
import { serializeModel } from "../model/serialize-model.js";
import type { Container, ItemType, Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { designModel, type DesignResult } from "./design-model.js";
import { syntheticKeyPaths } from "./key-paths.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/loadable/", import.meta.url));

function fixture(file: string): Workload {
  const loaded = loadWorkload(readFileSync(`${FIXTURES}${file}`, "utf8"), { file });
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  return loaded.value;
}

/** Designs, writes model.yaml and loads it back (every issue printed when it does not load). */
function designAndReload(workload: Workload): { result: DesignResult; model: Model } {
  const result = designModel(workload);
  const loaded = loadModel(serializeModel(result.model), { file: "model.yaml", workload });
  expect(loaded.ok ? [] : loaded.issues.map(formatIssue)).toEqual([]);
  if (!loaded.ok) throw new Error("unreachable");
  expect(evaluateModel(workload, loaded.value).totals.monthlyCostUSD).toBeCloseTo(
    result.evaluation.totals.monthlyCostUSD,
    6,
  );
  return { result, model: loaded.value };
}

const itemsOf = (model: Model): { container: Container; item: ItemType }[] =>
  model.containers.flatMap((container) => container.items.map((item) => ({ container, item })));

describe("designed models load back", () => {
  it("a lookup item keyed by its value shares a container keyed by another attribute of its entity: the path is synthetic", () => {
    const workload = fixture("lookup-in-keyed-container.yaml");
    const { model } = designAndReload(workload);
    const found = itemsOf(model).find(({ item }) => item.partitionKey[0] === "{trackingCode}");
    // The lookup still shares the orders container (one container less), now keyed by /orderIdKey.
    expect(found?.container.partitionKey).toEqual(["/orderIdKey"]);
    expect(found?.container.items.map((i) => i.partitionKey[0])).toEqual(
      expect.arrayContaining(["{orderId}", "{trackingCode}"]),
    );
  });

  it("a copy of a sharded item type is keyed by its own filter without the source's shards", () => {
    const { model } = designAndReload(fixture("copy-of-sharded-item.yaml"));
    const copies = itemsOf(model).filter(({ item }) => item.source !== undefined);
    expect(copies.length).toBeGreaterThan(0);
    for (const { item } of copies) {
      expect(item.shards).toBeUndefined();
      expect(item.shardBy).toBeUndefined();
    }
  });
});

describe("syntheticKeyPaths", () => {
  const workload = fixture("lookup-in-keyed-container.yaml");
  const item = (type: string, entity: string, key: string): ItemType => ({
    type,
    entity,
    id: `{${key}}`,
    partitionKey: [`{${key}}`],
    truncate: [],
    embeds: [],
    copies: [],
    counts: [],
  });
  const model = (paths: string[], items: ItemType[]): Model => ({
    version: 1,
    containers: [
      { name: "orders", partitionKey: paths, uniqueKeys: [], indexing: { kind: "derived" }, items },
    ],
  });

  it("leaves a path every item type keys by its own value (or lacks) as it is", () => {
    const agreeing = model(
      ["/orderId"],
      [item("order", "Order", "orderId"), item("event", "Event", "orderId")],
    );
    expect(syntheticKeyPaths(workload, agreeing)).toBe(agreeing);
  });

  it("renames a contradicted path to one no item type has, whatever the other item types", () => {
    const lookup = { ...item("codeLookup", "Order", "trackingCode"), select: ["trackingCode", "orderId"] };
    const contradicted = model(["/orderId"], [item("order", "Order", "orderId"), lookup]);
    expect(syntheticKeyPaths(workload, contradicted).containers[0]?.partitionKey).toEqual(["/orderIdKey"]);
    // An item type whose entity already has `orderIdKey` (as a derived property) pushes it further.
    const taken = model(
      ["/orderId"],
      [{ ...item("order", "Order", "orderId"), counts: [{ of: "Event", as: "orderIdKey" }] }, lookup],
    );
    expect(syntheticKeyPaths(workload, taken).containers[0]?.partitionKey).toEqual(["/orderIdKey2"]);
  });

  it("keeps /id while every item type keys it by its id, renames it when one keys it otherwise", () => {
    const byId = model(["/id"], [item("order", "Order", "orderId")]);
    expect(syntheticKeyPaths(workload, byId)).toBe(byId);
    // A child co-located under a parent whose key is its `id` attribute (independent seed 106).
    const child = { ...item("event", "Event", "eventId"), partitionKey: ["{orderId}"] };
    const shared = model(["/id"], [item("order", "Order", "orderId"), child]);
    expect(syntheticKeyPaths(workload, shared).containers[0]?.partitionKey).toEqual(["/idKey"]);
    const byType = model(["/type"], [{ ...item("order", "Order", "orderId"), partitionKey: ["order"] }]);
    expect(syntheticKeyPaths(workload, byType)).toBe(byType);
  });
});

describe("designed models can be maintained", () => {
  it("keeps no count and no newest children of a many-to-many relationship (no via finds their holder)", () => {
    const { model } = designAndReload(fixture("many-to-many-count.yaml"));
    for (const { item } of itemsOf(model)) {
      expect(item.counts).toEqual([]);
      expect(item.embeds).toEqual([]);
    }
  });
});
