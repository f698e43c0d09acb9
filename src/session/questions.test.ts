import { describe, expect, it } from "vitest";
import { applyChanges } from "./apply-changes.js";
import type { Change } from "./changes.js";
import { nextQuestions } from "./next-questions.js";
import { answersToChanges, type Answer, type Question } from "./questions.js";
import { createSession, type SessionState } from "./state.js";

function apply(state: SessionState, changes: readonly Change[]): SessionState {
  const result = applyChanges(state, changes);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value.state;
}

function answer(questions: readonly Question[], answers: readonly Answer[]): readonly Change[] {
  const result = answersToChanges(
    questions.map((question, i) => ({ question, answer: answers[i] ?? { kind: "skip" } })),
  );
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

const base = apply(createSession(), [
  { kind: "set-application", name: "Blog", domain: "social media", description: "posts and comments" },
  { kind: "add-entity", name: "User", key: "userId", count: 1000, avgBytes: 500, growthPerMonth: 10 },
  {
    kind: "add-entity",
    name: "Post",
    key: "postId",
    count: 20_000,
    avgBytes: 3000,
    growthPerMonth: 100,
    attributes: { userId: "string", status: "string" },
  },
  {
    kind: "add-access-pattern",
    id: "Q1",
    type: "read",
    name: "User's posts",
    entity: "Post",
    where: { userId: "eq" },
    rps: { avg: 5, peak: 10 },
  },
  {
    kind: "add-access-pattern",
    id: "Q2",
    type: "read",
    name: "Posts by status",
    entity: "Post",
    where: { status: "eq" },
    rps: { avg: 1, peak: 2 },
  },
  {
    kind: "add-access-pattern",
    id: "C1",
    type: "write",
    name: "Write a post",
    entity: "Post",
    operation: "create",
    rps: { avg: 1, peak: 3 },
  },
  {
    kind: "add-access-pattern",
    id: "C2",
    type: "write",
    name: "Sign up",
    entity: "User",
    operation: "create",
    rps: { avg: 1, peak: 3 },
  },
  {
    kind: "add-access-pattern",
    id: "Q3",
    type: "read",
    name: "Profile",
    entity: "User",
    where: { userId: "eq" },
    rps: { avg: 1, peak: 3 },
  },
]);

describe("answersToChanges", () => {
  it("merges the average and peak answers of one pattern into one set-rate", () => {
    const state = apply(base, [
      {
        kind: "add-access-pattern",
        id: "Q9",
        type: "read",
        name: "x",
        entity: "User",
        where: { userId: "eq" },
      },
    ]);
    const questions = nextQuestions(state);
    expect(
      answer(questions, [
        { kind: "value", value: 3 },
        { kind: "value", value: 9 },
      ]),
    ).toEqual([{ kind: "set-rate", pattern: "Q9", avg: 3, peak: 9 }]);
  });

  it("turns a list answer into one change per item, and refuses to skip a required question", () => {
    const [question] = nextQuestions(
      createSession({
        version: 1,
        name: "x",
        domain: "y",
        scale: {},
        entities: [],
        relationships: [],
        accessPatterns: [],
      }),
    );
    expect(question?.id).toBe("entities:list");
    expect(answer([question as Question], [{ kind: "value", value: ["A", "B"] }])).toEqual([
      { kind: "add-entity", name: "A" },
      { kind: "add-entity", name: "B" },
    ]);
    const skipped = answersToChanges([{ question: question as Question, answer: { kind: "skip" } }]);
    expect(skipped.ok).toBe(false);
    expect(skipped.issues[0]?.message).toBe("entities:list: this question cannot be skipped");
  });

  it("reports an answer that does not fit the change (e.g. an invalid entity name)", () => {
    const [question] = nextQuestions(
      createSession({
        version: 1,
        name: "x",
        domain: "y",
        scale: {},
        entities: [],
        relationships: [],
        accessPatterns: [],
      }),
    );
    const result = answersToChanges([
      { question: question as Question, answer: { kind: "value", value: ["9lives"] } },
    ]);
    expect(result.ok).toBe(false);
  });
});

describe("the later topics of the interview", () => {
  it("asks a likely relationship as one question: whether it is one, its bounds, ownership and how busy parents spread the reads", () => {
    const group = nextQuestions(base);
    expect(group.map((q) => q.id)).toEqual([
      "relationship:User:Post:exists",
      "relationship:User:Post:avg",
      "relationship:User:Post:max",
      "relationship:User:Post:owned",
      "skew:Post:userId",
    ]);
    expect(new Set(group.map((q) => q.group?.id))).toEqual(new Set(["relationship:User:Post"]));
    const answers: Answer[] = [
      { kind: "choice", value: "one-to-many" },
      { kind: "value", value: 20 },
      { kind: "choice", value: "unbounded" },
      { kind: "choice", value: "owned" },
      { kind: "choice", value: "popular" },
    ];
    // the parts fill one change (and the skew its attribute's)
    expect(answer(group, answers)).toEqual([
      {
        kind: "add-relationship",
        parent: "User",
        child: "Post",
        via: "userId",
        relationshipKind: "one-to-many",
        avg: 20,
        max: null,
        owned: true,
      },
      { kind: "set-attribute", entity: "Post", name: "userId", skew: 1 },
    ]);
    const bounded = apply(base, answer(group, answers));
    expect(bounded.workload.relationships).toEqual([
      {
        parent: "User",
        child: "Post",
        via: ["userId"],
        kind: "one-to-many",
        avg: 20,
        max: null,
        owned: true,
      },
    ]);
    const said = applyChanges(base, answer(group, answers));
    // one relationship is said once, in its final form
    expect(said.ok && said.value.learned[0]).toBe(
      "Relationship User 1:N Post via userId (avg 20, unbounded, owned).",
    );
    // "not related" drops the other parts of the group
    const none = answer(group, [{ kind: "choice", value: "none" }, ...answers.slice(1)]);
    expect(none).toEqual([{ kind: "decline-question", question: "relationship:User:Post:exists" }]);
    // one-to-one implies its bounds: avg and max are not asked
    const oneToOne = answer(group, [
      { kind: "choice", value: "one-to-one" },
      { kind: "skip" },
      { kind: "skip" },
      { kind: "choice", value: "independent" },
      { kind: "choice", value: "even" },
    ]);
    expect(oneToOne[0]).toMatchObject({ relationshipKind: "one-to-one", avg: 1, max: 1, owned: false });
    // then the cardinality of the lone status filter (the userId filter follows the relationship)
    const cardinality = nextQuestions(bounded);
    expect(cardinality.map((q) => q.id)).toEqual(["cardinality:Post:status", "skew:Post:status"]);
    const skipped = apply(bounded, answer(cardinality, [{ kind: "skip" }, { kind: "skip" }]));
    expect(skipped.declined).toContain("cardinality:Post:status");
    // then the result sizes of the reads without a limit that are not lookups: the user's posts
    // (unbounded children) and the posts by status (issue 27: an unbounded read is always asked)
    const sizes = nextQuestions(skipped);
    expect(sizes.map((q) => q.id)).toEqual([
      "result-size:Q1",
      "result-size:Q1:limit",
      "result-size:Q2",
      "result-size:Q2:limit",
      "design:latency",
    ]);
    const sized = apply(
      skipped,
      answer(sizes.slice(0, 4), [
        { kind: "skip" },
        { kind: "value", value: 20 },
        { kind: "value", value: 150 },
        { kind: "skip" },
      ]),
    );
    expect(
      sized.workload.accessPatterns.filter((p) => p.type === "read").map((p) => [p.limit, p.returns]),
    ).toEqual([
      [20, undefined],
      [undefined, { avg: 150 }],
      [undefined, undefined], // the user by key: one item
    ]);
    // then the details: latency, sparse attributes, atomic writes (all optional)
    const details = nextQuestions(sized);
    expect(details.map((q) => q.id)).toEqual([
      "design:latency",
      "design:sparse-attributes",
      "design:atomic-writes",
    ]);
    const declined = apply(
      sized,
      answer(details, [{ kind: "value", value: 50 }, { kind: "choice", value: "none" }, { kind: "skip" }]),
    );
    expect(declined.workload.accessPatterns.filter((p) => p.type === "read").map((p) => p.latencyMs)).toEqual(
      [50, 50, 50],
    );
    // then consistency, regions, the horizon and multi-region writes, confirmed together
    const distribution = nextQuestions(declined);
    expect(distribution.map((q) => q.id)).toEqual([
      "distribution:consistency",
      "distribution:regions",
      "distribution:horizon",
      "distribution:multi-region-writes",
    ]);
    const confirmed = apply(
      declined,
      answer(distribution, [
        { kind: "choice", value: "session" },
        { kind: "value", value: 2 },
        { kind: "value", value: 36 },
        { kind: "choice", value: "single" },
      ]),
    );
    expect(confirmed.workload.scale).toEqual({
      consistency: "session",
      regions: 2,
      horizonMonths: 36,
      multiRegionWrites: false,
    });
    expect(confirmed.confirmed.distribution).toBe(true);
    const [last] = nextQuestions(confirmed);
    expect(last?.id).toBe("confirmation:access-patterns");
    expect(last?.text).toContain("3 read and 2 write access patterns (Q1, Q2, C1, C2, Q3)");
  });

  it("asks about an entity no access pattern uses, and can remove it", () => {
    const state = apply(base, [{ kind: "add-entity", name: "Tag", key: "tagId", count: 10, avgBytes: 100 }]);
    const [question] = nextQuestions(state);
    expect(question?.id).toBe("pairing:Tag:any");
    const removed = apply(state, answer([question as Question], [{ kind: "choice", value: "remove" }]));
    expect(removed.workload.entities.map((e) => e.name)).toEqual(["User", "Post"]);
  });

  it("a read that returns related items needs a write creating them too", () => {
    const state = apply(base, [
      { kind: "add-entity", name: "Comment", key: "commentId", count: 10, avgBytes: 100 },
      { kind: "update-access-pattern", id: "Q1", with: ["count(Comment)"] },
    ]);
    const [question] = nextQuestions(state);
    expect(question?.id).toBe("pairing:Comment:create");
    expect(question?.text).toContain("I see Q1 reading Comment items");
  });

  it("adding an access pattern after the confirmation asks for the confirmation again", () => {
    const confirmed = apply(base, [{ kind: "confirm", subject: "access-patterns-complete", value: true }]);
    expect(confirmed.confirmed.accessPatternsComplete).toBe(true);
    const added = apply(confirmed, [
      { kind: "add-access-pattern", type: "read", name: "Search", entity: "Post", where: { status: "eq" } },
    ]);
    expect(added.confirmed.accessPatternsComplete).toBe(false);
    expect(added.workload.accessPatterns.at(-1)?.id).toBe("Q4");
  });
});
