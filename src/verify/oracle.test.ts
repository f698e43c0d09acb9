import { describe, expect, it } from "vitest";
import type { Dataset } from "../synthetic/generate-records.js";
import { generateDataset } from "../synthetic/generate-records.js";
import { mulberry32 } from "../synthetic/random.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { ReadPattern, Workload, WritePattern } from "../workload/types.js";
import { applyWriteToDataset } from "./apply-write.js";
import { answerFromItem, checkReadAnswer } from "./compare-answers.js";
import { pickParameters } from "./pick-parameters.js";
import { answerReadPattern, inputValue, matchesPredicate, truncateToBytes } from "./oracle.js";

const workloadResult = loadWorkload(`
version: 1
name: tiny blog
entities:
  User:
    key: userId
    count: 3
    avgBytes: 100
    attributes: { userId: string, username: string }
  Post:
    key: postId
    count: 4
    avgBytes: 300
    attributes: { postId: string, userId: string, title: string, tags: array, creationDate: datetime, score: number }
  Comment:
    key: commentId
    count: 5
    avgBytes: 100
    attributes: { commentId: string, postId: string, text: string, stars: number, creationDate: datetime }
relationships:
  - { parent: User, child: Post, via: userId, avg: 2 }
  - { parent: Post, child: Comment, via: postId, avg: 2 }
accessPatterns:
  - id: Q1
    name: user's posts, newest first, 2 per page, short form
    type: read
    entity: Post
    where: { userId: eq }
    orderBy: { creationDate: desc }
    limit: 2
    select: [postId, title]
    truncate: { title: 5 }
    with: [User.username, count(Comment), "latest(Comment, 1)", max(Comment.stars), sum(Comment.stars)]
    rps: { avg: 1, peak: 1 }
  - id: Q2
    name: posts by score range, tag and title prefix
    type: read
    entity: Post
    where: { score: range, tags: contains, title: prefix }
    orderBy: { score: asc, postId: desc }
    rps: { avg: 1, peak: 1 }
  - id: Q3
    name: posts by ids
    type: read
    entity: Post
    where: { postId: in }
    with: [all(Comment), min(Comment.stars)]
    rps: { avg: 1, peak: 1 }
  - { id: C1, name: rename user, type: write, operation: patch, entity: User, changes: [username], rps: { avg: 1, peak: 1 } }
  - { id: C2, name: comment, type: write, operation: create, entity: Comment, rps: { avg: 1, peak: 1 } }
  - { id: C3, name: delete comment, type: write, operation: delete, entity: Comment, rps: { avg: 1, peak: 1 } }
  - { id: C4, name: post, type: write, operation: upsert, entity: Post, rps: { avg: 1, peak: 1 } }
`);
if (!workloadResult.ok) throw new Error(JSON.stringify(workloadResult.issues));
const workload: Workload = workloadResult.value;
const read = (id: string): ReadPattern => workload.accessPatterns.find((p) => p.id === id) as ReadPattern;
const write = (id: string): WritePattern => workload.accessPatterns.find((p) => p.id === id) as WritePattern;

const dataset: Dataset = {
  seed: 0,
  entities: {
    User: [
      { userId: "u1", username: "ann" },
      { userId: "u2", username: "bob" },
      { userId: "u3", username: "cyd" },
    ],
    Post: [
      {
        postId: "p1",
        userId: "u1",
        title: "Hello world",
        tags: ["a", "b"],
        creationDate: "2025-01-01T00:00:00Z",
        score: 5,
      },
      {
        postId: "p2",
        userId: "u1",
        title: "Café crème",
        tags: ["b"],
        creationDate: "2025-03-01T00:00:00Z",
        score: 7,
      },
      {
        postId: "p3",
        userId: "u1",
        title: "Third",
        tags: [],
        creationDate: "2025-02-01T00:00:00Z",
        score: 7,
      },
      {
        postId: "p4",
        userId: "u2",
        title: "Hello again",
        tags: ["b", "c"],
        creationDate: "2025-04-01T00:00:00Z",
        score: 9,
      },
    ],
    Comment: [
      { commentId: "c1", postId: "p2", text: "x", stars: 3, creationDate: "2025-03-02T00:00:00Z" },
      { commentId: "c2", postId: "p2", text: "y", stars: 5, creationDate: "2025-03-05T00:00:00Z" },
      { commentId: "c3", postId: "p2", text: "z", stars: 1, creationDate: "2025-03-03T00:00:00Z" },
      { commentId: "c4", postId: "p1", text: "w", stars: 4, creationDate: "2025-01-02T00:00:00Z" },
      { commentId: "c5", postId: "p4", text: "v", stars: 2, creationDate: "2025-04-02T00:00:00Z" },
    ],
  },
};

describe("answerReadPattern", () => {
  it("filters, orders newest first, limits, selects, truncates by UTF-8 bytes and adds with entries", () => {
    expect(answerReadPattern(workload, dataset, read("Q1"), { userId: "u1" })).toEqual([
      {
        postId: "p2",
        title: "Café", // "Café " would be 6 bytes: é takes 2
        "User.username": "ann",
        "count(Comment)": 3,
        "latest(Comment, 1)": [
          { commentId: "c2", postId: "p2", text: "y", stars: 5, creationDate: "2025-03-05T00:00:00Z" },
        ],
        "max(Comment.stars)": 5,
        "sum(Comment.stars)": 9,
      },
      {
        postId: "p3",
        title: "Third",
        "User.username": "ann",
        "count(Comment)": 0,
        "latest(Comment, 1)": [],
        "max(Comment.stars)": null,
        "sum(Comment.stars)": 0,
      },
    ]);
  });

  it("applies half-open ranges, contains, prefix and multi-key ordering", () => {
    const parameters = { score: { from: 5, to: 9 }, tags: "b", title: "H" };
    // p1 (5, has b, "Hello world") and p4 is excluded by the range (9 is not < 9); p2/p3 fail the prefix.
    expect(
      answerReadPattern(workload, dataset, read("Q2"), parameters).map((post) => post["postId"]),
    ).toEqual(["p1"]);
    const wide = { score: { from: 0, to: 100 }, tags: "b", title: "" };
    expect(answerReadPattern(workload, dataset, read("Q2"), wide).map((post) => post["postId"])).toEqual([
      "p1",
      "p2",
      "p4",
    ]);
  });

  it("answers `in` with all children and min", () => {
    const answer = answerReadPattern(workload, dataset, read("Q3"), { postId: ["p4", "p3", "zz"] });
    expect(
      answer.map((post) => [
        post["postId"],
        (post["all(Comment)"] as unknown[]).length,
        post["min(Comment.stars)"],
      ]),
    ).toEqual([
      ["p3", 0, null],
      ["p4", 1, 2],
    ]);
  });

  it("matches nothing across types or without a parameter", () => {
    expect(matchesPredicate("5", "range", { from: 1, to: 9 })).toBe(false);
    expect(matchesPredicate("b", "eq", undefined)).toBe(false);
    expect(matchesPredicate(["a"], "contains", "a")).toBe(true);
    expect(matchesPredicate("abc", "contains", "a")).toBe(false);
  });
});

describe("truncateToBytes", () => {
  it("never splits a character", () => {
    expect(truncateToBytes("naïve", 3)).toBe("na");
    expect(truncateToBytes("naïve", 4)).toBe("naï");
    expect(truncateToBytes("😀x", 3)).toBe("");
    expect(truncateToBytes("abc", 10)).toBe("abc");
  });
});

describe("applyWriteToDataset", () => {
  it("keeps copies and counters current after writes", () => {
    const renamed = applyWriteToDataset(workload, dataset, write("C1"), { userId: "u1", username: "anna" });
    const commented = applyWriteToDataset(workload, renamed, write("C2"), {
      commentId: "c6",
      postId: "p3",
      text: "new",
      stars: 5,
      creationDate: "2025-05-01T00:00:00Z",
    });
    const answer = answerReadPattern(workload, commented, read("Q1"), { userId: "u1" });
    expect(answer.map((post) => [post["User.username"], post["count(Comment)"]])).toEqual([
      ["anna", 3],
      ["anna", 1],
    ]);
    const deleted = applyWriteToDataset(workload, commented, write("C3"), { commentId: "c2" });
    expect(answerReadPattern(workload, deleted, read("Q1"), { userId: "u1" })[0]?.["count(Comment)"]).toBe(2);
    // The input dataset is unchanged.
    expect(dataset.entities["User"]?.[0]?.["username"]).toBe("ann");
  });

  it("fails like Cosmos DB on conflicts and missing items, and upserts either way", () => {
    expect(() => applyWriteToDataset(workload, dataset, write("C2"), { commentId: "c1" })).toThrow(
      expect.objectContaining({ code: "verify.conflict" }),
    );
    expect(() => applyWriteToDataset(workload, dataset, write("C3"), { commentId: "nope" })).toThrow(
      expect.objectContaining({ code: "verify.notFound" }),
    );
    const upserted = applyWriteToDataset(workload, dataset, write("C4"), { postId: "p9", userId: "u3" });
    expect(upserted.entities["Post"]?.length).toBe(5);
  });
});

describe("pickParameters", () => {
  it("names a parent that has children and a range that matches about the expected count", () => {
    const generated = generateDataset(workload, { seed: 3, scale: 100 });
    const rng = mulberry32(1);
    for (let attempt = 0; attempt < 20; attempt++) {
      const parameters = pickParameters(workload, generated, read("Q1"), rng);
      expect(parameters).toBeDefined();
      const answer = answerReadPattern(workload, generated, read("Q1"), parameters ?? {});
      expect(answer.length).toBeGreaterThan(0);
      expect(answer[0]?.["count(Comment)"]).toBeGreaterThan(0);
      const ranged = pickParameters(workload, generated, read("Q2"), rng) ?? {};
      expect(inputValue(ranged, "score", "from")).toBeTypeOf("number");
      expect(answerReadPattern(workload, generated, read("Q2"), ranged).length).toBeGreaterThan(0);
      // `in` without returns: the anchor's key and two other existing keys.
      const listed = pickParameters(workload, generated, read("Q3"), rng) ?? {};
      expect(answerReadPattern(workload, generated, read("Q3"), listed).length).toBe(3);
    }
    const feedPage: ReadPattern = { ...read("Q3"), returns: { avg: 20 } };
    expect(
      answerReadPattern(
        workload,
        generated,
        feedPage,
        pickParameters(workload, generated, feedPage, rng) ?? {},
      ).length,
    ).toBe(20);
  });
});

describe("checkReadAnswer", () => {
  const q1 = read("Q1");
  const expected = answerReadPattern(workload, dataset, q1, { userId: "u1" });

  it("accepts the oracle's own answer and reports a wrong counter with its key and property", () => {
    expect(checkReadAnswer(workload, dataset, q1, { userId: "u1" }, expected).ok).toBe(true);
    const wrong = expected.map((result) =>
      result["postId"] === "p2" ? { ...result, "count(Comment)": 2 } : result,
    );
    const check = checkReadAnswer(workload, dataset, q1, { userId: "u1" }, wrong);
    expect(check.ok).toBe(false);
    expect(check.differences).toEqual([
      expect.objectContaining({
        kind: "value",
        key: "p2",
        property: "count(Comment)",
        expected: 3,
        actual: 2,
      }),
    ]);
  });

  it("reports a missing result, a result out of order and a result outside the answer", () => {
    expect(
      checkReadAnswer(workload, dataset, q1, { userId: "u1" }, expected.slice(0, 1)).differences[0]?.kind,
    ).toBe("count");
    const reversed = [...expected].reverse();
    expect(
      checkReadAnswer(workload, dataset, q1, { userId: "u1" }, reversed).differences.map((d) => d.kind),
    ).toEqual(["order"]);
    const other = answerReadPattern(workload, dataset, q1, { userId: "u2" });
    const check = checkReadAnswer(workload, dataset, q1, { userId: "u1" }, [expected[0] ?? {}, ...other]);
    expect(check.differences.map((d) => d.kind)).toContain("unexpected");
  });

  it("accepts either record of a tie across the limit, and ties in any order", () => {
    // Scores 7 (p2) and 7 (p3) are tied: with limit 1 either is a correct first result.
    const tie: ReadPattern = {
      ...read("Q2"),
      where: [{ attribute: "score", op: "range" }],
      orderBy: [{ attribute: "score", direction: "desc" }],
      limit: 1,
    };
    const parameters = { score: { from: 6, to: 8 } };
    const posts = dataset.entities["Post"] ?? [];
    const [p1, p2, p3] = [posts[0] ?? {}, posts[1] ?? {}, posts[2] ?? {}];
    expect(checkReadAnswer(workload, dataset, tie, parameters, [p2]).ok).toBe(true);
    expect(checkReadAnswer(workload, dataset, tie, parameters, [p3]).ok).toBe(true);
    expect(checkReadAnswer(workload, dataset, tie, parameters, [p1]).ok).toBe(false);
    const both: ReadPattern = { ...tie, limit: 2 };
    expect(checkReadAnswer(workload, dataset, both, parameters, [p3, p2]).ok).toBe(true);
  });
});

describe("answerFromItem", () => {
  it("maps copies, counters and embeds of a stored item to the with labels, and lists the rest", () => {
    const itemType = {
      type: "post",
      entity: "Post",
      id: "{postId}",
      partitionKey: ["{userId}"],
      truncate: [],
      embeds: [{ entity: "Comment", as: "recent", latest: 2 }],
      copies: [{ from: { entity: "User", attribute: "username" }, as: "author" }],
      counts: [{ of: "Comment", as: "comments" }],
    };
    const item = {
      id: "p2",
      type: "post",
      postId: "p2",
      userId: "u1",
      title: "Café crème",
      author: "ann",
      comments: 3,
      recent: [{ commentId: "c2" }, { commentId: "c3" }],
    };
    const { answer, unresolved } = answerFromItem(
      workload,
      { version: 1, containers: [] },
      itemType,
      read("Q1"),
      item,
    );
    expect(answer).toEqual({
      postId: "p2",
      title: "Café",
      "User.username": "ann",
      "count(Comment)": 3,
      "latest(Comment, 1)": [{ commentId: "c2" }],
    });
    expect(unresolved.map((entry) => entry.kind)).toEqual(["aggregate", "aggregate"]);
  });
});
