import { formatPath } from "../common/issues.js";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRICES } from "../cosmos/prices.js";
import { loadPrices } from "./load-prices.js";

describe("loadPrices", () => {
  it("merges a YAML subset over the defaults", () => {
    const result = loadPrices(
      "region: West Europe\nstoragePerGBMonth: 0.3\nmanualPer100RusHour: 0.0096\n",
      "p.yaml",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.region).toBe("West Europe");
    expect(result.value.storagePerGBMonth).toBe(0.3);
    expect(result.value.manualPer100RusHour).toBe(0.0096);
    expect(result.value.serverlessPerMillionRu).toBe(DEFAULT_PRICES.serverlessPerMillionRu);
  });
  it("accepts JSON and an empty file", () => {
    const json = loadPrices('{"serverlessPerMillionRu": 0.28}');
    expect(json.ok && json.value.serverlessPerMillionRu).toBe(0.28);
    const empty = loadPrices("");
    expect(empty.ok && empty.value).toEqual(DEFAULT_PRICES);
  });
  it("rejects an unknown field with its line and a suggestion", () => {
    const result = loadPrices("region: X\nstoragePerGbMonth: 0.3\n", "p.yaml");
    expect(result.ok).toBe(false);
    expect(result.issues).toEqual([
      expect.objectContaining({
        code: "prices.unknownField",
        path: ["storagePerGbMonth"],
        file: "p.yaml",
        line: 2,
        suggestion: 'did you mean "storagePerGBMonth"?',
      }),
    ]);
  });
  it("reports every bad value with its path and line", () => {
    const result = loadPrices("currency: EUR\nmanualPer100RusHour: -1\nsources: [1]\n", "p.yaml");
    expect(result.ok).toBe(false);
    const byPath = Object.fromEntries(result.issues.map((issue) => [formatPath(issue.path), issue]));
    expect(byPath["currency"]).toMatchObject({ code: "prices.invalidValue", line: 1 });
    expect(byPath["manualPer100RusHour"]).toMatchObject({
      line: 2,
      message: "expected a price from 0 to 8 USD (1,000 x the US list price of 0.008), got -1",
    });
    expect(byPath["sources[0]"]).toMatchObject({ line: 3, message: "expected text, got 1" });
  });
  // Issue 32: 1e308 made the throughput bill null (Infinity), 1e300 gave totals of 9.5e306 USD.
  it.each([
    [
      "manualPer100RusHour: 1e308",
      "manualPer100RusHour",
      "from 0 to 8 USD (1,000 x the US list price of 0.008)",
    ],
    [
      "storagePerGBMonth: 1e300",
      "storagePerGBMonth",
      "from 0 to 250 USD (1,000 x the US list price of 0.25)",
    ],
    ["serverlessPerMillionRu: 1000", "serverlessPerMillionRu", "from 0 to 250 USD"],
  ])("refuses %s with the sensible range", (text, field, range) => {
    const result = loadPrices(`${text}\n`, "p.yaml");
    expect(result.ok).toBe(false);
    expect(result.issues).toEqual([
      expect.objectContaining({ code: "prices.invalidValue", path: [field], line: 1 }),
    ]);
    expect(result.issues[0]?.message).toContain(range);
  });
  it("accepts a regional price within the range", () => {
    expect(loadPrices("manualPer100RusHour: 0.0104\nstoragePerGBMonth: 2.5\n", "p.yaml").ok).toBe(true);
  });
  it("rejects a document that is not a mapping, and syntax errors", () => {
    expect(loadPrices("- 1\n", "p.yaml").issues[0]?.code).toBe("prices.notAnObject");
    expect(loadPrices("a: [", "p.yaml").issues[0]?.code).toBe("source.syntax");
  });
});
