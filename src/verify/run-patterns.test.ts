/**
 * The pattern phases against a stub data access: what a write refused by an endpoint that keys
 * hierarchical partitions by their first level only leaves unchecked.
 */
import { describe, expect, it } from "vitest";
import { parseModel, parseWorkload } from "../test-support/evaluate-fixtures.js";
import { EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS } from "./endpoint.js";
import type { DataAccess } from "./load-data-access.js";
import { runReadPatterns, runWritePatterns, type PatternRun } from "./run-patterns.js";
import { buildVerificationPlan } from "./verification-plan.js";

const WORKLOAD = `
version: 1
name: Moved folders
entities:
  Member:
    key: memberId
    count: 9
    avgBytes: 300
    attributes:
      memberId: string
  Folder:
    key: folderId
    count: 40
    avgBytes: 500
    attributes:
      folderId: string
      reporterId: { type: string, distinct: 9 }
      assigneeId: string
      createdAt: datetime
relationships:
  - { parent: Member, child: Folder, via: reporterId, avg: 4.4, max: 10 }
accessPatterns:
  - id: W1
    name: Upsert folders
    type: write
    entity: Folder
    operation: upsert
    rps: { avg: 1, peak: 2 }
    changes: [reporterId]
  - id: Q1
    name: Folders by reporter
    type: read
    entity: Folder
    rps: { avg: 10, peak: 20 }
    where: { reporterId: eq }
  - id: Q2
    name: Folder by id
    type: read
    entity: Folder
    rps: { avg: 10, peak: 20 }
    where: { folderId: eq }
`;

// The folder's key holds the reporterId a write changes: the move creates the item at its new key
// first, which an endpoint keyed by the first level (assigneeId) and id refuses (409).
const MODEL = `
version: 1
leases: leases
containers:
  - name: folders
    partitionKey: [/assigneeId, /reporterId, /folderId]
    items:
      - type: folder
        entity: Folder
        id: "{folderId}"
        partitionKey: ["{assigneeId}", "{reporterId}", "{folderId}"]
  - name: folders-by-reporterid
    partitionKey: [/reporterId]
    items:
      - { type: folder, entity: Folder, id: "{folderId}", partitionKey: ["{reporterId}"], source: folders/folder }
  - name: folders-by-folderid
    partitionKey: [/folderId]
    items:
      - { type: folder, entity: Folder, id: "{folderId}", partitionKey: ["{folderId}"], source: folders/folder }
`;

function refusingRun(): { run: PatternRun; reads: string[] } {
  const workload = parseWorkload(WORKLOAD);
  const model = parseModel(MODEL, workload);
  const plan = buildVerificationPlan(workload, model, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS, {
    seed: 7,
  });
  const reads: string[] = [];
  const access = {
    pattern: (id: string) => () => {
      if (id === "W1") return Promise.reject(Object.assign(new Error("Conflict"), { code: 409 }));
      reads.push(id);
      // The stale copies: nothing the writes changed.
      return Promise.resolve({ items: [], followUps: [], requestCharge: 1 });
    },
    applyChanges: () => Promise.resolve({ changes: [], requestCharge: 0 }),
  } as unknown as DataAccess;
  const run: PatternRun = {
    plan,
    access,
    capabilities: EMBEDDED_CAPABILITIES,
    state: { depth: 0 },
    feed: undefined,
    secrets: [],
    onProgress: undefined,
    hierarchical: new Set(["folders"]),
    hierarchicalReason: EMBEDDED_LIMITATIONS.hierarchicalKeysFull,
    unreliable: new Set(),
  };
  return { run, reads };
}

describe("a write refused as a duplicate by an endpoint keyed by the first partition key level", () => {
  it("leaves the copies its change feed maintains unchecked too, not only the refusing container (seed 72)", async () => {
    const { run, reads } = refusingRun();
    expect(run.plan.writes.some((write) => write.patternId === "W1")).toBe(true);
    const outcomes = await runWritePatterns(run);
    expect(outcomes.get("W1")?.status).toBe("notCheckable");
    await runReadPatterns(run, outcomes);
    // Q1 and Q2 read the copies the refused moves never reached: not a refutation of the model.
    for (const id of ["Q1", "Q2"]) {
      expect(outcomes.get(id)?.status).toBe("notCheckable");
      expect(outcomes.get(id)?.detail).toMatch(/first partition key level/);
    }
    expect(reads).toEqual([]);
  });
});
