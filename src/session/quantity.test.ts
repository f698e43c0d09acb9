import { describe, expect, it } from "vitest";
import { parseQuantity } from "./quantity.js";
import { rangeProblem, RANGES } from "./value-ranges.js";

describe("parseQuantity", () => {
  it.each([
    ["2.75M", "count", 2_750_000],
    ["100k", "count", 100_000],
    ["1,000,000", "count", 1_000_000],
    ["3 KB", "bytes", 3 * 1024],
    ["2MB", "bytes", 2_097_152], // the 2 MB item limit in bytes
    ["800", "bytes", 800],
    ["250/s", "requests/s", 250],
    ["1.5k rps", "requests/s", 1500],
    ["15 min", "seconds", 900],
    ["24 h", "seconds", 86_400],
    ["3 years", "months", 36],
    ["-3", "count", -3], // signed: the question's range says whether it is allowed
    ["1e99", "count", 1e99],
    ["15%", "share", 0.15],
    ["50 ms", "milliseconds", 50],
  ] as const)("%s (%s) = %d", (text, unit, value) => {
    expect(parseQuantity(text, unit)).toEqual({ ok: true, value });
  });

  it.each([
    ["1e999", "count"],
    ["abc", "count"],
    ["3 parsecs", "bytes"],
    ["", "requests/s"],
  ] as const)("rejects %j as %s with a hint", (text, unit) => {
    const result = parseQuantity(text, unit);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/examples:/);
  });
});

describe("rangeProblem (what a number question accepts)", () => {
  it.each([
    [-5, RANGES.positive, "expected a number more than 0, got -5"],
    [0, RANGES.positive, "expected a number more than 0, got 0"],
    [1e99, RANGES.nonNegative, "at most 9,007,199,254,740,991"],
    [2.5, RANGES.positiveInteger, "expected a whole number from 1 up, got 2.5"],
    [0, RANGES.ttlSeconds, "expected a whole number from 1 to 2,147,483,647, got 0"],
    [1.5, RANGES.share, "expected a number more than 0 and at most 1, got 1.5"],
  ] as const)("%d against %j says %j", (value, range, message) => {
    expect(rangeProblem(value, range)).toContain(message);
  });

  it("accepts what the range holds", () => {
    expect(rangeProblem(0, RANGES.nonNegative)).toBeUndefined();
    expect(rangeProblem(86_400, RANGES.ttlSeconds)).toBeUndefined();
    expect(rangeProblem(0.15, RANGES.share)).toBeUndefined();
  });
});
