import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { parse } from "yaml";
import { formatPath } from "../common/issues.js";
import { describe, expect, it } from "vitest";
import { loadWorkload } from "../workload/load-workload.js";
import { applyChanges } from "./apply-changes.js";
import type { Change } from "./changes.js";
import { checkReadiness, serializeDraft } from "./checklist.js";
import { parseDraftDocument, type DraftWorkload } from "./draft.js";
import { pairingGaps } from "./gaps.js";
import { MAX_QUESTIONS_PER_TURN, nextQuestions } from "./next-questions.js";
import { answersToChanges, groupQuestions, type Answer, type Question } from "./questions.js";
import { renderSessionRequirements } from "./render-session-requirements.js";
import { createSession, sessionFromJson, sessionToJson, type SessionState } from "./state.js";
import { formatTurnSummary, summarizeTurn } from "./summarize-turn.js";
import { EXAMPLE_WORKLOAD_NAMES, EXAMPLES_DIR } from "../test-support/model-examples.js";

const examplesDir = EXAMPLES_DIR;
const exampleNames = EXAMPLE_WORKLOAD_NAMES;

function apply(state: SessionState, changes: readonly Change[]): SessionState {
  const result = applyChanges(state, changes);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value.state;
}

function exampleDraft(name: string): DraftWorkload {
  const parsed = parseDraftDocument(parse(readFileSync(join(examplesDir, name, "workload.yaml"), "utf8")));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

/** A small but complete workload built only through changes. */
const shopChanges: readonly Change[] = [
  { kind: "set-application", name: "Shop", domain: "e-commerce" },
  {
    kind: "add-entity",
    name: "Customer",
    key: "customerId",
    count: 1_000_000,
    avgBytes: 1024,
    growthPerMonth: 0,
    attributes: { email: { type: "string", unique: true } },
  },
  {
    kind: "add-entity",
    name: "Order",
    key: "orderId",
    count: 5_000_000,
    avgBytes: 2048,
    growthPerMonth: 100_000,
    attributes: { customerId: "string", status: "string" },
  },
  {
    kind: "add-relationship",
    parent: "Customer",
    child: "Order",
    via: "customerId",
    avg: 5,
    max: 1000,
    owned: true,
  },
  {
    kind: "add-access-pattern",
    type: "read",
    name: "Get a customer",
    entity: "Customer",
    where: { customerId: "eq" },
    rps: { avg: 100, peak: 400 },
  },
  {
    kind: "add-access-pattern",
    type: "write",
    name: "Sign up",
    entity: "Customer",
    operation: "create",
    rps: { avg: 1, peak: 5 },
  },
  {
    kind: "add-access-pattern",
    type: "read",
    name: "List a customer's orders",
    entity: "Order",
    where: { customerId: "eq" },
    orderBy: { status: "asc" },
    rps: { avg: 50, peak: 200 },
  },
  {
    kind: "add-access-pattern",
    type: "write",
    name: "Place an order",
    entity: "Order",
    operation: "create",
    rps: { avg: 10, peak: 60 },
  },
  { kind: "set-attribute", entity: "Order", name: "customerId", skew: 0 },
  { kind: "set-latency-target", latencyMs: 50 },
  { kind: "decline-question", question: "design:sparse-attributes" },
  { kind: "decline-question", question: "design:atomic-writes" },
  { kind: "set-scale", consistency: "session", regions: 1, multiRegionWrites: false },
  { kind: "confirm", subject: "distribution", value: true },
  { kind: "confirm", subject: "access-patterns-complete", value: true },
];

describe("nextQuestions", () => {
  it("asks at most three questions per turn, all on one topic, from an empty session to the end of a scripted interview", () => {
    let state = createSession();
    const topics: string[] = [];
    for (let turn = 0; turn < 60; turn++) {
      const questions = nextQuestions(state);
      if (questions.length === 0) break;
      expect(groupQuestions(questions).length).toBeLessThanOrEqual(MAX_QUESTIONS_PER_TURN);
      expect(new Set(questions.map((q) => q.topic)).size).toBe(1);
      topics.push(questions[0]?.topic ?? "");
      state = apply(state, scriptedAnswers(state, questions));
    }
    expect(nextQuestions(state)).toEqual([]);
    expect(checkReadiness(state).ready).toBe(true);
    // Order of the expert prompt: domain and entities, then patterns and their rates, then the rest.
    const first = (topic: string): number => topics.indexOf(topic);
    expect(first("application")).toBe(0);
    expect(first("entities")).toBeLessThan(first("rates"));
    expect(first("rates")).toBeLessThan(first("sizes"));
    expect(first("rates")).toBeLessThan(first("distribution"));
    expect(topics.at(-1)).toBe("confirmation");
  });

  it("keeps the limit for any subset of the examples' fields (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...exampleNames),
        fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
        (name, drops) => {
          const draft = exampleDraft(name);
          let i = 0;
          const keep = (): boolean => drops[i++ % drops.length] !== true;
          const thinned: DraftWorkload = {
            ...draft,
            entities: draft.entities.map((entity) => ({
              ...entity,
              ...(keep() ? {} : { count: undefined }),
              ...(keep() ? {} : { avgBytes: undefined }),
            })) as DraftWorkload["entities"],
            accessPatterns: draft.accessPatterns.map((pattern) =>
              keep() ? pattern : { ...pattern, rps: {} },
            ),
          };
          const questions = nextQuestions(createSession(thinned));
          expect(groupQuestions(questions).length).toBeLessThanOrEqual(MAX_QUESTIONS_PER_TURN);
          expect(new Set(questions.map((q) => q.topic)).size).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("asks for every pattern's rates before sizes, relationships or distribution, and the design waits for them", () => {
    let state = apply(createSession(), shopChanges);
    state = apply(state, [
      {
        kind: "add-access-pattern",
        id: "Q9",
        type: "read",
        name: "Orders by status",
        entity: "Order",
        where: { status: "eq" },
      },
    ]);
    // sizes, distribution and the confirmation are open too: rates still come first
    state = {
      ...state,
      workload: {
        ...state.workload,
        entities: state.workload.entities.map(({ count: _count, ...entity }) => entity),
      },
      confirmed: { accessPatternsComplete: false, distribution: false },
    };
    const questions = nextQuestions(state);
    expect(questions.map((q) => q.id)).toEqual(["rate:Q9:avg", "rate:Q9:peak"]);
    const readiness = checkReadiness(state);
    expect(readiness.ready).toBe(false);
    expect(readiness.reasons.join("\n")).toContain("rate unknown: Q9");
  });

  it("asks the massive-scale questions first as soon as writes exceed 10,000/s, and not at 10,000/s; the answers are workload fields", () => {
    const base = apply(createSession(), [
      { kind: "add-entity", name: "Device", key: "deviceId" },
      {
        kind: "add-entity",
        name: "Reading",
        key: "readingId",
        attributes: { deviceId: "string", recordedAt: "datetime" },
      },
      {
        kind: "add-access-pattern",
        id: "W1",
        type: "write",
        name: "Ingest a reading",
        entity: "Reading",
        operation: "create",
        rps: { avg: 5000, peak: 10_000 },
      },
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "A device with its latest readings",
        entity: "Device",
        where: { deviceId: "eq" },
        with: ["latest(Reading, 10)"],
      },
    ]);
    expect(nextQuestions(base).some((q) => q.topic === "massive-scale")).toBe(false);
    const massive = apply(base, [{ kind: "set-rate", pattern: "W1", peak: 10_001 }]);
    const questions = nextQuestions(massive);
    expect(questions.map((q) => q.id)).toEqual([
      "massive-scale:Reading:binning",
      "massive-scale:W1:buffering",
      "massive-scale:Q1:staleness",
    ]);
    expect(new Set(questions.map((q) => q.group?.id))).toEqual(new Set(["massive-scale:W1"]));
    expect(questions[0]?.why).toContain("10,001 item writes/s");
    // a bulk ingest of millions of items per request also triggers them
    const bulk = apply(base, [
      { kind: "update-access-pattern", id: "W1", rps: { avg: 0.01, peak: 0.01 }, batch: 2_000_000 },
    ]);
    expect(nextQuestions(bulk)[0]?.topic).toBe("massive-scale");
    const changes = answersToChanges([
      { question: questions[0] as Question, answer: { kind: "value", value: 60 } },
      { question: questions[1] as Question, answer: { kind: "value", value: 5 } },
      { question: questions[2] as Question, answer: { kind: "value", value: 10 } },
    ]);
    expect(changes.ok && changes.value).toEqual([
      { kind: "update-entity", name: "Reading", binning: { windowSeconds: 60 } },
      { kind: "update-access-pattern", id: "W1", bufferedRecords: 5 },
      { kind: "update-access-pattern", id: "Q1", maxStalenessSeconds: 10 },
    ]);
    const answered = apply(massive, changes.ok ? changes.value : []);
    expect(nextQuestions(answered).some((q) => q.topic === "massive-scale")).toBe(false);
    const file = parse(serializeDraft(answered.workload)) as {
      entities: { Reading: { binning: unknown } };
      accessPatterns: { id: string; bufferedRecords?: number; maxStalenessSeconds?: number }[];
    };
    expect(file.entities.Reading.binning).toEqual({ windowSeconds: 60 });
    expect(file.accessPatterns.find((p) => p.id === "W1")?.bufferedRecords).toBe(5);
    expect(file.accessPatterns.find((p) => p.id === "Q1")?.maxStalenessSeconds).toBe(10);
    // "never" is an answer too
    const never = answersToChanges([
      { question: questions[0] as Question, answer: { kind: "choice", value: "never" } },
    ]);
    expect(never.ok && never.value).toEqual([{ kind: "update-entity", name: "Reading", binning: false }]);
    expect(checkReadiness(answered).session.find((i) => i.id === "massive-scale")?.done).toBe(true);
  });

  it("asks about a read without a write that creates the items, and accepts 'standalone' as the answer", () => {
    const state = apply(createSession(), [
      { kind: "set-application", name: "Accounts", domain: "identity" },
      { kind: "add-entity", name: "User", key: "userId" },
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "Retrieve a user",
        entity: "User",
        where: { userId: "eq" },
        rps: { avg: 10, peak: 20 },
      },
    ]);
    const [question] = nextQuestions(state);
    expect(question?.id).toBe("pairing:User:create");
    expect(question?.text).toContain("no write pattern that creates them");
    expect(question?.answer.kind).toBe("choice");
    const add =
      question?.answer.kind === "choice" ? question.answer.choices.find((c) => c.value === "add") : undefined;
    expect(add?.form).toEqual({
      form: "access-pattern",
      preset: { type: "write", entity: "User", operation: "create" },
    });
    const changes = answersToChanges([
      { question: question as Question, answer: { kind: "choice", value: "standalone" } },
    ]);
    expect(changes.ok).toBe(true);
    const after = apply(state, changes.ok ? changes.value : []);
    expect(after.workload.accessPatterns[0]?.standalone).toBe(true);
    expect(nextQuestions(after)[0]?.topic).not.toBe("read-write-pairs");
  });
});

describe("rate estimates", () => {
  const state = apply(createSession(), [
    { kind: "set-application", name: "Blog", domain: "social media", description: "posts" },
    { kind: "add-entity", name: "Post", key: "postId" },
    {
      kind: "add-access-pattern",
      id: "Q1",
      type: "read",
      name: "Read a post",
      entity: "Post",
      where: { postId: "eq" },
    },
  ]);

  it("turns 'I don't know' into three business-figure questions, then an estimate with its arithmetic that is not applied silently", () => {
    const [avg] = nextQuestions(state);
    const unknown = answersToChanges([{ question: avg as Question, answer: { kind: "unknown" } }]);
    const marked = apply(state, unknown.ok ? unknown.value : []);
    const figures = nextQuestions(marked);
    expect(figures.map((q) => q.id)).toEqual([
      "rate:Q1:daily-active-users",
      "rate:Q1:actions-per-user",
      "rate:Q1:peak-factor",
    ]);
    const values = [1_000_000, 4, 3];
    const changes = answersToChanges(
      figures.map((question, i) => ({
        question,
        answer: { kind: "value", value: values[i] ?? 0 } as Answer,
      })),
    );
    expect(changes.ok && changes.value).toEqual([
      {
        kind: "estimate-rate",
        pattern: "Q1",
        dailyActiveUsers: 1_000_000,
        actionsPerUserPerDay: 4,
        peakFactor: 3,
      },
    ]);
    const result = applyChanges(marked, changes.ok ? changes.value : []);
    if (!result.ok) throw new Error("not applied");
    const estimated = result.value.state;
    // 1,000,000 x 4 / 86,400 = 46.296... requests/s; x 3 = 138.888...
    expect(estimated.estimates[0]).toMatchObject({ avg: 46.3, peak: 138.89 });
    expect(estimated.workload.accessPatterns[0]?.rps).toBeUndefined();
    expect(result.value.learned.join(" ")).toContain("4,000,000 / 86,400 s per day = 46.3 requests/s");
    const [confirm] = nextQuestions(estimated);
    expect(confirm?.id).toBe("rate:Q1:estimate");
    expect(confirm?.text).toContain("1,000,000 daily active users x 4 actions per user per day = 4,000,000");
    expect(confirm?.text).toContain("peak-hour factor 3 = 138.89 requests/s");
    expect(renderSessionRequirements(estimated)).toContain("not used until you accept them");
    expect(checkReadiness(estimated).reasons.join(" ")).toContain("estimates awaiting your answer: Q1");
    const accepted = apply(estimated, [{ kind: "accept-estimate", pattern: "Q1" }]);
    expect(accepted.workload.accessPatterns[0]?.rps).toEqual({ avg: 46.3, peak: 138.89 });
    expect(accepted.estimates).toEqual([]);
  });

  it("rejecting an estimate asks the rate again", () => {
    const estimated = apply(state, [
      { kind: "estimate-rate", pattern: "Q1", dailyActiveUsers: 100, actionsPerUserPerDay: 1, peakFactor: 2 },
    ]);
    const rejected = apply(estimated, [{ kind: "reject-estimate", pattern: "Q1" }]);
    expect(rejected.workload.accessPatterns[0]?.rps).toBeUndefined();
    expect(nextQuestions(rejected)[0]?.id).toBe("rate:Q1:avg");
  });
});

describe("applyChanges", () => {
  it("applies all changes or none, reporting every problem with its path and a suggestion", () => {
    const state = apply(createSession(), [{ kind: "add-entity", name: "User", key: "userId" }]);
    const result = applyChanges(state, [
      { kind: "add-entity", name: "Post", key: "postId" },
      { kind: "add-access-pattern", type: "read", name: "x", entity: "Usr" },
      { kind: "set-rate", pattern: "Q7", avg: 3 },
    ]);
    expect(result.ok).toBe(false);
    expect(result.issues.map((i) => [formatPath(i.path), i.code])).toEqual([
      ["changes[1]", "session.changeRejected"],
      ["changes[2]", "session.changeRejected"],
    ]);
    expect(result.issues[0]?.suggestion).toBe("did you mean User?");
    expect(state.workload.entities.map((e) => e.name)).toEqual(["User"]);
  });

  it("rejects a zero peak, which the requirements checklist counts as a missing rate", () => {
    const state = apply(createSession(), [{ kind: "add-entity", name: "User", key: "userId" }]);
    const result = applyChanges(state, [
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "Get",
        entity: "User",
        rps: { avg: 0, peak: 0 },
      },
    ]);
    expect(result.issues[0]?.message).toContain("a peak rate of 0/s means the pattern never runs");
  });

  it("rejects a peak below the average and a write without an operation", () => {
    const state = apply(createSession(), [{ kind: "add-entity", name: "User", key: "userId" }]);
    const result = applyChanges(state, [
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "Get",
        entity: "User",
        rps: { avg: 10, peak: 5 },
      },
      { kind: "add-access-pattern", id: "C1", type: "write", name: "Save", entity: "User" },
    ]);
    expect(result.issues.map((i) => i.message)).toEqual([
      "Q1: the peak rate (5/s) is below the average (10/s)",
      "C1 is a write: give its operation (create, replace, upsert, patch or delete)",
    ]);
  });

  it("renames an entity in relationships, patterns and with-entries, and removes with cascade", () => {
    let state = apply(createSession(), shopChanges);
    state = apply(state, [
      { kind: "update-access-pattern", id: "Q2", with: ["Customer.email", "count(Customer)"] },
    ]);
    state = apply(state, [{ kind: "update-entity", name: "Customer", rename: "Client" }]);
    expect(state.workload.relationships[0]).toMatchObject({ parent: "Client", child: "Order" });
    expect(state.workload.accessPatterns.find((p) => p.id === "Q2")?.with).toEqual([
      "Client.email",
      "count(Client)",
    ]);
    expect(state.workload.accessPatterns.filter((p) => p.entity === "Client").map((p) => p.id)).toEqual([
      "Q1",
      "C1",
    ]);
    const removed = apply(state, [{ kind: "remove-entity", name: "Client" }]);
    expect(removed.workload.relationships).toEqual([]);
    expect(removed.workload.accessPatterns.map((p) => p.id)).toEqual(["Q2", "C2"]);
    expect(removed.confirmed.accessPatternsComplete).toBe(false);
  });
});

describe("serialization", () => {
  it("a workload built by changes serializes to a file that loads, with the same values", () => {
    const state = apply(createSession(), shopChanges);
    const loaded = loadWorkload(serializeDraft(state.workload), { file: "workload.yaml" });
    expect(loaded.issues.filter((i) => i.severity === "error")).toEqual([]);
    if (!loaded.ok) return;
    const workload = loaded.value;
    expect(workload.name).toBe("Shop");
    expect(workload.entities.map((e) => [e.name, e.key, e.count, e.avgBytes, e.maxBytes])).toEqual([
      ["Customer", ["customerId"], 1_000_000, 1024, 4096],
      ["Order", ["orderId"], 5_000_000, 2048, 8192],
    ]);
    expect(workload.relationships[0]).toMatchObject({
      parent: "Customer",
      child: "Order",
      via: ["customerId"],
      avg: 5,
      max: 1000,
      owned: true,
    });
    expect(workload.accessPatterns.map((p) => [p.id, p.type, p.rps.avg, p.rps.peak])).toEqual([
      ["Q1", "read", 100, 400],
      ["C1", "write", 1, 5],
      ["Q2", "read", 50, 200],
      ["C2", "write", 10, 60],
    ]);
    expect(checkReadiness(state).ready).toBe(true);
  });

  it.each(exampleNames)(
    "example %s: draft -> YAML -> draft is lossless and loads like the original file",
    (name) => {
      const text = readFileSync(join(examplesDir, name, "workload.yaml"), "utf8");
      const draft = exampleDraft(name);
      const yaml = serializeDraft(draft);
      const again = parseDraftDocument(parse(yaml));
      expect(again.ok && again.value).toEqual(draft);
      const original = loadWorkload(text);
      const rewritten = loadWorkload(yaml);
      expect(rewritten.ok).toBe(true);
      if (original.ok && rewritten.ok) expect(rewritten.value).toEqual(original.value);
    },
  );

  it("an unbounded relationship stays answered through the session file; a file's omitted max means unbounded", () => {
    const state = apply(createSession(), [
      { kind: "add-entity", name: "User", key: "userId" },
      { kind: "add-entity", name: "Post", key: "postId", attributes: { userId: "string" } },
      {
        kind: "add-relationship",
        parent: "User",
        child: "Post",
        via: "userId",
        avg: 3,
        max: null,
        owned: true,
      },
    ]);
    const back = sessionFromJson(JSON.parse(JSON.stringify(sessionToJson(state))));
    expect(back.ok && back.value.workload.relationships[0]?.max).toBeNull();
    const file = parseDraftDocument(parse(serializeDraft(state.workload)));
    expect(file.ok && file.value.relationships[0]).toEqual({
      parent: "User",
      child: "Post",
      via: ["userId"],
      avg: 3,
      max: null,
      owned: true,
    });
    const noOwner = parseDraftDocument(
      parse("version: 1\nrelationships:\n  - { parent: A, child: B, avg: 2 }\n"),
    );
    expect(noOwner.ok && noOwner.value.relationships[0]).toEqual({
      parent: "A",
      child: "B",
      avg: 2,
      max: null,
      owned: false,
    });
  });

  it("the session file round-trips", () => {
    const state = apply(createSession(), [
      ...shopChanges,
      { kind: "estimate-rate", pattern: "Q1", dailyActiveUsers: 10, actionsPerUserPerDay: 2, peakFactor: 2 },
    ]);
    const back = sessionFromJson(JSON.parse(JSON.stringify(sessionToJson(state))));
    expect(back.ok && back.value).toEqual(state);
  });
});

describe("summarizeTurn", () => {
  it("has the four parts of the expert prompt", () => {
    const result = applyChanges(createSession(), [
      { kind: "set-application", name: "Shop", domain: "e-commerce" },
    ]);
    if (!result.ok) throw new Error("not applied");
    const summary = summarizeTurn({
      state: result.value.state,
      readiness: checkReadiness(result.value.state),
      learned: result.value.learned,
      filesUpdated: ["cosmosdb_requirements.md", "workload.yaml"],
    });
    const text = formatTurnSummary(summary);
    expect(text).toMatch(
      /^1\. What I learned:\n {3}- Application name: Shop; domain: e-commerce\.\n2\. Files updated:\n {3}- cosmosdb_requirements.md\n {3}- workload.yaml\n3\. Next steps:\n/,
    );
    expect(text).toContain("4. Questions:\n   - Which kinds of items does the application store");
  });
});

/** Plausible answers for a scripted interview: a small two-entity application. */
function scriptedAnswers(state: SessionState, questions: readonly Question[]): readonly Change[] {
  const answers = questions.map((question): { question: Question; answer: Answer } => {
    const answer = ((): Answer => {
      if (question.answer.kind === "form") {
        return { kind: "skip" };
      }
      if (question.answer.kind === "choice") {
        const preferred = [
          "complete",
          "accept",
          "session",
          "single",
          "one-to-many",
          "owned",
          "standalone",
          "string",
        ];
        const choice =
          question.answer.choices.find((c) => preferred.includes(c.value)) ?? question.answer.choices[0];
        return { kind: "choice", value: choice?.value ?? "" };
      }
      if (question.id === "application:name") return { kind: "value", value: "Blog" };
      if (question.id === "application:domain") return { kind: "value", value: "social media" };
      if (question.id === "entities:list") return { kind: "value", value: ["User", "Post"] };
      if (question.id.endsWith(":key"))
        return { kind: "value", value: question.id.includes("User") ? "userId" : "postId" };
      if (question.answer.kind === "number")
        return {
          kind: "value",
          value: question.id.endsWith(":max") ? 50 : question.id.endsWith("peak") ? 20 : 10,
        };
      return { kind: "value", value: "text" };
    })();
    return { question, answer };
  });
  // Forms: add the patterns a user would describe.
  if (questions[0]?.answer.kind === "form") {
    return [
      { kind: "set-attribute", entity: "Post", name: "userId", type: "string" },
      {
        kind: "add-access-pattern",
        type: "read",
        name: "List a user's posts",
        entity: "Post",
        where: { userId: "eq" },
      },
      {
        kind: "add-access-pattern",
        type: "write",
        name: "Create a post",
        entity: "Post",
        operation: "create",
      },
      {
        kind: "add-access-pattern",
        type: "read",
        name: "Get a user",
        entity: "User",
        where: { userId: "eq" },
      },
      { kind: "add-access-pattern", type: "write", name: "Sign up", entity: "User", operation: "create" },
    ];
  }
  const changes = answersToChanges(answers);
  if (!changes.ok) throw new Error(`${state.turn}: ${JSON.stringify(changes.issues)}`);
  return changes.value;
}

describe("agreement with the requirements checklist", () => {
  it.each(exampleNames)(
    "example %s: the interview asks about reads and writes exactly when the document's checklist flags them",
    (name) => {
      const draft = exampleDraft(name);
      for (const variant of [
        draft,
        { ...draft, accessPatterns: draft.accessPatterns.filter((p) => p.type === "read") },
      ]) {
        const state = createSession(variant);
        const readiness = checkReadiness(state);
        const item = readiness.requirements.find((i) => i.id === "reads-and-writes-paired");
        const gaps = pairingGaps(state).filter((gap) => gap.missing !== "any");
        expect(item).toBeDefined();
        expect(gaps.length === 0).toBe(item?.done);
      }
    },
  );
});
