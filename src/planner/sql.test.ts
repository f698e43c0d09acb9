import { describe, expect, it } from "vitest";
import { planModel } from "./plan-model.js";
import { EXAMPLE_MODELS } from "../test-support/model-examples.js";
import { loadExample } from "../test-support/evaluate-fixtures.js";
import { buildQuery, propertyRef } from "./sql.js";
import type { PlanStep, QueryStep } from "./types.js";

/** Every query step of a plan, including those inside change-feed work. */
function queriesOf(steps: readonly PlanStep[]): QueryStep[] {
  return steps.flatMap((step): QueryStep[] => {
    switch (step.kind) {
      case "query":
        return [step];
      case "changeFeed":
        return queriesOf(step.steps);
      case "batch":
      case "pointRead":
      case "write":
        return [];
      default:
        return step satisfies never;
    }
  });
}

/** The SQL text without bracket-quoted property names (`c["a b"]`) and `COUNT(1)` (not a user value). */
function withoutQuotedNames(sql: string): string {
  return sql.replace(/c\[("(?:[^"\\]|\\.)*")\]/g, "c[]").replaceAll("COUNT(1)", "COUNT()");
}

describe("buildQuery", () => {
  it("binds every value as a parameter and quotes names that are not plain identifiers", () => {
    const built = buildQuery({
      keys: [{ property: "type", source: { kind: "literal", value: "O'Brien \" post" } }],
      predicates: [
        { attribute: "first name", op: "eq" },
        { attribute: "it's", op: "prefix" },
        { attribute: "value", op: "range" },
      ],
      valuesFrom: "input",
      orderBy: [{ attribute: "sort key", direction: "desc" }],
      top: 10,
      projection: ["id", 'say "hi"'],
    });
    expect(built.sql).toBe(
      'SELECT TOP @limit c.id, c["say \\"hi\\""] FROM c WHERE c.type = @type AND c["first name"] = @first_name AND STARTSWITH(c["it\'s"], @it_s) AND c["value"] >= @valueFrom AND c["value"] < @valueTo ORDER BY c["sort key"] DESC',
    );
    // The literal type value and the limit are parameters, not SQL text.
    expect(built.sql).not.toContain("O'Brien");
    expect(built.sql).not.toMatch(/\b10\b/);
    expect(built.parameters).toEqual([
      { name: "@type", source: { kind: "literal", value: "O'Brien \" post" } },
      { name: "@first_name", source: { kind: "input", attribute: "first name" } },
      { name: "@it_s", source: { kind: "input", attribute: "it's" } },
      { name: "@valueFrom", source: { kind: "input", attribute: "value", bound: "from" } },
      { name: "@valueTo", source: { kind: "input", attribute: "value", bound: "to" } },
      { name: "@limit", source: { kind: "limit", value: 10 } },
    ]);
  });

  it("gives two names that sanitize alike distinct parameters", () => {
    const built = buildQuery({
      keys: [],
      predicates: [
        { attribute: "a b", op: "eq" },
        { attribute: "a-b", op: "eq" },
      ],
      valuesFrom: "input",
      orderBy: [],
    });
    expect(built.parameters.map((p) => p.name)).toEqual(["@a_b", "@a_b2"]);
    expect(built.sql).toBe('SELECT * FROM c WHERE c["a b"] = @a_b AND c["a-b"] = @a_b2');
  });

  it("quotes SQL keywords used as property names", () => {
    expect(propertyRef("userId")).toBe("c.userId");
    expect(propertyRef("order")).toBe('c["order"]');
    // The words the audit found unquoted, in any case.
    for (const word of [
      "desc",
      "asc",
      "as",
      "between",
      "join",
      "null",
      "true",
      "false",
      "exists",
      "array",
      "udf",
    ]) {
      expect(propertyRef(word)).toBe(`c[${JSON.stringify(word)}]`);
      expect(propertyRef(word.toUpperCase())).toBe(`c[${JSON.stringify(word.toUpperCase())}]`);
    }
    expect(propertyRef("description")).toBe("c.description");
    expect(propertyRef('a"b\\c')).toBe('c["a\\"b\\\\c"]');
    expect(propertyRef("_ts")).toBe("c._ts");
    expect(propertyRef("1st")).toBe('c["1st"]');
  });
});

describe("generated queries of the example models", () => {
  it.each(EXAMPLE_MODELS)("%s %s: SQL carries no values, only declared parameters", (name, path) => {
    const { workload, model } = loadExample(name, path.slice(name.length + 1));
    const queries = planModel(workload, model).flatMap((plan) =>
      queriesOf(plan.type === "write" ? [...plan.operations, ...plan.async] : plan.operations),
    );
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      const bare = withoutQuotedNames(query.sql);
      // No string or number literal outside quoted property names.
      expect(bare, query.sql).not.toMatch(/["']/);
      expect(bare, query.sql).not.toMatch(/[=<>,(]\s*-?\d/);
      expect(bare, query.sql).not.toMatch(/\b(true|false|null)\b/i);
      const used = [...new Set(bare.match(/@[A-Za-z0-9_]+/g) ?? [])].sort();
      expect(used, query.sql).toEqual(query.parameters.map((p) => p.name).sort());
    }
  });
});

describe("buildQuery with truncate", () => {
  it("cuts projected strings with LEFT and an alias, bound as a parameter", () => {
    const built = buildQuery({
      keys: [],
      predicates: [],
      valuesFrom: "input",
      orderBy: [],
      projection: ["id", "bio"],
      truncate: { bio: 100 },
    });
    expect(built.sql).toBe("SELECT c.id, LEFT(c.bio, @bioChars) AS bio FROM c");
    expect(built.parameters).toEqual([{ name: "@bioChars", source: { kind: "literal", value: 100 } }]);
  });
  it("builds an object when a cut name cannot be an alias", () => {
    const built = buildQuery({
      keys: [],
      predicates: [],
      valuesFrom: "input",
      orderBy: [],
      projection: ["id", "short bio", "value"],
      truncate: { "short bio": 10 },
    });
    expect(built.sql).toBe(
      'SELECT VALUE {"id": c.id, "short bio": LEFT(c["short bio"], @short_bioChars), "value": c["value"]} FROM c',
    );
  });
});

describe("buildQuery of a bucket item type", () => {
  const records = { property: "records", itemAttributes: ["deviceId"] };
  const window = { attribute: "timestamp", seconds: 3600 };
  it("tests the bucket's key and the window's bounds on the item, the range and every other filter on one record", () => {
    const built = buildQuery({
      keys: [{ property: "type", source: { kind: "literal", value: "readingBucket" } }],
      predicates: [
        { attribute: "deviceId", op: "eq" },
        { attribute: "timestamp", op: "range" },
        { attribute: "readingId", op: "eq" },
        { attribute: "kind", op: "in" },
      ],
      valuesFrom: "input",
      orderBy: [],
      records,
      window,
    });
    // A record's attributes are not properties of its bucket item: `c.readingId` matches nothing.
    expect(built.sql).toBe(
      "SELECT * FROM c WHERE c.type = @type AND c.deviceId = @deviceId AND c.timestamp >= @timestampFrom AND c.timestamp <= @timestampToWindow AND EXISTS(SELECT VALUE r FROM r IN c.records WHERE r.timestamp >= @timestampFrom2 AND r.timestamp < @timestampTo AND r.readingId = @readingId AND ARRAY_CONTAINS(@kind, r.kind))",
    );
    // The bucket's start is compared with both bounds aligned down to the window (the last bucket
    // starts at or before the aligned upper bound: no later bucket is scanned); a record's time is
    // compared as given, so each bucket returned holds a record in the range (a page of n
    // buckets, at least n records).
    const sources = Object.fromEntries(built.parameters.map((p) => [p.name, p.source]));
    expect(sources["@timestampFrom"]).toEqual({
      kind: "input",
      attribute: "timestamp",
      bound: "from",
      alignToWindowSeconds: 3600,
    });
    expect(sources["@timestampToWindow"]).toEqual({
      kind: "input",
      attribute: "timestamp",
      bound: "to",
      alignToWindowSeconds: 3600,
    });
    expect(sources["@timestampFrom2"]).toEqual({ kind: "input", attribute: "timestamp", bound: "from" });
    expect(sources["@timestampTo"]).toEqual({ kind: "input", attribute: "timestamp", bound: "to" });
  });
  it("tests an equality on the window attribute on the records (the item holds the window start)", () => {
    const built = buildQuery({
      keys: [],
      predicates: [{ attribute: "timestamp", op: "eq" }],
      valuesFrom: "input",
      orderBy: [],
      records,
      window,
    });
    expect(built.sql).toBe(
      "SELECT * FROM c WHERE EXISTS(SELECT VALUE r FROM r IN c.records WHERE r.timestamp = @timestamp)",
    );
  });
});
