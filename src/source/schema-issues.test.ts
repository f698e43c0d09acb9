import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createIssueSink, formatIssue } from "../common/issues.js";
import { describeValue, fieldsOf, parseWithSchema, type SchemaCheckOptions } from "./schema-issues.js";

const OPTIONS: SchemaCheckOptions = {
  codes: {
    unknownField: "model.unknownField",
    missingField: "model.missingField",
    invalidValue: "model.invalidValue",
  },
};

const schema = z.strictObject({
  count: z.number({ error: "expected a count" }).positive({ error: "expected a positive count" }),
  size: z.number().int().min(1),
  kind: z.enum(["manual", "autoscale"]),
  policy: z.union([z.literal("automatic"), z.strictObject({ included: z.array(z.string()) })]).optional(),
});

function check(value: unknown): string[] {
  const sink = createIssueSink({ file: "m.yaml" });
  parseWithSchema(schema, value, ["at"], sink, OPTIONS);
  return sink.issues().map(formatIssue);
}

describe("parseWithSchema", () => {
  it("uses the schema's own expectation, else words one from the issue, and says what the value is", () => {
    expect(check({ count: -1, size: 1.5, kind: "manual" })).toEqual([
      "error model.invalidValue m.yaml at.count: expected a positive count, got -1",
      "error model.invalidValue m.yaml at.size: expected a whole number, got 1.5",
    ]);
    expect(check({ count: "x", size: 2, kind: "manual" })).toEqual([
      'error model.invalidValue m.yaml at.count: expected a count, got "x"',
    ]);
  });

  it("reports missing fields, unknown fields and misspelled values with did you mean", () => {
    expect(check({ size: 2, kind: "autoscal", cout: 3 })).toEqual([
      "error model.missingField m.yaml at.count: required field is missing (expected a count)",
      'error model.invalidValue m.yaml at.kind: expected "manual" or "autoscale", got "autoscal" (did you mean "autoscale"?)',
      'error model.unknownField m.yaml at.cout: unknown field (did you mean "count"?)',
    ]);
  });

  it("reports a union against the branch the value has the shape of", () => {
    expect(check({ count: 1, size: 1, kind: "manual", policy: { includd: [] } })).toEqual([
      "error model.missingField m.yaml at.policy.included: required field is missing (expected a list)",
      'error model.unknownField m.yaml at.policy.includd: unknown field (did you mean "included"?)',
    ]);
  });

  it("returns the parsed value when there is no problem", () => {
    const sink = createIssueSink();
    expect(parseWithSchema(schema, { count: 1, size: 2, kind: "manual" }, [], sink, OPTIONS)).toEqual({
      count: 1,
      size: 2,
      kind: "manual",
    });
    expect(sink.issues()).toEqual([]);
  });
});

describe("fieldsOf and describeValue", () => {
  it("finds the fields of the object inside unions and optionals", () => {
    expect(fieldsOf(schema, [])).toEqual(["count", "size", "kind", "policy"]);
    expect(fieldsOf(schema, ["policy"])).toEqual(["included"]);
  });
  it("describes values briefly", () => {
    expect(describeValue(undefined)).toBe("nothing");
    expect(describeValue([1, 2])).toBe("a list of 2 entries");
    expect(describeValue("x".repeat(100))).toMatch(/^"x{57}\.\.\."$/);
    expect(describeValue(Number.POSITIVE_INFINITY)).toBe(
      "Infinity (YAML's .inf, or a number beyond 1.8e308), not a finite number",
    );
    expect(describeValue(Number.NEGATIVE_INFINITY)).toBe(
      "-Infinity (YAML's -.inf, or a number beyond -1.8e308), not a finite number",
    );
  });
});
