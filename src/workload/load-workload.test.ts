import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { formatIssue, formatPath, type Issue, type Result } from "../common/issues.js";
import { loadWorkload } from "./load-workload.js";
import type { Workload } from "./types.js";
import { EXAMPLE_WORKLOAD_NAMES, EXAMPLES_DIR } from "../test-support/model-examples.js";

const here = dirname(fileURLToPath(import.meta.url));
const exampleNames = EXAMPLE_WORKLOAD_NAMES;
const readExample = (name: string): string => readFileSync(join(EXAMPLES_DIR, name, "workload.yaml"), "utf8");
const base = readFileSync(join(here, "__fixtures__", "base-workload.yaml"), "utf8");

/** The base workload with `from` (which must occur exactly once) replaced by `to`. */
function edit(from: string, to: string, text = base): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`"${from}" must occur exactly once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

function loaded(result: Result<Workload>): Workload {
  if (!result.ok)
    throw new Error(result.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join("\n"));
  return result.value;
}

const errors = (issues: readonly Issue[]) => issues.filter((issue) => issue.severity === "error");

describe("loadWorkload: the examples", () => {
  it.each(exampleNames)("%s loads without errors", (name) => {
    const result = loadWorkload(readExample(name), { file: `${name}/workload.yaml` });
    expect(errors(result.issues)).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it.each(exampleNames)("examples/%s (the copy for users) loads to the same workload", (name) => {
    const copy = readFileSync(join(here, "..", "..", "examples", name, "workload.yaml"), "utf8");
    expect(loaded(loadWorkload(copy))).toStrictEqual(loaded(loadWorkload(readExample(name))));
  });

  it("warns exactly where the examples are demanding: ingest of 120,000 and 55,200 writes/s", () => {
    const warnings = Object.fromEntries(
      exampleNames.map((name) => [name, loadWorkload(readExample(name)).issues.map((issue) => issue.code)]),
    );
    expect(warnings).toEqual({
      "accounts-sessions": [],
      blogging: [],
      ecommerce: [],
      "iot-telemetry": ["workload.massiveScale"],
      "multitenant-saas": [],
      "social-reactions": ["workload.massiveScale"],
      "support-assistant": [],
    });
    const iot = loadWorkload(readExample("iot-telemetry")).issues[0];
    // 120,000 (C1) + 20 (C2) + 100 (C3) + 50 (C4) item writes/s at peak, from the file.
    expect(iot?.message).toContain("120,170");
    expect(iot === undefined ? undefined : formatPath(iot.path)).toBe("accessPatterns[0].rps.peak");
  });

  it("blogging: counts, file order and every default applied", () => {
    const workload = loaded(loadWorkload(readExample("blogging")));
    expect(workload.entities.map((entity) => entity.name)).toEqual(["User", "Post", "Comment", "Like"]);
    expect(workload.relationships).toHaveLength(5);
    expect(workload.accessPatterns.map((pattern) => pattern.id)).toEqual([
      "C1", "Q1", "C2", "Q2", "Q3", "C3", "Q4", "C4", "Q5", "Q6",
    ]); // prettier-ignore
    expect(workload.scale).toEqual({
      regions: 1,
      multiRegionWrites: false,
      consistency: "session",
      horizonMonths: 12,
      targetUtilization: 0.8,
    });
    const user = workload.entities[0];
    expect(user).toEqual({
      name: "User",
      key: ["userId"],
      count: 100000,
      growthPerMonth: 0,
      avgBytes: 150,
      maxBytes: 600,
      attributes: [
        { name: "userId", type: "string", skew: 0, unique: false, changes: "never", presence: 1 },
        { name: "username", type: "string", skew: 0, unique: false, changes: "rare", presence: 1 },
      ],
    });
    expect(workload.entities[1]?.attributes[3]).toEqual({
      name: "content",
      type: "string",
      avgBytes: 2600,
      skew: 0,
      unique: false,
      changes: "never",
      presence: 1,
    });
    expect(workload.relationships[3]).toEqual({
      parent: "User",
      child: "Comment",
      kind: "one-to-many",
      via: ["userId"],
      avg: 343.75,
      owned: false,
    });
    const [c1, , c2, q2, q3] = workload.accessPatterns;
    expect(c1).toEqual({
      id: "C1",
      name: "Create or edit a user",
      type: "write",
      operation: "upsert",
      entity: "User",
      changes: ["username"],
      batch: 1,
      atomicWith: [],
      bufferedRecords: 1,
      rps: { avg: 2, peak: 10 },
      standalone: false,
    });
    expect(c2 && "changes" in c2).toBe(false);
    expect(q2).toMatchObject({
      type: "read",
      where: [{ attribute: "postId", op: "eq" }],
      orderBy: [],
      truncate: [],
      with: [
        { kind: "attribute", entity: "User", attribute: "username" },
        { kind: "count", entity: "Comment" },
        { kind: "count", entity: "Like" },
      ],
    });
    expect(q3).toMatchObject({
      select: ["postId", "userId", "title", "content", "creationDate"],
      truncate: [{ attribute: "content", bytes: 200 }],
      returns: { avg: 27.5 },
    });
    expect(workload.accessPatterns[9]).toMatchObject({
      orderBy: [{ attribute: "creationDate", direction: "desc" }],
      limit: 100,
    });
  });

  // Issue 32: a file saved with bare-CR line endings gave 45 syntax errors at line 1.
  it("loads a file with bare-CR line endings, its lines where an editor shows them", () => {
    const cr = base.replace(/\n/g, "\r");
    expect(loaded(loadWorkload(cr)).entities.map((entity) => entity.maxBytes)).toEqual([800, 4000]);
    const broken = loadWorkload(edit("count: 5000", "count: -3").replace(/\n/g, "\r"));
    const lf = loadWorkload(edit("count: 5000", "count: -3"));
    expect(broken.issues.map((issue) => [issue.code, issue.line])).toEqual(
      lf.issues.map((issue) => [issue.code, issue.line]),
    );
    expect(broken.issues.length).toBeGreaterThan(0);
  });

  it("maxBytes defaults to 4 x avgBytes, capped at the 2 MB item limit", () => {
    const workload = loaded(loadWorkload(base));
    expect(workload.entities.map((entity) => entity.maxBytes)).toEqual([800, 4000]);
    const big = loaded(loadWorkload(edit("avgBytes: 1000", "avgBytes: 1000000\n    maxBytes: 2000000")));
    expect(big.entities[1]?.maxBytes).toBe(2_000_000);
  });

  // Issue 32: the stored item is the record plus 299 bytes (id, type, system properties).
  it.each([
    [
      "avgBytes 524,288 without maxBytes (the default is then 2 MB)",
      "avgBytes: 524288",
      "avgBytes",
      2_097_451,
      /give maxBytes, the largest record, at most 2,096,853/,
    ],
    ["avgBytes 1,000,000 without maxBytes", "avgBytes: 1000000", "avgBytes", 2_097_451, /give maxBytes/],
    [
      "maxBytes 2,097,000",
      "avgBytes: 1000\n    maxBytes: 2097000",
      "maxBytes",
      2_097_299,
      /^lower maxBytes to at most 2,096,853/,
    ],
    [
      "maxBytes 2 MB exactly",
      "avgBytes: 1000\n    maxBytes: 2097152",
      "maxBytes",
      2_097_451,
      /^lower maxBytes/,
    ],
    [
      "avgBytes 2,096,900 with maxBytes equal",
      "avgBytes: 2096900\n    maxBytes: 2096900",
      "avgBytes",
      2_097_199,
      /^keep records under 2,096,853 bytes/,
    ],
  ])("refuses an item no model can hold: %s", (_, replacement, field, bytes, advice) => {
    const result = loadWorkload(edit("avgBytes: 1000", replacement));
    const tooLarge = result.issues.find((issue) => issue.code === "workload.itemTooLarge");
    expect(tooLarge).toMatchObject({
      path: ["entities", "Post", field],
      entity: "Post",
      bytes,
      line: expect.any(Number),
    });
    expect(tooLarge?.message).toContain("299 bytes");
    expect(tooLarge?.suggestion).toMatch(advice);
    expect(tooLarge?.suggestion).toContain("split large attributes");
    expect(tooLarge?.suggestion).not.toMatch(/embed/);
  });

  it("accepts the largest record an item holds: avgBytes 524,213 without maxBytes, maxBytes 2,096,853", () => {
    for (const replacement of ["avgBytes: 524213", "avgBytes: 1000\n    maxBytes: 2096853"]) {
      const result = loadWorkload(edit("avgBytes: 1000", replacement));
      expect(result.issues.filter((issue) => issue.code === "workload.itemTooLarge")).toEqual([]);
    }
  });

  it("reads every with form, where/orderBy in file order, region names and JSON input", () => {
    const text = edit(
      "    with: [User.username]\n",
      "    with: ['max(Post.likes)', count(Post), 'sum(Post.likes)', 'min(Post.likes)', 'latest(Post, 3)', all(Post)]\n",
      edit(
        "entity: Post\n    where: { userId: eq }",
        "entity: User\n    where: { username: prefix, status: in }",
      )
        .replace("orderBy: { creationDate: desc }", "orderBy: { status: asc, username: desc }")
        .replace(
          "version: 1\n",
          "version: 1\nscale: { regions: [westeurope, northeurope], consistency: eventual }\n",
        ),
    );
    const workload = loaded(loadWorkload(text));
    expect(workload.scale).toEqual({
      regions: 2,
      regionNames: ["westeurope", "northeurope"],
      multiRegionWrites: false,
      consistency: "eventual",
      horizonMonths: 12,
      targetUtilization: 0.8,
    });
    expect(workload.accessPatterns[3]).toMatchObject({
      where: [
        { attribute: "username", op: "prefix" },
        { attribute: "status", op: "in" },
      ],
      orderBy: [
        { attribute: "status", direction: "asc" },
        { attribute: "username", direction: "desc" },
      ],
      with: [
        { kind: "aggregate", fn: "max", entity: "Post", attribute: "likes" },
        { kind: "count", entity: "Post" },
        { kind: "aggregate", fn: "sum", entity: "Post", attribute: "likes" },
        { kind: "aggregate", fn: "min", entity: "Post", attribute: "likes" },
        { kind: "latest", entity: "Post", n: 3 },
        { kind: "all", entity: "Post" },
      ],
    });
    const asJson = loaded(loadWorkload(JSON.stringify(parse(readExample("ecommerce")))));
    expect(asJson).toEqual(loaded(loadWorkload(readExample("ecommerce"))));
  });
});

/** [what is wrong, the file, expected code, expected path, expected line (optional)]. */
const malformed: readonly (readonly [string, string, string, string, number?])[] = [
  ["negative count", edit("count: 5000", "count: -3"), "workload.invalidValue", "entities.Post.count", 15],
  ["missing key", edit("    key: userId\n", ""), "workload.missingField", "entities.User.key", 6],
  ["misspelled entity field", edit("count: 1000", "cout: 1000"), "workload.unknownField", "entities.User.cout", 7],
  ["unknown attribute type", edit("title: string", "title: strng"), "workload.invalidValue", "entities.Post.attributes.title", 20],
  ["unknown attribute field", edit("distinct: 3", "distinc: 3"), "workload.unknownField", "entities.User.attributes.status.distinc"],
  ["invalid change frequency", edit("changes: rare", "changes: sometimes"), "workload.invalidValue", "entities.User.attributes.username.changes"],
  ["fractional distinct", edit("distinct: 3", "distinct: 2.5"), "workload.invalidValue", "entities.User.attributes.status.distinct"],
  ["negative skew", edit("distinct: 3", "distinct: 3, skew: -1"), "workload.invalidValue", "entities.User.attributes.status.skew"],
  ["key not among the attributes", edit("key: userId", "key: userid"), "workload.unknownAttribute", "entities.User.key", 6],
  ["maxBytes over 2 MB", edit("avgBytes: 1000", "avgBytes: 1000\n    maxBytes: 3000000"), "workload.itemTooLarge", "entities.Post.maxBytes", 17],
  ["avgBytes over 2 MB", edit("avgBytes: 1000", "avgBytes: 5000000"), "workload.itemTooLarge", "entities.Post.avgBytes"],
  ["an attribute over 2 MB", edit("title: string", "title: { type: string, avgBytes: 400000000 }"), "workload.itemTooLarge", "entities.Post.attributes.title.avgBytes", 20],
  ["maxBytes below avgBytes", edit("avgBytes: 1000", "avgBytes: 1000\n    maxBytes: 500"), "workload.invalidValue", "entities.Post.maxBytes"],
  ["fractional ttl", edit("avgBytes: 200", "avgBytes: 200\n    ttlSeconds: 1.5"), "workload.invalidValue", "entities.User.ttlSeconds"],
  ["entity name with a space", edit("  Post:\n", '  "Blog Post":\n'), "workload.invalidName", "entities.Blog Post"],
  ["attribute name with a dot", edit("title: string", "post.title: string"), "workload.invalidName", "entities.Post.attributes.post.title"],
  ["an id attribute that is not the key", edit("title: string", "id: string"), "workload.invalidName", "entities.Post.attributes.id", 20],
  ["no entities", edit(base.slice(base.indexOf("entities:"), base.indexOf("relationships:")), "entities: {}\n"), "workload.missingField", "entities"],
  ["relationship via not on the child", edit("via: userId", "via: authorId"), "workload.unknownAttribute", "relationships[0].via", 24],
  ["relationship to an unknown parent", edit("parent: User", "parent: Usr"), "workload.unknownEntity", "relationships[0].parent"],
  ["relationship without via", edit("via: userId, ", ""), "workload.missingField", "relationships[0].via"],
  ["relationship max below avg", edit("max: 50", "max: 2"), "workload.invalidValue", "relationships[0].max"],
  ["relationship with zero avg", edit("avg: 5,", "avg: 0,"), "workload.invalidValue", "relationships[0].avg"],
  ["one-to-one with 5 children", edit("avg: 5,", "kind: one-to-one, avg: 5,"), "workload.invalidValue", "relationships[0].avg"],
  ["unknown relationship kind", edit("avg: 5,", "kind: one-to-few, avg: 5,"), "workload.invalidValue", "relationships[0].kind"],
  ["pattern on an unknown entity", edit("entity: Post\n    rps: { avg: 2", "entity: Pst\n    rps: { avg: 2"), "workload.unknownEntity", "accessPatterns[1].entity", 36],
  ["where on an unknown attribute", edit("entity: Post\n    where: { userId: eq }", "entity: Post\n    where: { userid: eq }"), "workload.unknownAttribute", "accessPatterns[3].where.userid", 49],
  ["unknown where operator", edit("where: { userId: eq }\n    with", "where: { userId: equals }\n    with"), "workload.invalidValue", "accessPatterns[2].where.userId", 42],
  ["orderBy on an unknown attribute", edit("creationDate: desc", "createdAt: desc"), "workload.unknownAttribute", "accessPatterns[3].orderBy.createdAt"],
  ["unknown sort direction", edit("creationDate: desc", "creationDate: down"), "workload.invalidValue", "accessPatterns[3].orderBy.creationDate"],
  ["select of an unknown attribute", edit("limit: 10", "limit: 10\n    select: [postId, titel]"), "workload.unknownAttribute", "accessPatterns[3].select[1]"],
  ["empty select", edit("limit: 10", "limit: 10\n    select: []"), "workload.invalidValue", "accessPatterns[3].select"],
  ["truncate of an unknown attribute", edit("limit: 10", "limit: 10\n    truncate: { body: 200 }"), "workload.unknownAttribute", "accessPatterns[3].truncate.body"],
  ["changes of an unknown attribute", edit("operation: create\n    entity: User", "operation: patch\n    entity: User\n    changes: [nickname]"), "workload.unknownAttribute", "accessPatterns[0].changes[0]"],
  ["zero limit", edit("limit: 10", "limit: 0"), "workload.invalidValue", "accessPatterns[3].limit", 51],
  ["fractional limit", edit("limit: 10", "limit: 2.5"), "workload.invalidValue", "accessPatterns[3].limit"],
  ["returns more than the limit", edit("limit: 10", "limit: 10\n    returns: { avg: 20 }"), "workload.invalidValue", "accessPatterns[3].returns.avg"],
  ["peak below average", edit("rps: { avg: 1, peak: 5 }", "rps: { avg: 10, peak: 5 }"), "workload.peakBelowAverage", "accessPatterns[0].rps.peak", 31],
  ["negative average rate", edit("rps: { avg: 1, peak: 5 }", "rps: { avg: -1, peak: 5 }"), "workload.invalidValue", "accessPatterns[0].rps.avg"],
  ["missing peak", edit("rps: { avg: 1, peak: 5 }", "rps: { avg: 1 }"), "workload.missingField", "accessPatterns[0].rps.peak"],
  ["duplicate id", edit("id: C2", "id: C1"), "workload.duplicateId", "accessPatterns[1].id", 32],
  ["write without operation", edit("    operation: create\n    entity: User\n", "    entity: User\n"), "workload.missingField", "accessPatterns[0].operation"],
  ["where on a write", edit("entity: User\n    rps: { avg: 1", "entity: User\n    where: { userId: eq }\n    rps: { avg: 1"), "workload.fieldNotAllowed", "accessPatterns[0].where"],
  ["operation on a read", edit("type: read\n    entity: User", "type: read\n    operation: create\n    entity: User"), "workload.fieldNotAllowed", "accessPatterns[2].operation"],
  ["unknown pattern type", edit("type: read\n    entity: User", "type: query\n    entity: User"), "workload.invalidValue", "accessPatterns[2].type"],
  ["zero batch", edit("entity: Post\n    rps: { avg: 2", "entity: Post\n    batch: 0\n    rps: { avg: 2"), "workload.invalidValue", "accessPatterns[1].batch"],
  ["unreadable with entry", edit("with: [count(Post)]", "with: [count of posts]"), "workload.badWith", "accessPatterns[2].with[0]", 43],
  ["with entry listed twice", edit("with: [User.username]", "with: [User.username, count(User), User.username]"), "workload.duplicateEntry", "accessPatterns[3].with[2]"],
  ["select entry listed twice", edit("limit: 10", "limit: 10\n    select: [postId, title, postId]"), "workload.duplicateEntry", "accessPatterns[3].select[2]"],
  ["latest cut at its comma by a flow list", edit("with: [count(Post)]", "with: [latest(Post, 3)]"), "workload.badWith", "accessPatterns[2].with[0]"],
  ["latest of zero items", edit("with: [count(Post)]", "with: ['latest(Post, 0)']"), "workload.badWith", "accessPatterns[2].with[0]"],
  ["latest of children without a datetime attribute", edit("      creationDate: datetime\n", "      creationDate: string\n", edit("with: [count(Post)]", "with: ['latest(Post, 3)']")), "workload.latestWithoutTime", "accessPatterns[2].with[0]", 43],
  ["count of a parent", edit("with: [User.username]", "with: [count(User)]"), "workload.badWith", "accessPatterns[3].with[0]"],
  ["with of an unknown entity", edit("with: [count(Post)]", "with: [count(Comment)]"), "workload.unknownEntity", "accessPatterns[2].with[0]"],
  ["with of an unknown attribute", edit("with: [User.username]", "with: [User.nickname]"), "workload.unknownAttribute", "accessPatterns[3].with[0]"],
  ["sum of a string", edit("with: [count(Post)]", "with: ['sum(Post.title)']"), "workload.badWith", "accessPatterns[2].with[0]"],
  ["with across no relationship", edit("    with: [count(Post)]\n", "    with: [User.status]\n"), "workload.badWith", "accessPatterns[2].with[0]"],
  ["attribute of a child (which of many?)", edit("with: [count(Post)]", "with: [Post.title]"), "workload.badWith", "accessPatterns[2].with[0]"],
  ["version 2", edit("version: 1", "version: 2"), "workload.invalidValue", "version", 2],
  ["missing name", edit("name: Blog\n", ""), "workload.missingField", "name"],
  ["misspelled top-level field", edit("relationships:", "relationship:"), "workload.unknownField", "relationship", 23],
  ["empty access pattern list", base.slice(0, base.indexOf("accessPatterns:")) + "accessPatterns: []\n", "workload.invalidValue", "accessPatterns"],
  ["missing access patterns", base.slice(0, base.indexOf("accessPatterns:")), "workload.missingField", "accessPatterns"],
  ["unknown consistency", edit("version: 1", "version: 1\nscale: { consistency: stronk }"), "workload.invalidValue", "scale.consistency"],
  ["zero regions", edit("version: 1", "version: 1\nscale: { regions: 0 }"), "workload.invalidValue", "scale.regions"],
  ["strong with multi-region writes", edit("version: 1", "version: 1\nscale: { consistency: strong, multiRegionWrites: true, regions: 2 }"), "workload.invalidValue", "scale.consistency"],
  ["a list instead of a mapping", "- version: 1\n", "workload.invalidValue", ""],
  ["an empty document", "", "workload.invalidValue", ""],
  ["YAML syntax error", edit("rps: { avg: 10, peak: 50 }\n  - id: Q2", "rps: { avg: 10, peak: 50\n  - id: Q2"), "source.syntax", ""],
  ["duplicate YAML key", edit("count: 1000", "count: 1000\n    count: 2000"), "source.syntax", "", 8],
]; // prettier-ignore

describe("loadWorkload: malformed files", () => {
  it("the base of the malformed cases is valid and has no warnings", () => {
    expect(loadWorkload(base).issues).toEqual([]);
    expect(malformed.length).toBeGreaterThanOrEqual(25);
  });

  const cases = malformed.map(([what, text, code, path, line]) => ({ what, text, code, path, line }));
  it.each(cases)("$what", ({ text, code, path, line }) => {
    const result = loadWorkload(text, { file: "workload.yaml" });
    expect(result.ok).toBe(false);
    const match = result.issues.find((issue) => issue.code === code && formatPath(issue.path) === path);
    expect(match, JSON.stringify(result.issues, null, 2)).toBeDefined();
    expect(match?.severity).toBe("error");
    expect(match?.file).toBe("workload.yaml");
    if (line !== undefined) expect(match?.line).toBe(line);
  });

  it("latest(X, N) needs a time in X: the message names the entity and what to add", () => {
    const text = edit(
      "      creationDate: datetime\n",
      "      creationDate: string\n",
      edit("with: [count(Post)]", "with: ['latest(Post, 3)', count(Post)]"),
    );
    const result = loadWorkload(text, { file: "workload.yaml" });
    expect(result.ok).toBe(false);
    const issue = result.issues.find((i) => i.code === "workload.latestWithoutTime");
    expect(issue).toMatchObject({ pattern: "Q1", entity: "Post", severity: "error" });
    expect(issue?.message).toBe(
      "latest(Post, 3) needs a time to tell the newest Post records, but Post has no datetime attribute",
    );
    expect(issue?.suggestion).toContain("add a datetime attribute to Post, e.g. createdAt: datetime");
    // With a datetime attribute (the base), the same entry loads.
    expect(loadWorkload(edit("with: [count(Post)]", "with: ['latest(Post, 3)', count(Post)]")).ok).toBe(true);
  });

  it("says what is wrong and what would be valid", () => {
    const issue = (text: string) => loadWorkload(text).issues.find((i) => i.code !== "workload.missingField");
    expect(issue(edit("count: 5000", "count: -3"))?.message).toBe("expected a positive number, got -3");
    expect(issue(edit("count: 1000", "cout: 1000"))?.suggestion).toBe('did you mean "count"?');
    expect(issue(edit("title: string", "title: strng"))?.suggestion).toBe('did you mean "string"?');
    const where = issue(
      edit("entity: Post\n    where: { userId: eq }", "entity: Post\n    where: { userid: eq }"),
    );
    expect(where?.message).toBe("entity Post has no such attribute");
    expect(where?.suggestion).toBe('did you mean "userId"?');
    expect(issue(edit("entity: Post\n    rps: { avg: 2", "entity: Pst\n    rps: { avg: 2"))?.suggestion).toBe(
      'did you mean "Post"?',
    );
    const tooLarge = issue(edit("avgBytes: 1000", "avgBytes: 1000\n    maxBytes: 3000000"));
    expect(tooLarge?.message).toContain("2,097,152 bytes");
    expect(tooLarge?.suggestion).toMatch(/^lower maxBytes to at most 2,096,853; or split large attributes/);
  });

  it("reports every problem at once: structure and references of different pieces together", () => {
    const text = edit(
      "count: 5000",
      "count: -3",
      edit("via: userId", "via: authorId", edit("with: [User.username]", "with: [User.nickname]")),
    ).replace("rps: { avg: 1, peak: 5 }", "rps: { avg: 10, peak: 5 }");
    const result = loadWorkload(text, { file: "blog.yaml" });
    expect(result.issues.map(formatIssue)).toEqual([
      "error workload.invalidValue blog.yaml:15 entities.Post.count: expected a positive number, got -3",
      'error workload.unknownAttribute blog.yaml:24 relationships[0].via: entity Post has no attribute "authorId" (valid: "postId", "userId", "title", "likes", "creationDate")',
      "error workload.peakBelowAverage blog.yaml:31 accessPatterns[0].rps.peak: expected a peak at least as high as the average (10 requests/s), got 5",
      'error workload.unknownAttribute blog.yaml:52 accessPatterns[3].with[0]: entity User has no attribute "nickname" (valid: "userId", "username", "status")',
    ]);
  });

  it("refuses an alias bomb and a document over 10 MB with a clear issue", () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      ...Array.from({ length: 8 }, (_, i) => {
        const name = String.fromCharCode(98 + i);
        const previous = String.fromCharCode(97 + i);
        return `${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(", ")}]`;
      }),
    ].join("\n");
    const bombed = loadWorkload(bomb, { file: "bomb.yaml" });
    expect(bombed.ok).toBe(false);
    expect(bombed.issues[0]?.code).toBe("source.aliasBomb");
    expect(bombed.issues[0]?.file).toBe("bomb.yaml");
    const huge = loadWorkload(`${base}\n# ${"x".repeat(10 * 1024 * 1024)}`);
    expect(huge.ok).toBe(false);
    expect(huge.issues[0]?.code).toBe("source.tooLarge");
    expect(huge.issues[0]?.message).toContain("10 MB");
  });
});

describe("loadWorkload: warnings", () => {
  const warningsOf = (text: string) => {
    const result = loadWorkload(text);
    expect(errors(result.issues)).toEqual([]);
    return result.issues.map((issue) => [issue.code, formatPath(issue.path)]);
  };

  it("a read of an entity that no write creates, unless standalone", () => {
    const text = edit("operation: create\n    entity: Post", "operation: patch\n    entity: Post");
    // Q1 reads count(Post) through `with`: nothing creates posts either (as the checklist says).
    expect(warningsOf(text)).toEqual([
      ["workload.readWithoutCreate", "accessPatterns[2].with"],
      ["workload.readWithoutCreate", "accessPatterns[3].entity"],
    ]);
    expect(warningsOf(edit("limit: 10", "limit: 10\n    standalone: true", text))).toEqual([
      ["workload.readWithoutCreate", "accessPatterns[2].with"],
    ]);
  });

  it("a write of an entity that nothing reads; reads through `with` count", () => {
    const text = edit("    where: { userId: eq }\n    with: [count(Post)]\n", "    where: { userId: eq }\n");
    // Post is still read by Q2; User is still read by Q1 and through Q2's `with`.
    expect(warningsOf(text)).toEqual([]);
    const unread = edit(
      "entity: Post\n    where: { userId: eq }",
      "entity: User\n    where: { userId: eq }",
      text,
    )
      .replace("orderBy: { creationDate: desc }", "orderBy: { username: desc }")
      .replace("with: [User.username]", "with: []");
    expect(warningsOf(unread)).toEqual([["workload.writeWithoutRead", "accessPatterns[1].entity"]]);
  });

  it("more than 10,000 item writes/s at peak, counting batch items", () => {
    expect(warningsOf(edit("rps: { avg: 2, peak: 10 }", "rps: { avg: 2, peak: 10000 }"))).toEqual([
      ["workload.massiveScale", "accessPatterns[1].rps.peak"],
    ]);
    // 10,000 requests/s of the file's rates: 5 + 10 x 999 = 9,995 items/s stays below; x 1,001 goes above.
    const post = "entity: Post\n    rps: { avg: 2";
    expect(warningsOf(edit(post, "entity: Post\n    batch: 999\n    rps: { avg: 2"))).toEqual([]);
    expect(warningsOf(edit(post, "entity: Post\n    batch: 1001\n    rps: { avg: 2"))).toEqual([
      ["workload.massiveScale", "accessPatterns[1].rps.peak"],
    ]);
  });

  it("a batch ingest of millions of items", () => {
    const text = edit("rps: { avg: 2, peak: 10 }", "batch: 2000000\n    rps: { avg: 0.001, peak: 0.001 }");
    const result = loadWorkload(text);
    expect(result.issues.map((issue) => [issue.code, formatPath(issue.path)])).toEqual([
      ["workload.massiveScale", "accessPatterns[1].batch"],
    ]);
    expect(result.issues[0]?.message).toMatch(/binned/);
    expect(result.issues[0]?.message).toMatch(/fan-out/);
  });

  it("a lone filter on an attribute with fewer than 100 distinct values", () => {
    const lone = edit("where: { userId: eq }\n    with", "where: { status: eq }\n    with");
    expect(warningsOf(lone)).toEqual([["workload.lowCardinalityFilter", "accessPatterns[2].where.status"]]);
    // 1,000 users / 3 statuses, from the base file.
    expect(loadWorkload(lone).issues[0]?.message).toContain("333.33 of 1,000");
    expect(
      warningsOf(edit("where: { userId: eq }\n    with", "where: { status: eq, userId: eq }\n    with")),
    ).toEqual([]);
    expect(warningsOf(lone.replace("distinct: 3", "distinct: 100"))).toEqual([]);
  });
});

describe("loadWorkload never throws", () => {
  const check = (text: string): void => {
    const result = loadWorkload(text, { file: "f.yaml" });
    if (result.ok) {
      expect(errors(result.issues)).toEqual([]);
    } else {
      expect(errors(result.issues).length).toBeGreaterThan(0);
    }
    for (const issue of result.issues) {
      expect(issue.code).toMatch(/^(workload|source)\.[a-zA-Z]+$/);
      expect(issue.path.every((segment) => typeof segment === "string" || typeof segment === "number")).toBe(
        true,
      );
      expect(issue.message.length).toBeGreaterThan(0);
    }
  };

  it("on arbitrary text", () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), check), { numRuns: 300 });
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(..."key: [1, {a}]\n -&*!|>'\"#%@`,? \t"), { maxLength: 80 }),
        (chars) => check(chars.join("")),
      ),
      { numRuns: 300 },
    );
  });

  it("on arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => check(JSON.stringify(value) ?? "null")),
      { numRuns: 300 },
    );
  });

  it("on mutations of a valid workload", () => {
    const valid = parse(readExample("blogging")) as unknown;
    const paths = allPaths(valid);
    const mutation = fc.record({
      path: fc.constantFrom(...paths),
      action: fc.constantFrom("replace", "delete", "rename"),
      value: fc.jsonValue({ maxDepth: 2 }),
      name: fc.string({ minLength: 1, maxLength: 12 }),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        const copy = structuredClone(valid);
        for (const step of mutations) mutate(copy, step);
        check(JSON.stringify(copy));
      }),
      { numRuns: 400 },
    );
  });
});

type Path = readonly (string | number)[];

function allPaths(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== "object" || value === null) return [prefix];
  const entries = Array.isArray(value)
    ? value.map((item, index) => [index, item] as const)
    : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, item]) => allPaths(item, [...prefix, key]))];
}

function mutate(root: unknown, step: { path: Path; action: string; value: unknown; name: string }): void {
  const parentPath = step.path.slice(0, -1);
  const key = step.path.at(-1);
  let parent = root;
  for (const segment of parentPath) {
    if (typeof parent !== "object" || parent === null) return;
    parent = (parent as Record<string | number, unknown>)[segment];
  }
  if (key === undefined || typeof parent !== "object" || parent === null) return;
  const container = parent as Record<string | number, unknown>;
  if (step.action === "replace") container[key] = step.value;
  else if (step.action === "delete") {
    if (Array.isArray(container) && typeof key === "number") container.splice(key, 1);
    else Reflect.deleteProperty(container, key);
  } else if (!Array.isArray(container)) {
    container[step.name] = container[key];
    Reflect.deleteProperty(container, key);
  }
}

describe("loadWorkload: lines", () => {
  it("an unknown field with a block value is reported on the line of its name", () => {
    const text = edit("    attributes:\n      postId: string", "    atributes:\n      postId: string");
    const issue = loadWorkload(text).issues.find((i) => i.code === "workload.unknownField");
    expect(issue === undefined ? undefined : formatPath(issue.path)).toBe("entities.Post.atributes");
    expect(issue?.line).toBe(text.split("\n").indexOf("    atributes:") + 1);
    expect(issue?.suggestion).toBe('did you mean "attributes"?');
  });
});

describe("loadWorkload: scale.trafficProfile (autoscale billing by the hour)", () => {
  const withProfile = (profile: string): Result<Workload> =>
    loadWorkload(edit("name: Blog\n", `name: Blog\nscale:\n  trafficProfile: ${profile}\n`));
  const hourly = (shares: readonly number[]): string => `{ hourly: [${shares.join(", ")}] }`;

  it("reads 24 hourly shares of the peak, or peak hours per day, and writes them back", () => {
    const shares = Array.from({ length: 24 }, (_, hour) => (hour === 12 ? 1 : 0.5));
    expect(loaded(withProfile(hourly(shares))).scale.trafficProfile).toEqual({ kind: "hourly", shares });
    expect(loaded(withProfile("{ peakHoursPerDay: 3.5 }")).scale.trafficProfile).toEqual({
      kind: "peakHours",
      peakHoursPerDay: 3.5,
    });
    expect(loaded(loadWorkload(base)).scale.trafficProfile).toBeUndefined();
  });

  it.each([
    [
      "both forms",
      `{ peakHoursPerDay: 2, hourly: [${Array(24).fill(1).join(", ")}] }`,
      "scale.trafficProfile",
    ],
    ["neither form", "{}", "scale.trafficProfile"],
    ["23 hours", hourly(Array(23).fill(1)), "scale.trafficProfile.hourly"],
    ["a share over 1", hourly([...Array(23).fill(1), 1.5]), "scale.trafficProfile.hourly[23]"],
    ["no hour at the peak", hourly(Array(24).fill(0.9)), "scale.trafficProfile.hourly"],
    ["25 peak hours", "{ peakHoursPerDay: 25 }", "scale.trafficProfile.peakHoursPerDay"],
  ])("refuses %s with the field's path", (_name, profile, path) => {
    const result = withProfile(profile);
    expect(result.ok).toBe(false);
    expect(errors(result.issues).map((issue) => formatIssue(issue))).toEqual([expect.stringContaining(path)]);
  });

  it("warns when the hours average less of the peak than the average rates do", () => {
    const result = withProfile(hourly([1, ...Array(23).fill(0)]));
    expect(result.ok).toBe(true);
    expect(result.issues.map((issue) => issue.code)).toContain("workload.inconsistentTrafficProfile");
  });
});

describe("loadWorkload: presence, binning, per-pattern skew, staleness, atomicWith, bufferedRecords", () => {
  const c2 = "    operation: create\n    entity: Post\n    rps: { avg: 2, peak: 10 }";
  it("reads every field with its default, and serializes it back", () => {
    const text = edit(
      c2,
      `${c2}\n    skew: 0\n    atomicWith: [C1]\n    bufferedRecords: 60`,
      edit(
        "      title: string",
        "      title: { type: string, presence: 0.15 }",
        edit("    avgBytes: 1000", "    avgBytes: 1000\n    binning: { windowSeconds: 3600 }"),
      ),
    ).replace("    limit: 10\n", "    limit: 10\n    maxStalenessSeconds: 0\n");
    const workload = loaded(loadWorkload(text));
    const post = workload.entities.find((e) => e.name === "Post");
    expect(post?.binning).toEqual({ kind: "window", seconds: 3600 });
    expect(post?.attributes.find((a) => a.name === "title")?.presence).toBe(0.15);
    expect(post?.attributes.find((a) => a.name === "postId")?.presence).toBe(1);
    const write = workload.accessPatterns.find((p) => p.id === "C2");
    expect(write).toMatchObject({ skew: 0, atomicWith: ["C1"], bufferedRecords: 60 });
    expect(workload.accessPatterns.find((p) => p.id === "Q2")).toMatchObject({ maxStalenessSeconds: 0 });
    expect(workload.accessPatterns.find((p) => p.id === "C1")).toMatchObject({
      atomicWith: [],
      bufferedRecords: 1,
    });
    expect(workload.accessPatterns.find((p) => p.id === "C1")).not.toHaveProperty("skew");
    expect(
      loaded(loadWorkload(edit("    avgBytes: 1000", "    avgBytes: 1000\n    binning: false"))).entities[1]
        ?.binning,
    ).toEqual({ kind: "never" });
  });

  it.each([
    [
      "presence 0",
      edit("      title: string", "      title: { type: string, presence: 0 }"),
      "entities.Post.attributes.title.presence",
    ],
    [
      "presence over 1",
      edit("      title: string", "      title: { type: string, presence: 1.5 }"),
      "entities.Post.attributes.title.presence",
    ],
    [
      "presence below 1 on the key",
      edit("      postId: string", "      postId: { type: string, presence: 0.5 }"),
      "entities.Post.attributes.postId.presence",
    ],
    [
      "presence below 1 on an owned child's via",
      edit(
        "      userId: string\n      title",
        "      userId: { type: string, presence: 0.5 }\n      title",
      ).replace("max: 50 }", "max: 50, owned: true }"),
      "entities.Post.attributes.userId.presence",
    ],
    [
      "binning with both forms",
      edit(
        "    avgBytes: 1000",
        "    avgBytes: 1000\n    binning: { windowSeconds: 60, recordsPerItem: 10 }",
      ),
      "entities.Post.binning",
    ],
    [
      "binning: true",
      edit("    avgBytes: 1000", "    avgBytes: 1000\n    binning: true"),
      "entities.Post.binning",
    ],
    ["atomicWith an unknown id", edit(c2, `${c2}\n    atomicWith: [C9]`), "accessPatterns[1].atomicWith[0]"],
    ["atomicWith itself", edit(c2, `${c2}\n    atomicWith: [C2]`), "accessPatterns[1].atomicWith[0]"],
    ["atomicWith a read", edit(c2, `${c2}\n    atomicWith: [Q1]`), "accessPatterns[1].atomicWith[0]"],
    [
      "atomicWith on a read",
      base.replace("    with: [count(Post)]\n", "    with: [count(Post)]\n    atomicWith: [C1]\n"),
      "accessPatterns[2].atomicWith",
    ],
    [
      "bufferedRecords on a delete",
      edit(c2, c2.replace("create", "delete") + "\n    bufferedRecords: 5"),
      "accessPatterns[1].bufferedRecords",
    ],
    [
      "maxStalenessSeconds on a write",
      edit(c2, `${c2}\n    maxStalenessSeconds: 5`),
      "accessPatterns[1].maxStalenessSeconds",
    ],
    ["a negative pattern skew", edit(c2, `${c2}\n    skew: -1`), "accessPatterns[1].skew"],
    [
      "a negative maxStalenessSeconds",
      base.replace("    with: [count(Post)]\n", "    with: [count(Post)]\n    maxStalenessSeconds: -5\n"),
      "accessPatterns[2].maxStalenessSeconds",
    ],
    [
      "a maxStalenessSeconds over 10 years (the integrated cache's largest staleness)",
      base.replace(
        "    with: [count(Post)]\n",
        "    with: [count(Post)]\n    maxStalenessSeconds: 400000000\n",
      ),
      "accessPatterns[2].maxStalenessSeconds",
    ],
  ])("refuses %s at its path", (_what, text, path) => {
    const result = loadWorkload(text);
    expect(result.ok).toBe(false);
    expect(errors(result.issues).map((issue) => formatPath(issue.path))).toContain(path);
  });

  it("suggests the id an unknown atomicWith entry was meant to be", () => {
    const result = loadWorkload(edit(c2, `${c2}\n    atomicWith: [c1]`));
    const issue = result.issues.find((i) => i.code === "workload.unknownPattern");
    expect(issue?.suggestion).toBe('did you mean "C1"?');
  });
});

describe("loadWorkload: an attribute across a many-to-many relationship in a read that must be fresh", () => {
  const workload = (staleness: string) =>
    [
      "version: 1",
      "name: tags",
      "entities:",
      "  Product: { key: productId, count: 100, avgBytes: 500, attributes: { productId: string } }",
      "  Tag: { key: tagId, count: 10, avgBytes: 100, attributes: { tagId: string, name: string } }",
      "relationships:",
      "  - { parent: Product, child: Tag, kind: many-to-many, avg: 3, max: 10 }",
      "accessPatterns:",
      `  - { id: Q1, name: product, type: read, entity: Product, where: { productId: eq }, with: [Tag.name], rps: { avg: 1, peak: 2 }${staleness} }`,
    ].join("\n");

  it("is refused with maxStalenessSeconds: 0 (only a copy the change feed keeps answers it)", () => {
    const result = loadWorkload(workload(", maxStalenessSeconds: 0"));
    expect(result.ok).toBe(false);
    const issue = result.issues.find((i) => i.severity === "error");
    expect(issue).toMatchObject({ code: "workload.badWith", path: ["accessPatterns", 0, "with", 0] });
    expect(issue?.suggestion).toMatch(/maxStalenessSeconds above 0/);
  });

  it("is accepted with a delay allowed", () => {
    expect(loadWorkload(workload(", maxStalenessSeconds: 5")).ok).toBe(true);
    expect(loadWorkload(workload("")).ok).toBe(true);
  });
});

describe("a document with a syntax error (issue 29: every problem in one pass)", () => {
  const example = readFileSync(new URL("../../examples/blogging/workload.yaml", import.meta.url), "utf8");

  it("reports the field errors above the syntax error with it, and nothing from below it", () => {
    const text = example
      .replace("    count: 100000\n", "    count: -3\n")
      .replace("      title: string\n", "      title: [string\n")
      .replace("  - id: Q1\n", "  - id: Q1\n    rps: { avg: 9, peak: 1 }\n");
    const loaded = loadWorkload(text, { file: "w.yaml" });
    expect(loaded.ok).toBe(false);
    const found = loaded.issues.map((i) => `${i.code} ${i.line ?? ""}`);
    expect(found[0]).toMatch(/^source\.syntax \d+$/);
    expect(found).toContain("workload.invalidValue 30");
    // the broken line itself and everything after the error wait for the document to parse
    expect(found.filter((f) => !f.startsWith("source.syntax"))).toEqual(["workload.invalidValue 30"]);
  });

  it("reports the field errors of entries below the error, and references to names defined nowhere", () => {
    const lastPost = example.lastIndexOf("entity: Post");
    const text = `${example.slice(0, lastPost)}entity: Pots${example.slice(lastPost + "entity: Post".length)}`
      .replace("      title: string\n", "      title: string: text\n")
      .replace("rps: { avg: 5, peak: 20 }", "rps: { avg: 50, peak: 20 }");
    const loaded = loadWorkload(text, { file: "w.yaml" });
    const found = loaded.issues.map((i) => i.code);
    expect(found[0]).toBe("source.syntax");
    // Below the broken entity: a pattern's rates, and an entity named nowhere in the file.
    expect(found).toContain("workload.peakBelowAverage");
    expect(loaded.issues.find((i) => i.code === "workload.unknownEntity")?.message).toContain('"Pots"');
    // A reference to a name the file defines somewhere is not reported: the error may hide it.
    const hidden = text.replace("entity: Pots", "entity: Post");
    expect(loadWorkload(hidden).issues.map((i) => i.code)).not.toContain("workload.unknownEntity");
  });
});
