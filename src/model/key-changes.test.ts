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
