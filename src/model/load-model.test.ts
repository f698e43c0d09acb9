import { describe, expect, it } from "vitest";
import { loadModel } from "./load-model.js";
import { validateModelAgainstWorkload } from "./validate-model.js";
import {
  readExample,
  readExampleWorkload,
  readWriteFixture,
  EXAMPLE_MODELS,
} from "../test-support/model-examples.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Model } from "./types.js";
import { formatIssue, formatPath } from "../common/issues.js";

function load(text: string, example?: string) {
  return loadModel(text, {
    file: "model.yaml",
    ...(example === undefined ? {} : { workload: readExampleWorkload(example) }),
  });
}

function loaded(text: string, example?: string): Model {
  const result = load(text, example);
  if (!result.ok) throw new Error(JSON.stringify(result.issues, null, 2));
  return result.value;
}

function errors(text: string, example?: string) {
  const result = load(text, example);
  return result.issues.filter((issue) => issue.severity === "error");
}

/** A minimal valid model around one item type (YAML lines indented for `items:`). */
/** The workload of test/fixtures/writes/latest (orders with a datetime placedAt). */
function readWriteFixtureWorkload() {
  const result = loadWorkload(readWriteFixture("latest").workload);
  if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
  return result.value;
}

function withItem(item: string, container = "    partitionKey: [/postId]"): string {
  return `version: 1\ncontainers:\n  - name: posts\n${container}\n    items:\n${item}\n`;
}

describe("loadModel on the example models", () => {
  it.each(EXAMPLE_MODELS)("%s: %s loads with no error against its workload", (example, path) => {
    const result = load(readExample(path), example);
    expect(result.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("normalizes blogging v3 as the spec describes", () => {
    const model = loaded(readExample("blogging/model-v3.yaml"), "blogging");
    expect(model.containers.map((container) => container.name)).toEqual(["users", "posts", "feed"]);
    const [users, posts, feed] = model.containers;
    expect(users?.indexing).toEqual({ kind: "automatic" });
    expect(posts?.physicalPartitions).toBe(70);
    expect(users?.items[1]).toEqual({
      type: "post",
      entity: "Post",
      id: "{postId}",
      partitionKey: ["{userId}"],
      truncate: [{ attribute: "content", bytes: 200 }],
      embeds: [],
      copies: [],
      counts: [],
      source: { container: "posts", type: "post" },
    });
    expect(posts?.items[0]?.copies).toEqual([
      { from: { entity: "User", attribute: "username" }, as: "userUsername" },
    ]);
    expect(posts?.items[0]?.counts).toEqual([
      { of: "Comment", as: "commentCount" },
      { of: "Like", as: "likeCount" },
    ]);
    expect(feed?.items[0]?.keepLatest).toEqual({ count: 100, by: "creationDate" });
    expect(feed?.uniqueKeys).toEqual([]);
  });

  it("normalizes custom indexing, composite orders, buckets, shards and ttl", () => {
    const iot = loaded(readExample("iot-telemetry/expert-model.yaml"), "iot-telemetry");
    expect(iot.containers[0]?.indexing).toEqual({
      kind: "custom",
      included: ["/deviceId/?", "/timestamp/?"],
      excluded: ["/*"],
      composite: [
        [
          { path: "/deviceId", order: "ascending" },
          { path: "/timestamp", order: "descending" },
        ],
      ],
    });
    expect(iot.containers[0]?.defaultTtl).toBe(2592000);
    expect(iot.containers[0]?.items[0]?.bucket).toEqual({
      kind: "window",
      by: "timestamp",
      windowSeconds: 60,
    });
    expect(iot.containers[1]?.items[1]?.ttl).toBe(7776000);
    const social = loaded(readExample("social-reactions/expert-model.yaml"), "social-reactions");
    expect(social.containers[0]?.items[0]).toMatchObject({ shards: 20, shardBy: "userId" });
    const saas = loaded(readExample("multitenant-saas/expert-model.yaml"), "multitenant-saas");
    expect(saas.containers[0]?.partitionKey).toEqual(["/tenantId", "/userId", "/sessionId"]);
  });

  it("defaults included to [/*] when only excluded paths are given", () => {
    const model = loaded(
      withItem(
        '      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"] }',
        "    partitionKey: [/postId]\n    indexing: { excluded: [/content/?] }",
      ),
    );
    expect(model.containers[0]?.indexing).toEqual({
      kind: "custom",
      included: ["/*"],
      excluded: ["/content/?"],
      composite: [],
    });
  });

  it("reads throughput, a single partition key string and unique keys", () => {
    const model = loaded(
      withItem(
        '      - { type: post, entity: Post, id: "{postId}", partitionKey: "{postId}" }',
        "    partitionKey: /postId\n    throughput: { mode: autoscale, maxRus: 4000 }\n    uniqueKeys: [[/email], /slug]",
      ),
    );
    expect(model.containers[0]).toMatchObject({
      partitionKey: ["/postId"],
      throughput: { mode: "autoscale", maxRus: 4000 },
      uniqueKeys: [["/email"], ["/slug"]],
      indexing: { kind: "derived" },
    });
    expect(model.containers[0]?.items[0]?.partitionKey).toEqual(["{postId}"]);
  });

  it("validateModelAgainstWorkload finds nothing wrong with the expert models", () => {
    const result = load(readExample("ecommerce/expert-model.yaml"));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const issues = validateModelAgainstWorkload(result.value, readExampleWorkload("ecommerce"));
    expect(issues.filter((issue) => issue.severity === "error")).toEqual([]);
  });
});

describe("loadModel reports every problem with code, path, line and suggestion", () => {
  it("reports unknown fields with a suggestion and the line", () => {
    const text = withItem(
      '      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"], coppies: [] }',
    );
    const found = errors(text);
    expect(found).toEqual([
      expect.objectContaining({
        code: "model.unknownField",
        path: ["containers", 0, "items", 0, "coppies"],
        file: "model.yaml",
        line: 6,
        suggestion: 'did you mean "copies"?',
      }),
    ]);
  });

  it("reports several structural problems at once", () => {
    const text = [
      "version: 2",
      "containers:",
      "  - name: posts",
      "    partitionKey: [/postId]",
      "    throughput: { mode: autoscal }",
      "    indexing: automatc",
      "    items:",
      '      - { type: post, entity: Post, partitionKey: ["{postId}"], ttl: "x" }',
    ].join("\n");
    const found = errors(text);
    expect(found.map((issue) => [issue.code, formatPath(issue.path)])).toEqual(
      expect.arrayContaining([
        ["model.invalidValue", "version"],
        ["model.invalidValue", "containers[0].throughput.mode"],
        ["model.invalidValue", "containers[0].indexing"],
        ["model.missingField", "containers[0].items[0].id"],
        ["model.invalidValue", "containers[0].items[0].ttl"],
      ]),
    );
    expect(
      found.find((issue) => formatPath(issue.path) === "containers[0].throughput.mode")?.suggestion,
    ).toBe('did you mean "autoscale"?');
    expect(found.find((issue) => formatPath(issue.path) === "containers[0].indexing")?.suggestion).toBe(
      'did you mean "automatic"?',
    );
    expect(found.find((issue) => formatPath(issue.path) === "containers[0].items[0].ttl")?.message).toBe(
      'expected a number, got "x"',
    );
  });

  it("reports problems inside an indexing policy at their own path", () => {
    const found = errors(
      withItem(
        '      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"] }',
        "    partitionKey: [/postId]\n    indexing: { included: [/a/?], exclude: [/*] }",
      ),
    );
    expect(found).toEqual([
      expect.objectContaining({
        code: "model.unknownField",
        path: ["containers", 0, "indexing", "exclude"],
        suggestion: 'did you mean "excluded"?',
      }),
    ]);
  });

  it("refuses a policy without the root path and bad index and composite paths", () => {
    const found = errors(
      withItem(
        '      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"] }',
        "    partitionKey: [/postId]\n    indexing: { included: [/a], excluded: [/b/?], composite: [[/a asc], [/a up, /b]] }",
      ),
    );
    expect(found.map((issue) => formatPath(issue.path))).toEqual([
      "containers[0].indexing.included[0]",
      "containers[0].indexing",
      "containers[0].indexing.composite[0]",
      "containers[0].indexing.composite[1][0]",
    ]);
  });

  it("checks partition keys: count, paths, templates per path, /id and /type", () => {
    const found = errors(
      withItem(
        [
          '      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"] }',
          '      - { type: comment, entity: Comment, id: "{commentId}", partitionKey: ["{postId}", "x", "y", "z"] }',
        ].join("\n"),
        "    partitionKey: [/postId, postId, /a, /b]",
      ),
    );
    expect(found.map((issue) => [issue.code, formatPath(issue.path)])).toEqual([
      ["model.badPartitionKey", "containers[0].partitionKey"],
      ["model.badPartitionKey", "containers[0].partitionKey[1]"],
      ["model.badPartitionKey", "containers[0].items[0].partitionKey"],
    ]);
    const idKey = errors(
      withItem(
        '      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{userId}"] }',
        "    partitionKey: [/id]",
      ),
    );
    expect(idKey.map((issue) => [issue.code, formatPath(issue.path)])).toEqual([
      ["model.badPartitionKey", "containers[0].items[0].partitionKey[0]"],
    ]);
    const typeKey = errors(
      withItem(
        '      - { type: post, entity: Post, id: "{postId}", partitionKey: ["posts"] }',
        "    partitionKey: [/type]",
      ),
    );
    expect(typeKey[0]?.message).toContain('must be the literal "post"');
  });

  it("checks templates, duplicate item types and sources", () => {
    const found = errors(
      withItem(
        [
          '      - { type: post, entity: Post, id: "{postId", partitionKey: ["{postId}"] }',
          '      - { type: post, entity: Post, id: "a/{postId}", partitionKey: ["{postId}"], source: postz/post }',
          '      - { type: copy, entity: Post, id: "{postId}", partitionKey: ["{postId}"], source: posts/copy }',
          '      - { type: copy2, entity: Comment, id: "{postId}", partitionKey: ["{postId}"], source: posts/post }',
          '      - { type: copy3, entity: Post, id: "{postId}", partitionKey: ["{postId}"], source: posts/nothing }',
          '      - { type: copy4, entity: Post, id: "{postId}", partitionKey: ["{postId}"], source: nothing }',
        ].join("\n"),
      ),
    );
    expect(found.map((issue) => [issue.code, formatPath(issue.path)])).toEqual([
      ["model.badTemplate", "containers[0].items[0].id"],
      ["model.duplicateItemType", "containers[0].items[1].type"],
      ["model.badTemplate", "containers[0].items[1].id"],
      ["model.unknownSource", "containers[0].items[1].source"],
      ["model.unknownSource", "containers[0].items[2].source"],
      ["model.badSource", "containers[0].items[3].source"],
      ["model.unknownSource", "containers[0].items[4].source"],
      ["model.invalidValue", "containers[0].items[5].source"],
    ]);
    expect(found[3]?.suggestion).toBe('did you mean "posts"?');
  });

  it("refuses a copy whose id or key uses an attribute its source's select leaves out", () => {
    // A mutation of seed 19: trips/trip without managerId, its replicas keyed {managerId}-{replica}.
    const text = (select: string) =>
      [
        "version: 1",
        "containers:",
        "  - name: posts",
        "    partitionKey: [/postId]",
        "    items:",
        `      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"], select: [${select}] }`,
        "  - name: by-user",
        "    partitionKey: [/userKey]",
        "    items:",
        '      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{userId}-{replica}"], source: posts/post, replicas: 2 }',
      ].join("\n");
    const found = errors(text("postId, title"));
    expect(found.map((issue) => [issue.code, formatPath(issue.path)])).toEqual([
      ["model.badSource", "containers[1].items[0].source"],
    ]);
    expect(found[0]?.message).toContain("{userId}");
    expect(errors(text("postId, userId, title"))).toEqual([]);
  });

  it("refuses complete records addressed by an attribute some lack, or by an object; a copy may be sparse", () => {
    // A mutation of arbitrary seed 39: accounts keyed by a payload half the records lack.
    const workload = loadWorkload(
      [
        "version: 1",
        "name: sparse",
        "entities:",
        "  Account: { key: accountId, count: 10, avgBytes: 300, attributes: { accountId: string, code: { type: string, presence: 0.5 }, meta: object } }",
        "accessPatterns:",
        "  - { id: Q1, name: by code, type: read, entity: Account, where: { code: eq }, rps: { avg: 1, peak: 2 } }",
      ].join("\n"),
    );
    if (!workload.ok) throw new Error(workload.issues.map(formatIssue).join("\n"));
    const check = (items: string[]) =>
      loadModel(
        [
          "version: 1",
          "containers:",
          "  - name: accounts",
          "    partitionKey: [/pk]",
          "    items:",
          ...items,
        ].join("\n"),
        { workload: workload.value },
      ).issues.filter((issue) => issue.severity === "error");
    const sparse = check([
      '      - { type: account, entity: Account, id: "{accountId}", partitionKey: ["{code}"] }',
    ]);
    expect(sparse.map((issue) => [issue.code, formatPath(issue.path)])).toEqual([
      ["model.badTemplate", "containers[0].items[0].partitionKey[0]"],
    ]);
    expect(sparse[0]?.message).toContain("only 50% of Account records");
    const object = check([
      '      - { type: account, entity: Account, id: "{accountId}", partitionKey: ["{meta}"] }',
    ]);
    expect(object[0]?.message).toContain("an object");
    expect(
      check([
        '      - { type: account, entity: Account, id: "{accountId}", partitionKey: ["{accountId}"] }',
        '      - { type: byCode, entity: Account, id: "{accountId}", partitionKey: ["{code}"], select: [accountId, code] }',
      ]),
    ).toEqual([]);
  });

  it("checks keepLatest, bucket, shards and replicas", () => {
    const found = errors(
      withItem(
        [
          '      - { type: a, entity: Post, id: "{postId}", partitionKey: ["{postId}"], keepLatest: { count: 0, by: creationDate } }',
          '      - { type: b, entity: Post, id: "{postId}", partitionKey: ["{postId}"], bucket: { records: 0 } }',
          '      - { type: c, entity: Post, id: "{postId}-{bucket}", partitionKey: ["{postId}"], bucket: { by: creationDate, window: 5w } }',
          '      - { type: d, entity: Post, id: "{postId}-{bucket}", partitionKey: ["{postId}"] }',
          '      - { type: e, entity: Post, id: "{postId}", partitionKey: ["{postId}-{shard}"], shards: 1 }',
          '      - { type: f, entity: Post, id: "{postId}-{shard}", partitionKey: ["{postId}"], shards: 4 }',
          '      - { type: g, entity: Post, id: "{postId}", partitionKey: ["{postId}"], shardBy: userId }',
          '      - { type: h, entity: Post, id: "{postId}", partitionKey: ["post-{replica}"] }',
          '      - { type: i, entity: Post, id: "{postId}", partitionKey: ["{postId}"], replicas: 3 }',
          '      - { type: j, entity: Post, id: "{postId}-{bucket}", partitionKey: ["{postId}"], bucket: { records: 5, by: x, window: 1m } }',
        ].join("\n"),
      ),
    );
    expect(found.map((issue) => [issue.code, formatPath(issue.path)])).toEqual([
      ["model.badKeepLatest", "containers[0].items[0].keepLatest.count"],
      ["model.badBucket", "containers[0].items[1].bucket.records"],
      ["model.badBucket", "containers[0].items[1].id"],
      ["model.badBucket", "containers[0].items[2].bucket.window"],
      ["model.badBucket", "containers[0].items[3]"],
      ["model.badShards", "containers[0].items[4].shards"],
      ["model.badShards", "containers[0].items[5].partitionKey"],
      ["model.badShards", "containers[0].items[5].shardBy"],
      ["model.badShards", "containers[0].items[6].shardBy"],
      ["model.badReplicas", "containers[0].items[7]"],
      ["model.badReplicas", "containers[0].items[8].partitionKey"],
      ["model.badBucket", "containers[0].items[9].bucket"],
    ]);
  });

  it("checks throughput and ttl ranges, and warns about a ttl without defaultTtl", () => {
    const result = load(
      withItem(
        '      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"], ttl: 60 }',
        "    partitionKey: [/postId]\n    throughput: { mode: manual, rus: 450, maxRus: 4000 }\n    defaultTtl: 0",
      ),
    );
    expect(result.issues.map((issue) => [issue.severity, issue.code, formatPath(issue.path)])).toEqual([
      ["error", "model.invalidValue", "containers[0].throughput.maxRus"],
      ["error", "model.invalidValue", "containers[0].throughput.rus"],
      ["error", "model.invalidValue", "containers[0].defaultTtl"],
    ]);
    const warning = load(
      withItem('      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"], ttl: 60 }'),
    );
    expect(warning.ok).toBe(true);
    expect(warning.issues).toEqual([
      expect.objectContaining({ code: "model.ttlIgnored", severity: "warning" }),
    ]);
  });

  it("checks that a projection keeps what keepLatest and truncate need", () => {
    const result = load(
      withItem(
        '      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"], select: [postId, title], truncate: { content: 200 }, keepLatest: { count: 5, by: creationDate } }',
      ),
    );
    expect(result.issues.map((issue) => [issue.severity, issue.code, formatPath(issue.path)])).toEqual([
      ["error", "model.badKeepLatest", "containers[0].items[0].keepLatest.by"],
      ["warning", "model.truncateUnselected", "containers[0].items[0].truncate.content"],
    ]);
  });

  it("checks derived property names", () => {
    const found = errors(
      withItem(
        '      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"], counts: [{ of: Comment, as: n }, { of: Like, as: n }, { of: Like, as: id }] }',
      ),
    );
    expect(found.map((issue) => [issue.code, formatPath(issue.path)])).toEqual([
      ["model.duplicateProperty", "containers[0].items[0].counts[1].as"],
      ["model.duplicateProperty", "containers[0].items[0].counts[2].as"],
    ]);
  });

  it("formats issues as file:line path: message (suggestion)", () => {
    const text = withItem(
      '      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"], coppies: [] }',
    );
    expect(load(text).issues.map(formatIssue)).toEqual([
      'error model.unknownField model.yaml:6 containers[0].items[0].coppies: unknown field (did you mean "copies"?)',
    ]);
    expect(errors("containers: []")).toEqual([
      expect.objectContaining({
        code: "model.missingField",
        path: ["version"],
        message: "required field is missing (expected 1)",
      }),
      expect.objectContaining({
        code: "model.invalidValue",
        path: ["containers"],
        message: "expected at least 1 entry, got an empty list",
      }),
    ]);
  });

  it("accepts JSON", () => {
    const text = JSON.stringify({
      version: 1,
      containers: [
        {
          name: "posts",
          partitionKey: ["/postId"],
          items: [{ type: "post", entity: "Post", id: "{postId}", partitionKey: ["{postId}"] }],
        },
      ],
    });
    expect(loaded(text).containers[0]?.items[0]?.id).toBe("{postId}");
  });

  it("reports YAML syntax errors and oversized input from the document parser", () => {
    expect(load("version: [1").issues[0]?.code).toBe("source.syntax");
    expect(load("- 1").issues[0]).toMatchObject({ code: "model.invalidValue", path: [] });
  });
});

describe("loadModel against a workload", () => {
  it("reports unknown entities and attributes with suggestions", () => {
    const found = errors(
      withItem(
        [
          '      - { type: post, entity: Posts, id: "{postId}", partitionKey: ["{postId}"] }',
          '      - { type: p2, entity: Post, id: "{postid}", partitionKey: ["{postId}"], select: [title, titl], truncate: { contnt: 200 }, keepLatest: { count: 5, by: created } }',
        ].join("\n"),
      ),
      "blogging",
    );
    expect(found.map((issue) => [issue.code, formatPath(issue.path), issue.suggestion])).toEqual([
      ["model.unknownEntity", "containers[0].items[0].entity", 'did you mean "Post"?'],
      ["model.badKeepLatest", "containers[0].items[1].keepLatest.by", undefined],
      ["model.unknownAttribute", "containers[0].items[1].id", 'did you mean "postId"?'],
      ["model.unknownAttribute", "containers[0].items[1].select[1]", 'did you mean "title"?'],
      ["model.unknownAttribute", "containers[0].items[1].truncate.contnt", 'did you mean "content"?'],
      ["model.unknownAttribute", "containers[0].items[1].keepLatest.by", expect.any(String)],
    ]);
  });

  it("requires copies, counts and embeds to follow relationships", () => {
    const found = errors(
      withItem(
        [
          "      - type: comment",
          "        entity: Comment",
          '        id: "{commentId}"',
          '        partitionKey: ["{postId}"]',
          "        copies: [{ from: User.usrname, as: a }, { from: Post.title, as: b }, { from: Like.userId, as: c }, { from: Username, as: d }]",
          "        counts: [{ of: Like, as: likes }, { of: Comment, as: e }]",
          "        embeds: [{ entity: Post, as: post }, { entity: Like, as: likeList }]",
        ].join("\n"),
      ),
      "blogging",
    );
    expect(found.map((issue) => [issue.code, formatPath(issue.path)])).toEqual([
      ["model.invalidValue", "containers[0].items[0].copies[3].from"],
      ["model.unknownAttribute", "containers[0].items[0].copies[0].from"],
      ["model.noRelationship", "containers[0].items[0].copies[2].from"],
      ["model.noRelationship", "containers[0].items[0].counts[0].of"],
      ["model.noRelationship", "containers[0].items[0].counts[1].of"],
      ["model.noRelationship", "containers[0].items[0].embeds[0].entity"],
      ["model.noRelationship", "containers[0].items[0].embeds[1].entity"],
    ]);
  });

  it("refuses an embed of the newest N children that have no datetime attribute to tell the newest", () => {
    const text = readWriteFixture("latest");
    const untimed = loadWorkload(
      text.workload
        .replace("placedAt: { type: datetime, changes: rare }", "placedAt: { type: string, changes: rare }")
        .replace('with: ["latest(Order, 3)"]', "with: [all(Order)]"),
    );
    if (!untimed.ok) throw new Error(untimed.issues.map(formatIssue).join("\n"));
    const result = loadModel(text.model, { workload: untimed.value });
    const found = result.issues.filter((issue) => issue.severity === "error");
    expect(found.map((issue) => [issue.code, formatPath(issue.path)])).toEqual([
      ["model.invalidValue", "containers[0].items[0].embeds[0].latest"],
    ]);
    expect(found[0]?.message).toBe(
      "keeps the newest 3 Order records, but Order has no datetime attribute to tell the newest",
    );
    expect(loadModel(text.model, { workload: readWriteFixtureWorkload() }).ok).toBe(true);
  });

  it("checks truncate types, bucket attribute types and key property clashes", () => {
    const found = errors(
      withItem(
        '      - { type: r, entity: Reading, id: "{deviceId}-{bucket}", partitionKey: ["x{deviceId}"], truncate: { temperature: 5 }, bucket: { by: status, window: 1m }, copies: [{ from: Device.model, as: status }] }',
        "    partitionKey: [/deviceId]",
      ),
      "iot-telemetry",
    );
    expect(found.map((issue) => [issue.code, formatPath(issue.path)])).toEqual([
      ["model.invalidValue", "containers[0].items[0].truncate.temperature"],
      ["model.badBucket", "containers[0].items[0].bucket.by"],
      ["model.duplicateProperty", "containers[0].items[0].copies[0].as"],
      ["model.badPartitionKey", "containers[0].items[0].partitionKey[0]"],
    ]);
  });

  it("warns about access pattern entities that no item type stores", () => {
    const result = load(
      withItem('      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"] }'),
      "blogging",
    );
    expect(result.ok).toBe(true);
    expect(result.issues.map((issue) => [issue.severity, issue.code, issue.message])).toEqual([
      ["warning", "model.unstoredEntity", expect.stringContaining("C1 uses entity User")],
      ["warning", "model.unstoredEntity", expect.stringContaining("C3 uses entity Comment")],
      ["warning", "model.unstoredEntity", expect.stringContaining("C4 uses entity Like")],
    ]);
  });
});
