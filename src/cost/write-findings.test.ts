/**
 * Findings of write plans as evaluation errors, on the write-path reproducers
 * (test/fixtures/writes/): a counter its counted child cannot address (counteraddr, issue 11's
 * sample 2/3).
 */
import { describe, expect, it } from "vitest";
import { formatIssue } from "../common/issues.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { readWriteFixture } from "../test-support/model-examples.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { evaluateModel } from "./evaluate.js";

function fixture(name: string): { workload: Workload; model: Model } {
  const text = readWriteFixture(name);
  const workload = loadWorkload(text.workload, { file: "workload.yaml" });
  if (!workload.ok) throw new Error(workload.issues.map(formatIssue).join("\n"));
  const model = loadModel(text.model, { file: "model.yaml", workload: workload.value });
  if (!model.ok) throw new Error(model.issues.map(formatIssue).join("\n"));
  return { workload: workload.value, model: model.value };
}

describe("evaluate.counterNotAddressable (counteraddr)", () => {
  it("an Item counted on an order keyed by accountId, which Item records lack: an error on the Item's create", () => {
    const { workload, model } = fixture("counteraddr");
    const found = evaluateModel(workload, model).issues.filter(
      (issue) => issue.code === "evaluate.counterNotAddressable",
    );
    expect(found).toEqual([
      expect.objectContaining({
        code: "evaluate.counterNotAddressable",
        severity: "error",
        pattern: "C6",
        container: "accounts",
        itemType: "order",
        property: "itemCount",
        entity: "Item",
        missing: ["accountId"],
        path: ["accessPatterns", 5],
      }),
    ]);
    // The Account's own count of its Orders is addressed by the Order's accountId (its via).
    expect(found.some((issue) => issue.pattern === "C4")).toBe(false);
  });

  it("the same counter on orders keyed by orderId (the Item's via) is no error", () => {
    const { workload, model } = fixture("counteraddr");
    const rekeyed: Model = {
      ...model,
      containers: model.containers.map((container) =>
        container.name !== "accounts"
          ? container
          : {
              ...container,
              items: container.items.map((item) =>
                item.type === "order" ? { ...item, partitionKey: ["{orderId}"] } : item,
              ),
            },
      ),
    };
    const codes = (m: Model) => evaluateModel(workload, m).issues.map((issue) => issue.code);
    expect(codes(model)).toContain("evaluate.counterNotAddressable");
    expect(codes(rekeyed)).not.toContain("evaluate.counterNotAddressable");
  });
});

function inline(workloadText: string, modelText: string): { workload: Workload; model: Model } {
  const workload = loadWorkload(workloadText, { file: "workload.yaml" });
  if (!workload.ok) throw new Error(workload.issues.map(formatIssue).join("\n"));
  const model = loadModel(modelText, { file: "model.yaml", workload: workload.value });
  if (!model.ok) throw new Error(model.issues.map(formatIssue).join("\n"));
  return { workload: workload.value, model: model.value };
}

const errorsOf = (workload: Workload, model: Model, code: string) =>
  evaluateModel(workload, model).issues.filter((issue) => issue.code === code && issue.severity === "error");

// Reduced from the independent generator's seed 146: rooms re-parented by an upsert that changes
// their vehicleId, the newest 3 embedded in the vehicle (verify: the old vehicle kept the room).
const REPARENT_WORKLOAD = `version: 1
name: reparent
entities:
  Vehicle: { key: vehicleId, count: 300, avgBytes: 700, attributes: { vehicleId: string, createdAt: datetime } }
  Room:
    key: roomId
    count: 1100
    avgBytes: 900
    attributes: { roomId: string, vehicleId: string, createdAt: datetime, amount: number }
relationships:
  - { parent: Vehicle, child: Room, via: vehicleId, avg: 3.5, max: 6 }
accessPatterns:
  - { id: Q1, name: Q1, type: read, entity: Vehicle, rps: { avg: 29, peak: 210 }, where: { vehicleId: eq }, with: [ "latest(Room, 3)" ] }
  - { id: Q2, name: Q2, type: read, entity: Room, rps: { avg: 10, peak: 20 }, where: { roomId: eq } }
  - { id: W1, name: W1, type: write, entity: Room, operation: upsert, rps: { avg: 14, peak: 55 }, changes: [ vehicleId ] }
  - { id: W2, name: W2, type: write, entity: Room, operation: patch, rps: { avg: 14, peak: 55 }, changes: [ amount ] }
`;
const REPARENT_MODEL = `version: 1
containers:
  - name: vehicles
    partitionKey: [/id]
    items:
      - type: vehicle
        entity: Vehicle
        id: vehicle-{vehicleId}
        partitionKey: ["vehicle-{vehicleId}"]
        embeds: [{ entity: Room, as: recentRoom, latest: 3 }]
      - { type: room, entity: Room, id: "room-{roomId}", partitionKey: ["room-{roomId}"] }
`;

describe("evaluate.embedReparented (independent seed 146)", () => {
  it("an upsert that changes the via of a child embedded in its parent is an error; one that keeps it is not", () => {
    const { workload, model } = inline(REPARENT_WORKLOAD, REPARENT_MODEL);
    expect(errorsOf(workload, model, "evaluate.embedReparented")).toEqual([
      expect.objectContaining({
        pattern: "W1",
        container: "vehicles",
        itemType: "vehicle",
        entity: "Room",
        holder: "Vehicle",
        via: ["vehicleId"],
        path: ["accessPatterns", 2],
      }),
    ]);
  });
});

// Reduced from the independent generator's seed 87: the newest 10 projects by position kept in a
// bounded set while projects are deleted and re-positioned (verify: 9 left after a delete).
const BOUNDED_WORKLOAD = `version: 1
name: bounded
entities:
  Project:
    key: projectId
    count: 31
    avgBytes: 1500
    attributes:
      projectId: string
      createdAt: datetime
      position: { type: number, changes: rare }
      title: { type: string, changes: rare }
accessPatterns:
  - { id: R3, name: R3, type: read, entity: Project, rps: { avg: 330, peak: 1900 }, orderBy: { position: desc }, limit: 10 }
  - { id: C6, name: C6, type: write, entity: Project, operation: patch, rps: { avg: 99, peak: 350 }, changes: [ position ] }
  - { id: C7, name: C7, type: write, entity: Project, operation: delete, rps: { avg: 0.64, peak: 4.7 } }
  - { id: C8, name: C8, type: write, entity: Project, operation: patch, rps: { avg: 5, peak: 10 }, changes: [ title ] }
  - { id: C9, name: C9, type: write, entity: Project, operation: create, rps: { avg: 1, peak: 2 } }
`;
const boundedModel = (count: number, sourceIndexing = ""): string => `version: 1
leases: leases
containers:
  - name: projects
    partitionKey: [/projectId]${sourceIndexing}
    items:
      - { type: project, entity: Project, id: "{projectId}", partitionKey: ["{projectId}"] }
  - name: projects-latest
    partitionKey: [/partition]
    items:
      - type: project
        entity: Project
        id: "{projectId}"
        partitionKey: ["project-{replica}"]
        source: projects/project
        keepLatest: { count: ${count}, by: position }
        replicas: 2
`;
/** An indexing policy of the source container that leaves the set's order attribute out. */
const NO_POSITION_INDEX = `
    indexing: { included: [/type/?, /projectId/?], excluded: [/*] }`;

describe("evaluate.boundedSetNotRefilled (independent seed 87)", () => {
  it("a set refilled from its source (the order attribute indexed there) loses nothing to deletes and re-dates", () => {
    const { workload, model } = inline(BOUNDED_WORKLOAD, boundedModel(10));
    expect(errorsOf(workload, model, "evaluate.boundedSetNotRefilled")).toEqual([]);
  });

  it("a delete, and a change of the order attribute, of a set whose source cannot sort by it are errors", () => {
    const { workload, model } = inline(BOUNDED_WORKLOAD, boundedModel(10, NO_POSITION_INDEX));
    const found = errorsOf(workload, model, "evaluate.boundedSetNotRefilled");
    expect(found).toEqual([
      expect.objectContaining({
        pattern: "C6",
        container: "projects-latest",
        itemType: "project",
        reason: "order",
        attributes: ["position"],
        cause: "orderNotIndexed",
      }),
      expect.objectContaining({ pattern: "C7", reason: "delete", attributes: [], cause: "orderNotIndexed" }),
    ]);
  });

  it("a set that keeps every record loses nothing it should hold", () => {
    const { workload, model } = inline(BOUNDED_WORKLOAD, boundedModel(100));
    expect(errorsOf(workload, model, "evaluate.boundedSetNotRefilled")).toEqual([]);
  });
});
