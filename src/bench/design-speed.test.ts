import { describe, expect, it } from "vitest";
import { logLogSlope, median } from "./design-speed.js";

describe("design speed statistics", () => {
  it("fits the exponent of a power law by least squares in log-log, whatever its factor", () => {
    const points = [20, 200, 500].flatMap((x) => [
      { x, y: 3 * x ** 1.5 },
      { x, y: 3 * x ** 1.5 * 1.1 },
    ]);
    expect(logLogSlope(points)).toBeCloseTo(1.5, 10);
    expect(logLogSlope([20, 200].map((x) => ({ x, y: 7 * x })))).toBeCloseTo(1, 10);
  });

  it("has no slope with a single size", () => {
    expect(
      logLogSlope([
        { x: 20, y: 1 },
        { x: 20, y: 2 },
      ]),
    ).toBeNaN();
  });

  it("takes the median, not the mean: one disturbed run does not move it", () => {
    expect(median([5, 1, 1_000])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
