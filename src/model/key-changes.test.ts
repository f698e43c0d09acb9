/**
 * Which writes move items, and the model check that refuses an item type a write would have to
 * patch its key in place (a bucket item keyed by an attribute writes change).
 */
import { describe, expect, it } from "vitest";
import { loadWorkload } from "../workload/load-workload.js";
import type { WritePattern } from "../workload/types.js";
import { addressingAttributes, attributesChangedBy, movedBy } from "./key-changes.js";
import { loadModel } from "./load-model.js";

const workload = (() => {
  const loaded = loadWorkload(`version: 1
name: fleet
entities:
  Ping:
    key: pingId
    count: 1000
    avgBytes: 200
    attributes:
      pingId: string
      vehicleId: { type: string, changes: rare }
      at: datetime
      speed: { type: number, changes: frequent }
accessPatterns:
  - { id: C1, name: ping, type: write, operation: create, entity: Ping, rps: { avg: 10, peak: 20 } }
  - { id: W1, name: reassign, type: write, operation: patch, entity: Ping, changes: [vehicleId], rps: { avg: 1, peak: 2 } }
  - { id: W2, name: fix speed, type: write, operation: replace, entity: Ping, rps: { avg: 1, peak: 2 } }
  - { id: Q1, name: track, type: read, entity: Ping, where: { vehicleId: eq }, rps: { avg: 1, peak: 2 } }
`);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return loaded.value;
})();
const ping = workload.entities[0];
const pattern = (id: string) => workload.accessPatterns.find((p) => p.id === id) as WritePattern;

describe("attributesChangedBy and movedBy", () => {
  it("takes the pattern's changes, else every attribute that changes; never the key, nothing for a create", () => {
    if (ping === undefined) throw new Error("no entity");
    expect([...attributesChangedBy(ping, pattern("W1"))]).toEqual(["vehicleId"]);
    expect([...attributesChangedBy(ping, pattern("W2"))]).toEqual(["vehicleId", "speed"]);
    expect([...attributesChangedBy(ping, pattern("C1"))]).toEqual([]);
  });
  it("moves an item whose id, key, shard or window attribute changes", () => {
    if (ping === undefined) throw new Error("no entity");
    const item = {
      type: "ping",
      entity: "Ping",
      id: "{pingId}",
      partitionKey: ["{vehicleId}"],
      truncate: [],
      embeds: [],
      copies: [],
      counts: [],
    };
    expect(addressingAttributes(item)).toEqual(["pingId", "vehicleId"]);
    expect(movedBy(ping, item, pattern("W1"))).toEqual(["vehicleId"]);
    expect(movedBy(ping, { ...item, partitionKey: ["{pingId}"] }, pattern("W1"))).toEqual([]);
  });
});

describe("the model check of keys patched in place", () => {
  it("refuses a bucket item keyed by an attribute a write changes, at the template, naming the pattern", () => {
    const loaded = loadModel(
      `version: 1
containers:
  - name: pings
    partitionKey: [/vehicleId]
    items:
      - { type: bucket, entity: Ping, id: "{vehicleId}-{bucket}", partitionKey: ["{vehicleId}"], bucket: { by: at, window: 1h } }
`,
      { workload, file: "model.yaml" },
    );
    expect(loaded.ok).toBe(false);
    const issues = loaded.issues.filter((issue) => issue.code === "model.keyChangedInPlace");
    expect(issues.map((issue) => [issue.path, issue.line, "pattern" in issue ? issue.pattern : ""])).toEqual([
      [["containers", 0, "items", 0, "partitionKey", 0], 6, "W1"],
      [["containers", 0, "items", 0, "partitionKey", 0], 6, "W2"],
    ]);
    expect(issues[0]?.message).toContain("a bucket item holds many records under one id and partition key");
  });
  it("accepts the same attribute as the key of an item the write can move", () => {
    const loaded = loadModel(
      `version: 1
containers:
  - name: pings
    partitionKey: [/vehicleId]
    items:
      - { type: ping, entity: Ping, id: "{pingId}", partitionKey: ["{vehicleId}"] }
`,
      { workload },
    );
    expect(loaded.issues.filter((issue) => issue.severity === "error")).toEqual([]);
  });
});

describe("the model check of a many-to-many copy source that would move", () => {
  const linked = (() => {
    const loaded = loadWorkload(`version: 1
name: tagged visits
entities:
  Tag:
    key: tagId
    count: 20
    avgBytes: 300
    attributes: { tagId: string, label: { type: string, changes: frequent } }
  Visit:
    key: visitId
    count: 50
    avgBytes: 500
    attributes: { visitId: string }
relationships:
  - { parent: Tag, child: Visit, kind: many-to-many, avg: 1.1 }
accessPatterns:
  - { id: W1, name: relabel, type: write, operation: patch, entity: Tag, changes: [label], rps: { avg: 1, peak: 2 } }
  - { id: Q1, name: visit, type: read, entity: Visit, where: { visitId: eq }, with: [Tag.label], rps: { avg: 5, peak: 10 } }
`);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    return loaded.value;
  })();
  const model = (tagId: string) => `version: 1
containers:
  - name: tags
    partitionKey: [/tagId]
    items:
      - { type: tag, entity: Tag, id: "${tagId}", partitionKey: ["{tagId}"] }
  - name: visits
    partitionKey: [/visitId]
    items:
      - { type: visit, entity: Visit, id: "{visitId}", partitionKey: ["{visitId}"], copies: [{ from: Tag.label, as: tagLabels }] }
`;
  it("refuses a source keyed by an attribute writes change: its move's delete would empty the copies (independent seed 23)", () => {
    const loaded = loadModel(model("{label}"), { workload: linked, file: "model.yaml" });
    const issues = loaded.issues.filter((issue) => issue.code === "model.keyChangedInPlace");
    expect(issues.map((issue) => issue.path)).toEqual([["containers", 0, "items", 0, "id"]]);
    expect(issues[0]?.message).toContain(
      "visits/visit keeps a copy of Tag across a many-to-many relationship",
    );
  });
  it("accepts the source keyed by its entity key", () => {
    const loaded = loadModel(model("{tagId}"), { workload: linked });
    expect(loaded.issues.filter((issue) => issue.severity === "error")).toEqual([]);
  });
});

describe("the model check of append-only buckets", () => {
  const appendOnly = (writes: string) => {
    const loaded = loadWorkload(`version: 1
name: orders
entities:
  Order:
    key: orderId
    count: 1000
    avgBytes: 200
    attributes:
      orderId: string
      accountId: string
      at: datetime
      note: { type: string, changes: rare }
accessPatterns:
  - { id: C1, name: place, type: write, operation: create, entity: Order, rps: { avg: 10, peak: 20 } }
${writes}
  - { id: Q1, name: history, type: read, entity: Order, where: { accountId: eq }, orderBy: { at: desc }, rps: { avg: 1, peak: 2 } }
`);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    return loadModel(
      `version: 1
containers:
  - name: orders
    partitionKey: [/accountId]
    items:
      - { type: orderBucket, entity: Order, id: "{accountId}-{bucket}", partitionKey: ["{accountId}"], bucket: { by: at, window: 1h } }
`,
      { workload: loaded.value, file: "model.yaml" },
    );
  };
  it("refuses binning records that writes patch, replace, upsert with changes or delete one by one", () => {
    const loaded =
      appendOnly(`  - { id: W1, name: edit, type: write, operation: patch, entity: Order, changes: [note], rps: { avg: 1, peak: 2 } }
  - { id: W2, name: fix, type: write, operation: upsert, entity: Order, changes: [note], rps: { avg: 1, peak: 2 } }
  - { id: D1, name: remove, type: write, operation: delete, entity: Order, rps: { avg: 1, peak: 2 } }`);
    expect(loaded.ok).toBe(false);
    const issues = loaded.issues.filter((issue) => issue.code === "model.badBucket");
    expect(issues.map((issue) => [issue.path, issue.severity])).toEqual([
      [["containers", 0, "items", 0, "bucket"], "error"],
    ]);
    expect(issues[0]?.message).toContain(
      "W1 (patch), W2 (upsert), D1 (delete) rewrite or delete single Order records",
    );
  });
  it("accepts records that are only created (an upsert without changes counts as a create)", () => {
    const loaded = appendOnly(
      `  - { id: W1, name: ingest, type: write, operation: upsert, entity: Order, rps: { avg: 1, peak: 2 } }`,
    );
    expect(loaded.issues.filter((issue) => issue.severity === "error")).toEqual([]);
  });
});
