/**
 * Checks at the moment of the answer: what the change language refuses (unknown fields and
 * kinds with "did you mean", numbers out of range, with the valid form), what applyChanges
 * refuses (`with` entries, atomicWith), what it fills in (a boolean's 2 values), the design
 * questions it warns about, and the readiness reasons that carry the loader's errors.
 */
import { describe, expect, it } from "vitest";
import { applyChanges } from "./apply-changes.js";
import { changeSchema, changesSchema, type Change } from "./changes.js";
import { checkReadiness } from "./checklist.js";
import { nextQuestions } from "./next-questions.js";
import { groupQuestions } from "./questions.js";
import { createSession, type SessionState } from "./state.js";

function apply(state: SessionState, changes: readonly Change[]): SessionState {
  const result = applyChanges(state, changes);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value.state;
}

function messages(value: unknown): string {
  const parsed = changesSchema.safeParse(value);
  return parsed.success ? "" : parsed.error.issues.map((issue) => issue.message).join("\n");
}

const food = apply(createSession(), [
  { kind: "set-application", name: "Food", domain: "delivery" },
  {
    kind: "add-entity",
    name: "Order",
    key: "orderId",
    attributes: { orderId: "string", customerId: "string", paid: "boolean", status: "string" },
  },
  {
    kind: "add-entity",
    name: "MenuItem",
    key: "menuItemId",
    attributes: { menuItemId: "string", name: "string", price: "number" },
  },
]);

describe("the change language", () => {
  it("refuses an unknown field with the closest field and the valid ones, instead of dropping it", () => {
    const text = messages([{ kind: "add-entity", name: "Order", keyy: "orderId" }]);
    expect(text).toContain('add-entity has no field "keyy" (did you mean "key"?)');
    expect(text).toContain("its fields are kind, name, key, count");
    expect(
      messages([{ kind: "add-entity", name: "O", attributes: { a: { type: "string", distinc: 3 } } }]),
    ).toContain('attribute has no field "distinc" (did you mean "distinct"?)');
  });

  it("refuses an unknown kind with the closest kind", () => {
    expect(messages([{ kind: "add-entitiy", name: "Order" }])).toContain(
      'there is no change kind "add-entitiy" (did you mean "add-entity"?)',
    );
  });

  it("accepts numbers written as text, and says the range of a number out of it", () => {
    const parsed = changeSchema.safeParse({ kind: "set-rate", pattern: "Q1", avg: "600", peak: "1.2e3" });
    expect(parsed.success && parsed.data).toEqual({ kind: "set-rate", pattern: "Q1", avg: 600, peak: 1200 });
    expect(messages([{ kind: "update-entity", name: "Order", count: -5 }])).toContain(
      "expected a number more than 0, got -5",
    );
    expect(messages([{ kind: "update-entity", name: "Order", ttlSeconds: 1.5 }])).toContain(
      "expected a whole number from 1 to 2,147,483,647, got 1.5",
    );
    expect(messages([{ kind: "update-entity", name: "Order", count: 1e99 }])).toContain(
      "the largest whole number Cosmos DB holds exactly",
    );
    expect(messages([{ kind: "set-rate", pattern: "Q1", avg: "six hundred" }])).toContain(
      'expected a number of at least 0, got "six hundred"',
    );
  });
});

describe("applyChanges at the moment of the answer", () => {
  it("refuses a with entry that is not one of the forms, saying the forms and what it would be", () => {
    const result = applyChanges(food, [
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "orders",
        entity: "Order",
        with: ["MenuItem"],
      },
    ]);
    expect(result.ok).toBe(false);
    const message = result.issues[0]?.message ?? "";
    expect(message).toContain(
      'with entry "MenuItem" cannot be read: expected Entity.attribute, count(Entity)',
    );
    expect(message).toContain('"all(MenuItem)"');
    expect(message).toContain('"MenuItem.name"');
    expect(result.issues[0]?.path).toEqual(["changes", 0]);
  });

  it("refuses a with entry naming an unknown entity or attribute, with did you mean", () => {
    const result = applyChanges(food, [
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "a",
        entity: "Order",
        with: ["MenuItm.name"],
      },
      {
        kind: "add-access-pattern",
        id: "Q2",
        type: "read",
        name: "b",
        entity: "Order",
        with: ["MenuItem.nme"],
      },
    ]);
    expect(result.ok).toBe(false);
    expect(result.issues.map((i) => i.message)).toEqual([
      expect.stringContaining("names no entity MenuItm (did you mean MenuItem?)"),
      expect.stringContaining("MenuItem has no attribute nme (did you mean name?)"),
    ]);
  });

  it("refuses latest(X, N) of an entity without a datetime attribute, unless the same answer adds one", () => {
    const linked = apply(food, [
      { kind: "add-relationship", parent: "Order", child: "MenuItem", via: "orderId", avg: 3 },
      { kind: "set-attribute", entity: "MenuItem", name: "orderId", type: "string" },
    ]);
    const read: Change = {
      kind: "add-access-pattern",
      id: "Q1",
      type: "read",
      name: "order with its newest items",
      entity: "Order",
      with: ["latest(MenuItem, 3)"],
    };
    const refused = applyChanges(linked, [read]);
    expect(refused.ok).toBe(false);
    expect(refused.issues.map((i) => i.message)).toEqual([
      expect.stringContaining(
        "MenuItem has no datetime attribute; add one (set-attribute { entity: MenuItem, name: createdAt, type: datetime }) or ask for all(MenuItem)",
      ),
    ]);
    const timed = applyChanges(linked, [
      read,
      { kind: "set-attribute", entity: "MenuItem", name: "createdAt", type: "datetime" },
    ]);
    expect(timed.ok).toBe(true);
  });

  it("warns that latest(X, N) will need a datetime attribute while X lists no attributes yet", () => {
    const bare = apply(food, [
      { kind: "add-entity", name: "Ping", key: "pingId" },
      { kind: "add-relationship", parent: "Order", child: "Ping", via: "orderId", avg: 3 },
    ]);
    const result = applyChanges(bare, [
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "a",
        entity: "Order",
        with: ["latest(Ping, 2)"],
      },
    ]);
    expect(result.ok).toBe(true);
    expect(result.issues.map((i) => i.message).join("\n")).toContain(
      "so Ping needs a datetime attribute (set-attribute { entity: Ping, name: createdAt, type: datetime }), or the workload will not load",
    );
  });

  it("accepts a valid with entry and warns that it needs a relationship", () => {
    const result = applyChanges(food, [
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "a",
        entity: "Order",
        with: ["MenuItem.name"],
      },
    ]);
    expect(result.ok).toBe(true);
    expect(result.issues.map((i) => i.message).join("\n")).toContain(
      "it needs a relationship between MenuItem and Order",
    );
  });

  it("refuses atomicWith naming no other write, with the write ids", () => {
    const withWrites = apply(food, [
      {
        kind: "add-access-pattern",
        id: "C1",
        type: "write",
        name: "a",
        entity: "Order",
        operation: "create",
      },
      {
        kind: "add-access-pattern",
        id: "C2",
        type: "write",
        name: "b",
        entity: "MenuItem",
        operation: "create",
      },
    ]);
    const result = applyChanges(withWrites, [
      { kind: "update-access-pattern", id: "C1", atomicWith: ["C3"] },
    ]);
    expect(result.ok).toBe(false);
    expect(result.issues[0]?.message).toContain(
      "there is no access pattern C3 (did you mean C2?); the write patterns are C2",
    );
    // a write added later in the same answer may be named
    const later = applyChanges(withWrites, [
      { kind: "update-access-pattern", id: "C1", atomicWith: ["C3"] },
      { kind: "add-access-pattern", id: "C3", type: "write", name: "c", entity: "Order", operation: "patch" },
    ]);
    expect(later.ok).toBe(true);
  });

  it("warns about a read without a filter, growth the create rate contradicts, and a filter on an attribute nothing writes", () => {
    const result = applyChanges(food, [
      { kind: "update-entity", name: "Order", count: 1000, growthPerMonth: 50_000_000 },
      {
        kind: "add-access-pattern",
        id: "Q2",
        type: "read",
        name: "all orders",
        entity: "Order",
        rps: { avg: 10, peak: 20 },
      },
      {
        kind: "add-access-pattern",
        id: "Q3",
        type: "read",
        name: "by courier",
        entity: "Order",
        where: { courierId: "eq" },
        rps: { avg: 10, peak: 20 },
      },
      {
        kind: "add-access-pattern",
        id: "C1",
        type: "write",
        name: "create",
        entity: "Order",
        operation: "create",
        rps: { avg: 600, peak: 900 },
      },
    ]);
    expect(result.ok).toBe(true);
    const warnings = result.issues.map((issue) => [issue.code, issue.message] as const);
    expect(warnings).toContainEqual([
      "workload.unselectiveRead",
      expect.stringContaining("Q2 has no filter: each request reads all 1,000 Order records"),
    ]);
    expect(warnings).toContainEqual([
      "workload.growthMismatch",
      expect.stringContaining(
        "Order grows by 50,000,000 records a month, but its create patterns make 1,576,800,000 a month (C1 600/s on average, x 2,628,000 s",
      ),
    ]);
    expect(warnings).toContainEqual([
      "workload.filterNeverWritten",
      expect.stringContaining("Q3 filters on Order.courierId, which Order does not list: no write sets it"),
    ]);
    // said once: the next answer does not repeat them
    const next = applyChanges(result.ok ? result.value.state : food, [{ kind: "add-note", text: "x" }]);
    expect(next.issues.filter((i) => i.code.startsWith("workload."))).toEqual([]);
  });

  it("fills in a boolean's 2 values instead of asking them", () => {
    const state = apply(food, [
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "unpaid",
        entity: "Order",
        where: { paid: "eq", status: "eq" },
      },
    ]);
    expect(state.workload.entities[0]?.attributes.find((a) => a.name === "paid")?.distinct).toBe(2);
    const asked = [];
    let current = apply(state, [
      { kind: "set-rate", pattern: "Q1", avg: 1, peak: 2 },
      {
        kind: "add-access-pattern",
        type: "write",
        name: "c",
        entity: "Order",
        operation: "create",
        rps: { avg: 1, peak: 2 },
      },
    ]);
    for (let turn = 0; turn < 10; turn++) {
      const questions = nextQuestions(current);
      asked.push(...questions.map((q) => q.id));
      if (questions.some((q) => q.topic === "cardinality")) break;
      current = apply(
        current,
        questions.map((q) => ({ kind: "decline-question", question: q.id }) as const),
      );
    }
    expect(asked).toContain("cardinality:Order:status");
    expect(asked).not.toContain("cardinality:Order:paid");
  });
});

describe("grouped questions", () => {
  it("asks every entity's count, size, growth and retention as one question each, three a turn", () => {
    const state = apply(createSession(), [
      { kind: "set-application", name: "x", domain: "y" },
      ...["A", "B", "C", "D"].map((name): Change => ({
        kind: "add-entity",
        name,
        key: `${name.toLowerCase()}Id`,
      })),
      ...["A", "B", "C", "D"].flatMap((name): Change[] => [
        {
          kind: "add-access-pattern",
          type: "read",
          name: "r",
          entity: name,
          where: { [`${name.toLowerCase()}Id`]: "eq" },
          rps: { avg: 1, peak: 2 },
        },
        {
          kind: "add-access-pattern",
          type: "write",
          name: "w",
          entity: name,
          operation: "create",
          rps: { avg: 1, peak: 2 },
        },
      ]),
    ]);
    const questions = nextQuestions(state);
    const groups = groupQuestions(questions);
    expect(groups.map((g) => g.group?.id)).toEqual(["size:A", "size:B", "size:C"]);
    expect(groups[0]?.questions.map((q) => q.id)).toEqual([
      "size:A:count",
      "size:A:avgBytes",
      "size:A:growth",
      "size:A:retention",
    ]);
  });

  it("asks every pairing gap at once", () => {
    const state = apply(createSession(), [
      { kind: "set-application", name: "x", domain: "y" },
      ...["A", "B", "C", "D"].map((name): Change => ({
        kind: "add-entity",
        name,
        key: `${name.toLowerCase()}Id`,
      })),
      ...["A", "B", "C", "D"].map((name): Change => ({
        kind: "add-access-pattern",
        type: "read",
        name: "r",
        entity: name,
        rps: { avg: 1, peak: 2 },
        limit: 1,
      })),
    ]);
    const questions = nextQuestions(state);
    expect(questions.map((q) => q.id)).toEqual([
      "pairing:A:create",
      "pairing:B:create",
      "pairing:C:create",
      "pairing:D:create",
    ]);
    expect(groupQuestions(questions)).toHaveLength(1);
  });
});

describe("readiness", () => {
  it("says which errors keep workload.yaml from loading, not only how many", () => {
    const state = apply(food, [
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "a",
        entity: "Order",
        with: ["MenuItem.name"],
      },
    ]);
    const reasons = checkReadiness(state).reasons.join("\n");
    expect(reasons).toMatch(/workload\.yaml does not load yet: \d+ errors?: /);
    expect(reasons).toContain("entities.Order.count");
  });
});
