import { describe, expect, it } from "vitest";
import { DEFAULT_PRICES } from "./prices.js";
import { HOURS_PER_MONTH } from "./limits.js";

describe("DEFAULT_PRICES", () => {
  it("prices 400 RU/s manual at $23.36 per 730-hour month, as understand-your-bill does", () => {
    const monthly = (400 / 100) * DEFAULT_PRICES.manualPer100RusHour * HOURS_PER_MONTH;
    expect(monthly).toBeCloseTo(23.36, 2);
  });
  it("keeps autoscale at 1.5x manual and multi-region writes at 2x", () => {
    expect(DEFAULT_PRICES.autoscalePer100RusHour / DEFAULT_PRICES.manualPer100RusHour).toBeCloseTo(1.5);
    expect(
      DEFAULT_PRICES.manualMultiRegionWritePer100RusHour / DEFAULT_PRICES.manualPer100RusHour,
    ).toBeCloseTo(2);
    expect(DEFAULT_PRICES.autoscaleMultiRegionWritePer100RusHour).toBe(
      DEFAULT_PRICES.manualMultiRegionWritePer100RusHour,
    );
  });
  it("cites its sources", () => {
    expect(DEFAULT_PRICES.sources.length).toBeGreaterThan(0);
    for (const source of DEFAULT_PRICES.sources) expect(source).toMatch(/^https:\/\/learn\.microsoft\.com\//);
  });
});
