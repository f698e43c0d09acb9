import fc from "fast-check";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { applyChanges } from "./apply-changes.js";
import type { Change } from "./changes.js";
import { serializeDraft } from "./checklist.js";
import { parseDraftDocument } from "./draft.js";
import { MAX_QUESTIONS_PER_TURN, nextQuestions } from "./next-questions.js";
import { groupQuestions } from "./questions.js";
import { renderSessionRequirements } from "./render-session-requirements.js";
import { createSession, sessionFromJson, sessionToJson } from "./state.js";
import { loadWorkload } from "../workload/load-workload.js";

const names = ["User", "Post", "Order", "Tag", "Item"] as const;
const attributes = ["userId", "status", "createdAt", "title"] as const;
const positive = fc.double({ min: 0.5, max: 1e7, noNaN: true, noDefaultInfinity: true });

/** Random valid-looking changes; some are rejected by applyChanges (and must then change nothing). */
const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({
    kind: fc.constant("add-entity" as const),
    name: fc.constantFrom(...names),
    key: fc.constantFrom("id", "userId", "postId"),
  }),
  fc.record({
    kind: fc.constant("update-entity" as const),
    name: fc.constantFrom(...names),
    count: positive,
    avgBytes: positive,
    growthPerMonth: fc.nat(1000),
  }),
  fc.record({
    kind: fc.constant("set-attribute" as const),
    entity: fc.constantFrom(...names),
    name: fc.constantFrom(...attributes),
    type: fc.constantFrom("string" as const, "number" as const, "datetime" as const),
    distinct: fc.integer({ min: 1, max: 1000 }),
  }),
  fc.record({
    kind: fc.constant("add-relationship" as const),
    parent: fc.constantFrom(...names),
    child: fc.constantFrom(...names),
    via: fc.constantFrom(...attributes),
    avg: positive,
    max: fc.option(fc.integer({ min: 1e7, max: 2e7 }), { nil: null }),
    owned: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant("add-access-pattern" as const),
    type: fc.constant("read" as const),
    name: fc.string({ minLength: 1, maxLength: 20 }),
    entity: fc.constantFrom(...names),
    where: fc.dictionary(fc.constantFrom(...attributes), fc.constantFrom("eq" as const, "range" as const), {
      maxKeys: 2,
    }),
    rps: fc.record({ avg: fc.nat(100), peak: fc.integer({ min: 100, max: 20_000 }) }),
  }),
  fc.record({
    kind: fc.constant("add-access-pattern" as const),
    type: fc.constant("write" as const),
    name: fc.string({ minLength: 1, maxLength: 20 }),
    entity: fc.constantFrom(...names),
    operation: fc.constantFrom("create" as const, "upsert" as const, "delete" as const),
    batch: fc.integer({ min: 1, max: 10 }),
    rps: fc.record({ avg: fc.nat(100), peak: fc.integer({ min: 100, max: 2_000 }) }),
  }),
  fc.record({
    kind: fc.constant("set-scale" as const),
    regions: fc.integer({ min: 1, max: 5 }),
    consistency: fc.constantFrom("session" as const, "strong" as const),
  }),
);

describe("applyChanges over random change sequences", () => {
  it("keeps the draft serializable, the session file exact, and the questions within the limit", () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 25 }), (changes) => {
        let state = createSession();
        for (const one of changes) {
          const before = JSON.stringify(state);
          const result = applyChanges(state, [one]);
          // the state is immutable: applying (or rejecting) never changes the input
          expect(JSON.stringify(state)).toBe(before);
          if (!result.ok) {
            expect(result.issues.length).toBeGreaterThan(0);
            continue;
          }
          state = result.value.state;
        }
        // the requirements document renders for any state (complete or not), with the checklist
        expect(renderSessionRequirements(state)).toContain("### Session Checklist");
        const questions = nextQuestions(state);
        expect(groupQuestions(questions).length).toBeLessThanOrEqual(MAX_QUESTIONS_PER_TURN);
        expect(new Set(questions.map((q) => q.topic)).size).toBeLessThanOrEqual(1);
        const session = sessionFromJson(JSON.parse(JSON.stringify(sessionToJson(state))));
        expect(session.ok && session.value).toEqual(state);
        const file = parseDraftDocument(parse(serializeDraft(state.workload)));
        expect(file.ok).toBe(true);
        if (file.ok) {
          // the file says the same, except what the format cannot say (an unanswered max or owned)
          expect(file.value.entities).toEqual(state.workload.entities);
          expect(file.value.accessPatterns).toEqual(state.workload.accessPatterns);
          expect(file.value.scale).toEqual(state.workload.scale);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("the workload fields the massive-scale and design questions fill", () => {
  it("binning, presence, skew, atomicWith, bufferedRecords and maxStalenessSeconds survive draft -> YAML -> draft and load", () => {
    const text = [
      "version: 1",
      "name: Fleet",
      "entities:",
      "  Courier: { key: courierId, count: 1000, avgBytes: 500, attributes: { courierId: string, name: string } }",
      "  Ping:",
      "    key: pingId",
      "    count: 1000000",
      "    avgBytes: 150",
      "    ttlSeconds: 86400",
      "    binning: { windowSeconds: 60 }",
      "    attributes: { pingId: string, courierId: { type: string, skew: 1, presence: 0.5 }, at: datetime }",
      "relationships:",
      "  - { parent: Courier, child: Ping, via: courierId, avg: 1000, max: 5000, owned: false }",
      "accessPatterns:",
      "  - { id: Q1, name: Courier with pings, type: read, entity: Courier, where: { courierId: eq }, with: ['latest(Ping, 5)'], maxStalenessSeconds: 5, skew: 0, rps: { avg: 1, peak: 2 } }",
      "  - { id: C1, name: Ping, type: write, entity: Ping, operation: create, bufferedRecords: 5, atomicWith: [C2], rps: { avg: 1, peak: 2 } }",
      "  - { id: C2, name: Courier, type: write, entity: Courier, operation: patch, rps: { avg: 1, peak: 2 } }",
      "",
    ].join("\n");
    const draft = parseDraftDocument(parse(text));
    if (!draft.ok) throw new Error(JSON.stringify(draft.issues));
    const yaml = serializeDraft(draft.value);
    const again = parseDraftDocument(parse(yaml));
    expect(again.ok && again.value).toEqual(draft.value);
    const original = loadWorkload(text);
    const rewritten = loadWorkload(yaml);
    expect(rewritten.issues.filter((i) => i.severity === "error")).toEqual([]);
    if (original.ok && rewritten.ok) expect(rewritten.value).toEqual(original.value);
    const ping = rewritten.ok ? rewritten.value.entities.find((e) => e.name === "Ping") : undefined;
    expect(ping?.binning).toEqual({ kind: "window", seconds: 60 });
    expect(ping?.attributes.find((a) => a.name === "courierId")).toMatchObject({ skew: 1, presence: 0.5 });
  });
});
