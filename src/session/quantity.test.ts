import { describe, expect, it } from "vitest";
import { parseQuantity } from "./quantity.js";

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
  ] as const)("%s (%s) = %d", (text, unit, value) => {
    expect(parseQuantity(text, unit)).toEqual({ ok: true, value });
  });

  it.each([
    ["-3", "count"],
    ["abc", "count"],
    ["3 parsecs", "bytes"],
    ["", "requests/s"],
  ] as const)("rejects %j as %s with a hint", (text, unit) => {
    const result = parseQuantity(text, unit);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/examples:/);
  });
});
