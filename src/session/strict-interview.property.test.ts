/**
 * Issue 27, "an interview that never ends in a dead end": random hidden applications of 6 to 8
 * entities (src/test-support/workload-arbitrary.ts), each interviewed by a strict answerer that
 * answers only what the session asks, from the hidden workload's facts only
 * (src/test-support/strict-interview.ts). For every application: the session never ends without
 * a question while the data model cannot be written, takes at most 12 update-requirements
 * calls, asks at most MAX_QUESTIONS_PER_TURN question groups a turn, and its workload designs
 * with no hard-limit error the hidden workload's design does not have (nothing that matters was
 * lost). `STRICT_INTERVIEW_RUNS` (default 5, about 20 s: the design check designs each
 * application, and the hidden one when the interviewed one breaks a limit) and
 * `STRICT_INTERVIEW_SEED` choose the sample. 300 applications of seed 27 pass without the design
 * check, 80 of seed 28 with it; with it, seed 27 fails at its 30th (a known failure below).
 *
 * Below the property, the regressions it found, each a small fixed workload, and the generated
 * applications that once failed (seed, index of fc.sample).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { WorkloadDocument } from "../test-support/workload-arbitrary.js";
import { workloadText } from "../test-support/workload-arbitrary.js";
import {
  hiddenApplicationArbitrary,
  runStrictInterview,
  strictInterviewFailures,
} from "../test-support/strict-interview.js";
import { applyChanges } from "./apply-changes.js";
import type { Change } from "./changes.js";
import { checkReadiness } from "./checklist.js";
import { nextQuestions } from "./next-questions.js";
import { createSession, type SessionState } from "./state.js";

const RUNS = Number(process.env.STRICT_INTERVIEW_RUNS ?? 5);
const SEED = Number(process.env.STRICT_INTERVIEW_SEED ?? 27);

describe("a strict interview of a random application of 6 to 8 entities", () => {
  it(`never ends in a dead end, takes at most 12 calls of at most 3 questions, and loses nothing that matters (${RUNS} applications)`, () => {
    fc.assert(
      fc.property(hiddenApplicationArbitrary(), (document) => {
        expect(strictInterviewFailures(document, { design: true }), workloadText(document)).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 600_000);

  // Generated applications that once failed: (seed, index of fc.sample, whether the failure was
  // in the design, which the check then includes).
  it.each([
    // the design lost maxStalenessSeconds: 5 of a read (Q7), which lets the integrated cache serve
    // it: four more hard-limit errors (hot partitions, a fan-out that cannot scale)
    [27, 3, true],
    // a composite via (Order -> Item via [accountId, orderId]): the skew of Item.orderId was
    // asked nowhere (dead end); then 13 calls (four entities' cardinality took two turns)
    [27, 33, false],
    // four massive writes took three turns, relationships three: 15 calls
    [27, 135, false],
    // the result size of reads with a limit (returns) was asked nowhere: read at their limit, a
    // hot partition (and on 28/35 a container over its maximum) the hidden design does not have
    [28, 1, true],
    [28, 35, true],
  ])(
    "holds for the generated application %i/%i",
    (seed, index, design) => {
      const document = fc.sample(hiddenApplicationArbitrary(), { seed, numRuns: index + 1 })[index];
      expect(document).toBeDefined();
      const hidden = document as WorkloadDocument;
      expect(strictInterviewFailures(hidden, { design }), workloadText(hidden)).toEqual([]);
    },
    120_000,
  );
});

describe("known failures of the strict interview", () => {
  // KNOWN FAILURE (found with STRICT_INTERVIEW_RUNS=60, the 30th application of seed 27): the
  // interviewed workload's design breaks a hot-partition limit (evaluate.hotPartition) the hidden
  // workload's design does not. The interview never asks some facts this design depends on
  // together: attributes' avgBytes, changes and uniqueness, the distinct values of attributes
  // reads do not filter with eq or in, per-pattern skew, binning and buffering of writes that are
  // not massive. Removing any one kind from the hidden workload does not reproduce the error;
  // removing every attribute's distinct values does (Order.category's alone does not: the
  // interview asks it). Which fact to ask, and when it applies, is not found yet.
  it.fails(
    "loses the distinct values of sort and aggregate attributes (27/29)",
    () => {
      const document = fc.sample(hiddenApplicationArbitrary(), { seed: 27, numRuns: 30 })[29];
      expect(strictInterviewFailures(document as WorkloadDocument, { design: true })).toEqual([]);
    },
    120_000,
  );
});

/** A hidden application around `entities` and `accessPatterns` (a domain, as the interview asks). */
function application(
  entities: Record<string, unknown>,
  accessPatterns: readonly Record<string, unknown>[],
  relationships: readonly Record<string, unknown>[] = [],
): WorkloadDocument {
  return {
    version: 1,
    name: "Regression",
    domain: "tests",
    entities,
    ...(relationships.length === 0 ? {} : { relationships }),
    accessPatterns,
  };
}

const rps = (avg: number, peak = avg * 2) => ({ rps: { avg, peak } });

function apply(state: SessionState, changes: readonly Change[]): SessionState {
  const result = applyChanges(state, changes);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value.state;
}

describe("the regressions the strict interview found", () => {
  it("asks the largest item when 4 x the average is over what an item holds (was a dead end: the workload did not load)", () => {
    const state = apply(createSession(), [
      { kind: "set-application", name: "Files", domain: "documents" },
      { kind: "add-entity", name: "Document", key: "documentId", count: 1000, avgBytes: 600_000 },
      {
        kind: "add-access-pattern",
        type: "write",
        name: "upload",
        entity: "Document",
        operation: "create",
        ...rps(1),
      },
      {
        kind: "add-access-pattern",
        type: "read",
        name: "open",
        entity: "Document",
        where: { documentId: "eq" },
        ...rps(9),
      },
    ]);
    const asked = nextQuestions(state).map((q) => q.id);
    expect(asked).toContain("size:Document:maxBytes");
    // only the largest size: the count and average are known, growth and retention not asked here
    expect(asked.filter((id) => id.startsWith("size:"))).toEqual(["size:Document:maxBytes"]);
    expect(checkReadiness(state).reasons.join("\n")).toContain("largest item unknown");
    const answered = apply(state, [{ kind: "update-entity", name: "Document", maxBytes: 1_500_000 }]);
    expect(nextQuestions(answered).map((q) => q.id)).not.toContain("size:Document:maxBytes");
    // an average no item can hold is asked again, within what an item holds
    const tooLarge = apply(state, [{ kind: "update-entity", name: "Document", avgBytes: 3_000_000 }]);
    const again = nextQuestions(tooLarge).find((q) => q.id === "size:Document:avgBytes");
    expect(again?.answer).toMatchObject({ kind: "number", range: { max: 2_096_853 } });
  });

  it("asks the many-to-many relationship a read's count() needs (was a dead end: the workload did not load)", () => {
    const document = application(
      {
        Post: {
          key: "postId",
          count: 1000,
          avgBytes: 2000,
          attributes: { postId: "string", title: "string" },
        },
        Tag: { key: "tagId", count: 100, avgBytes: 200, attributes: { tagId: "string", label: "string" } },
      },
      [
        { id: "C1", name: "write a post", type: "write", operation: "create", entity: "Post", ...rps(1) },
        { id: "C2", name: "add a tag", type: "write", operation: "create", entity: "Tag", ...rps(0.1) },
        {
          id: "Q1",
          name: "a post with its tag count",
          type: "read",
          entity: "Post",
          where: { postId: "eq" },
          with: ["count(Tag)"],
          ...rps(20),
        },
        { id: "Q2", name: "a tag", type: "read", entity: "Tag", where: { tagId: "eq" }, ...rps(5) },
      ],
      [{ parent: "Post", child: "Tag", kind: "many-to-many", avg: 5, max: 50 }],
    );
    const run = runStrictInterview(document);
    expect(run.turns.flatMap((t) => t.questions)).toContain("relationship:Post:Tag:kind");
    expect(strictInterviewFailures(document, { design: true })).toEqual([]);
    expect(run.state.workload.relationships).toEqual([
      { parent: "Post", child: "Tag", kind: "many-to-many", avg: 5, max: 50, owned: false },
    ]);
  });

  it("asks the skew of an attribute that is part of a composite via (was a dead end: asked nowhere)", () => {
    const document = application(
      {
        Order: {
          key: ["accountId", "orderId"],
          count: 1000,
          avgBytes: 1000,
          attributes: { accountId: "string", orderId: "string" },
        },
        Item: {
          key: "itemId",
          count: 5000,
          avgBytes: 500,
          attributes: { itemId: "string", accountId: "string", orderId: "string" },
        },
      },
      [
        { id: "C1", name: "place an order", type: "write", operation: "create", entity: "Order", ...rps(1) },
        { id: "C2", name: "add an item", type: "write", operation: "create", entity: "Item", ...rps(5) },
        {
          id: "Q1",
          name: "an order with its item count",
          type: "read",
          entity: "Order",
          where: { accountId: "eq", orderId: "eq" },
          with: ["count(Item)"],
          ...rps(10),
        },
        {
          id: "Q2",
          name: "items by order",
          type: "read",
          entity: "Item",
          where: { orderId: "eq" },
          ...rps(10),
        },
      ],
      [
        {
          parent: "Order",
          child: "Item",
          kind: "one-to-many",
          via: ["accountId", "orderId"],
          avg: 5,
          max: 50,
          owned: true,
        },
      ],
    );
    const run = runStrictInterview(document);
    expect(strictInterviewFailures(document, { design: true })).toEqual([]);
    expect(run.turns.flatMap((t) => t.questions)).toContain("skew:Item:orderId");
  });

  it("asks every massive write in one turn, and all the relationships of a parent as one question", () => {
    const entity = (name: string, extra: Record<string, unknown> = {}) => ({
      key: `${name.toLowerCase()}Id`,
      count: 1_000_000,
      avgBytes: 300,
      attributes: { [`${name.toLowerCase()}Id`]: "string", accountId: "string", at: "datetime", ...extra },
    });
    const names = ["Click", "View", "Scroll", "Hover"];
    const document = application(
      {
        Account: { key: "accountId", count: 10_000, avgBytes: 1000, attributes: { accountId: "string" } },
        ...Object.fromEntries(names.map((name) => [name, entity(name)])),
      },
      [
        { id: "C0", name: "sign up", type: "write", operation: "create", entity: "Account", ...rps(0.1) },
        {
          id: "Q0",
          name: "an account",
          type: "read",
          entity: "Account",
          where: { accountId: "eq" },
          ...rps(10),
        },
        ...names.flatMap((name, index) => [
          {
            id: `C${index + 1}`,
            name: `record a ${name}`,
            type: "write",
            operation: "create",
            entity: name,
            ...rps(4000, 5000),
          },
          {
            id: `Q${index + 1}`,
            name: `an account's latest ${name}s`,
            type: "read",
            entity: name,
            where: { accountId: "eq" },
            orderBy: { at: "desc" },
            limit: 20,
            ...rps(10),
          },
        ]),
      ],
      names.map((name) => ({
        parent: "Account",
        child: name,
        kind: "one-to-many",
        via: "accountId",
        avg: 100,
        owned: true,
      })),
    );
    const run = runStrictInterview(document);
    expect(strictInterviewFailures(document, { design: true })).toEqual([]);
    const turnsOf = (prefix: string) =>
      run.turns.filter((t) => t.questions.some((id) => id.startsWith(prefix)));
    expect(turnsOf("massive-scale:")).toHaveLength(1);
    expect(turnsOf("relationship:")).toHaveLength(1);
    expect(turnsOf("relationship:")[0]?.groups).toBe(1);
  });

  it("takes the sizes given with the entities, the result sizes and staleness given with the patterns, and does not ask them again", () => {
    const document = application(
      {
        Account: {
          key: "accountId",
          count: 10_000,
          avgBytes: 1000,
          growthPerMonth: 100,
          attributes: { accountId: "string", name: "string" },
        },
        Order: {
          key: "orderId",
          count: 100_000,
          avgBytes: 2000,
          ttlSeconds: 86_400,
          attributes: { orderId: "string", accountId: "string" },
        },
      },
      [
        { id: "C1", name: "sign up", type: "write", operation: "create", entity: "Account", ...rps(0.1) },
        { id: "C2", name: "order", type: "write", operation: "create", entity: "Order", ...rps(1) },
        {
          id: "Q1",
          name: "an order with its account's name",
          type: "read",
          entity: "Order",
          where: { orderId: "eq" },
          with: ["Account.name"],
          maxStalenessSeconds: 5,
          ...rps(10),
        },
        {
          id: "Q2",
          name: "an account's orders, a page",
          type: "read",
          entity: "Order",
          where: { accountId: "eq" },
          limit: 100,
          returns: { avg: 3 },
          ...rps(10),
        },
      ],
      [{ parent: "Account", child: "Order", kind: "one-to-many", via: "accountId", avg: 10, owned: false }],
    );
    const run = runStrictInterview(document);
    expect(strictInterviewFailures(document, { design: true })).toEqual([]);
    expect(run.turns.flatMap((t) => t.questions).filter((id) => id.startsWith("size:"))).toEqual([]);
    const workload = run.readiness.workload;
    expect(workload?.entities.find((e) => e.name === "Order")?.ttlSeconds).toBe(86_400);
    expect(workload?.entities.find((e) => e.name === "Account")?.growthPerMonth).toBe(100);
    const read = workload?.accessPatterns.find((p) => p.id === "Q1");
    expect(read?.type === "read" && read.maxStalenessSeconds).toBe(5);
    const page = workload?.accessPatterns.find((p) => p.id === "Q2");
    expect(page?.type === "read" && page.returns).toEqual({ avg: 3 });
  });
});
