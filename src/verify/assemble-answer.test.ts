/**
 * Assembling a generated read function's output into the oracle's answer shape: counters and
 * copies from the item, parent attributes from batched and per-item follow-ups, child counts from
 * per-result follow-ups, bucket records filtered, ordered and limited by the application, and
 * entries nothing answered reported as unresolved.
 */
import { describe, expect, it } from "vitest";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import type { ReadPlan } from "../planner/types.js";
import { readExample, readExampleWorkload } from "../test-support/model-examples.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import { assembleReadAnswer, isLookupPlan, returnedLeaks } from "./assemble-answer.js";

const blogging = readExampleWorkload("blogging");

function modelOf(workload: Workload, yaml: string): Model {
  const loaded = loadModel(yaml, { workload });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return loaded.value;
}

const pattern = (workload: Workload, id: string): ReadPattern =>
  workload.accessPatterns.find((p) => p.id === id) as ReadPattern;

/** Posts without copies or counters: Q2's username and counts come from follow-ups. */
const plainModel = modelOf(
  blogging,
  `version: 1
containers:
  - name: app
    partitionKey: [/pk]
    items:
      - { type: user, entity: User, id: "{userId}", partitionKey: ["{userId}"] }
      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"] }
      - { type: comment, entity: Comment, id: "{commentId}", partitionKey: ["{postId}"] }
      - { type: like, entity: Like, id: "{likeId}", partitionKey: ["{postId}"] }
`,
);

const step = (itemType: string, perResult: boolean) => ({
  kind: "query" as const,
  container: "app",
  itemType,
  sql: "SELECT * FROM c",
  parameters: [],
  scope: "single" as const,
  partitions: 1,
  returned: 1,
  orderServedByIndex: true,
  ru: { estimate: 1, low: 1, high: 1 },
  times: 1,
  note: "test",
  perResult,
});

const q2Plan: ReadPlan = {
  patternId: "Q2",
  type: "read",
  kind: "pointRead",
  container: "app",
  itemType: "post",
  operations: [step("post", false), step("user", false), step("comment", true), step("like", true)],
  fanOut: false,
  served: true,
  notes: [],
};

const post = {
  id: "p1",
  type: "post",
  postId: "p1",
  userId: "u1",
  title: "T",
  content: "C",
  creationDate: "2025-01-01T00:00:00Z",
  _rid: "x",
};

describe("assembleReadAnswer", () => {
  it("fills the parent's attribute from a batched follow-up and counts from per-result follow-ups", () => {
    const assembled = assembleReadAnswer(
      blogging,
      plainModel,
      pattern(blogging, "Q2"),
      q2Plan,
      { postId: "p1" },
      {
        items: [post],
        followUps: [
          {
            container: "app",
            itemType: "user",
            perResult: false,
            items: [
              { userId: "u2", username: "bo" },
              { userId: "u1", username: "ann" },
            ],
            byResult: [],
          },
          { container: "app", itemType: "comment", perResult: true, items: [4], byResult: [[4]] },
          { container: "app", itemType: "like", perResult: true, items: [], byResult: [[]] },
        ],
        requestCharge: 3,
      },
    );
    expect(assembled.unresolved).toEqual([]);
    expect(assembled.answers).toEqual([
      {
        postId: "p1",
        userId: "u1",
        title: "T",
        content: "C",
        creationDate: "2025-01-01T00:00:00Z",
        "User.username": "ann",
        "count(Comment)": 4,
        "count(Like)": 0,
      },
    ]);
  });

  it("reports the with entries neither the item nor a follow-up answers", () => {
    const assembled = assembleReadAnswer(
      blogging,
      plainModel,
      pattern(blogging, "Q2"),
      q2Plan,
      { postId: "p1" },
      { items: [post], followUps: [], requestCharge: 1 },
    );
    expect(assembled.unresolved).toEqual(["User.username", "count(Comment)", "count(Like)"]);
  });

  it("unpacks bucket items and filters, orders and limits their records as the application must", () => {
    const iot = readExampleWorkload("iot-telemetry");
    const model = modelOf(iot, readExample("iot-telemetry/expert-model.yaml"));
    const q1 = pattern(iot, "Q1");
    const plan: ReadPlan = {
      ...q2Plan,
      patternId: "Q1",
      container: "telemetry",
      itemType: "readingBucket",
      operations: [{ ...step("readingBucket", false), container: "telemetry" }],
    };
    const reading = (timestamp: string) => ({ deviceId: "d1", timestamp, value: 1 });
    const assembled = assembleReadAnswer(
      iot,
      model,
      q1,
      plan,
      { deviceId: "d1", timestamp: { from: "2025-01-01T00:00:30Z", to: "2025-01-01T00:01:30Z" } },
      {
        items: [
          {
            id: "b2",
            type: "readingBucket",
            records: [reading("2025-01-01T00:01:40Z"), reading("2025-01-01T00:01:10Z")],
          },
          {
            id: "b1",
            type: "readingBucket",
            records: [reading("2025-01-01T00:00:50Z"), reading("2025-01-01T00:00:10Z")],
          },
        ],
        followUps: [],
        requestCharge: 1,
      },
    );
    expect(assembled.answers.map((answer) => answer["timestamp"])).toEqual([
      "2025-01-01T00:00:50Z",
      "2025-01-01T00:01:10Z",
    ]);
  });
});

describe("isLookupPlan", () => {
  it("is true for a projection holding the key followed by a read of the complete record", () => {
    const accounts = readExampleWorkload("accounts-sessions");
    const model = modelOf(accounts, readExample("accounts-sessions/expert-model.yaml"));
    const lookup = model.containers.flatMap((c) =>
      c.items.filter((i) => i.select !== undefined).map((i) => ({ container: c.name, item: i })),
    )[0];
    const complete = model.containers.flatMap((c) =>
      c.items
        .filter((i) => i.select === undefined && i.entity === lookup?.item.entity)
        .map((i) => ({ container: c.name, item: i })),
    )[0];
    if (lookup === undefined || complete === undefined)
      throw new Error("accounts-sessions has a lookup item");
    const plan: ReadPlan = {
      ...q2Plan,
      operations: [
        { ...step(lookup.item.type, false), container: lookup.container },
        { ...step(complete.item.type, true), container: complete.container },
      ],
    };
    expect(isLookupPlan(model, plan)).toBe(true);
    expect(isLookupPlan(plainModel, q2Plan)).toBe(false);
    // The same entity read again for a `with` entry (a self-relationship's latest children) is a
    // follow-up, not the lookup's complete record (independent seed 33).
    const [first, second] = plan.operations;
    if (first === undefined || second === undefined) throw new Error("two steps");
    const children = { ...plan, operations: [first, { ...second, withEntry: "latest(Account, 5)" }] };
    expect(isLookupPlan(model, children)).toBe(false);
  });
});

describe("returnedLeaks", () => {
  const q3 = pattern(blogging, "Q3");
  it("names attributes select leaves out and strings longer than their truncate", () => {
    const narrow = { ...q3, select: ["postId", "title"] };
    const record = { id: "p1", postId: "p1", title: "t", creationDate: "2026", content: "x".repeat(201) };
    expect(returnedLeaks(blogging, narrow, [record])).toEqual([
      "content is returned although select lists postId, title",
      "creationDate is returned although select lists postId, title",
      "content is returned with more than the 200 bytes truncate allows",
    ]);
  });
  it("accepts the selection, the key, the parents' via, and strings within their bytes", () => {
    const cut = q3;
    expect(returnedLeaks(blogging, cut, [{ postId: "p1", userId: "u1", content: "é".repeat(100) }])).toEqual(
      [],
    );
    expect(returnedLeaks(blogging, cut, [{ postId: "p1", content: `${"é".repeat(100)}x` }])).toEqual([
      "content is returned with more than the 200 bytes truncate allows",
    ]);
  });
  it("accepts an attribute with names on the pattern's own entity (independent seed 149)", () => {
    const narrow = { ...q3, select: ["postId", "title"] };
    const record = { postId: "p1", title: "t", creationDate: "2026" };
    const own: ReadPattern = {
      ...narrow,
      with: [{ kind: "attribute", entity: "Post", attribute: "creationDate" }],
    };
    expect(returnedLeaks(blogging, own, [record])).toEqual([]);
    // The same attribute of another entity is no reason to return it.
    const other: ReadPattern = {
      ...narrow,
      with: [{ kind: "attribute", entity: "User", attribute: "creationDate" }],
    };
    expect(returnedLeaks(blogging, other, [record])).toEqual([
      "creationDate is returned although select lists postId, title",
    ]);
  });
});

describe("follow-ups of one entity for several with entries", () => {
  it("takes each entry from the step the plan made for it (latest, count, all of comments)", () => {
    const several: ReadPattern = {
      ...pattern(blogging, "Q2"),
      with: [
        { kind: "latest", entity: "Comment", n: 1 },
        { kind: "count", entity: "Comment" },
        { kind: "all", entity: "Comment" },
      ],
    };
    const plan: ReadPlan = {
      ...q2Plan,
      operations: [
        step("post", false),
        { ...step("comment", true), withEntry: "latest(Comment, 1)" },
        { ...step("comment", true), withEntry: "count(Comment)" },
        { ...step("comment", true), withEntry: "all(Comment)" },
      ],
    };
    const c1 = {
      commentId: "c1",
      postId: "p1",
      userId: "u1",
      content: "a",
      creationDate: "2025-01-02T00:00:00Z",
    };
    const c2 = { ...c1, commentId: "c2", creationDate: "2025-01-01T00:00:00Z" };
    const perResult = (items: unknown[]) => ({
      container: "app",
      itemType: "comment",
      perResult: true,
      items,
      byResult: [items],
    });
    const assembled = assembleReadAnswer(
      blogging,
      plainModel,
      several,
      plan,
      { postId: "p1" },
      {
        items: [post],
        followUps: [perResult([c1]), perResult([2]), perResult([c1, c2])],
        requestCharge: 4,
      },
    );
    expect(assembled.answers[0]).toMatchObject({
      "latest(Comment, 1)": [c1],
      "count(Comment)": 2,
      "all(Comment)": [c1, c2],
    });
  });
});
