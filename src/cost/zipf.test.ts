import { describe, expect, it } from "vitest";
import { harmonic, zipfShare } from "./zipf.js";

/** Euler-Mascheroni constant (OEIS A001620). */
const EULER_GAMMA = 0.5772156649015329;
/** Riemann zeta(1.5) (OEIS A078434). */
const ZETA_1_5 = 2.612375348685488;

function bruteForceHarmonic(n: number, s: number): number {
  let sum = 0;
  for (let k = 1; k <= n; k++) sum += 1 / k ** s;
  return sum;
}

describe("harmonic", () => {
  it("equals exact small sums", () => {
    expect(harmonic(4, 1)).toBeCloseTo(25 / 12, 14);
    expect(harmonic(3, 2)).toBeCloseTo(49 / 36, 14);
    expect(harmonic(1, 1.5)).toBe(1);
  });

  it("matches the brute-force sum for every n up to the exact part", () => {
    for (const s of [0.5, 1, 1.2, 1.5, 2]) {
      for (const n of [1, 2, 7, 100, 9_999, 10_000]) {
        expect(harmonic(n, s)).toBeCloseTo(bruteForceHarmonic(n, s), 10);
      }
    }
  });

  it("continues past 10,000 terms without a jump (integrated tail vs brute force)", () => {
    for (const s of [0.8, 1, 1.5]) {
      for (const n of [10_001, 12_345, 200_000]) {
        const exact = bruteForceHarmonic(n, s);
        expect(Math.abs(harmonic(n, s) - exact) / exact).toBeLessThan(1e-9);
      }
    }
  });

  it("agrees with the asymptotic expansions for huge n", () => {
    // H(n, 1) = ln n + gamma + 1/(2n) - 1/(12 n^2) + ...
    const n = 500e6;
    const h1 = Math.log(n) + EULER_GAMMA + 1 / (2 * n);
    expect(Math.abs(harmonic(n, 1) - h1) / h1).toBeLessThan(1e-9);
    // H(n, 1.5) = zeta(1.5) - 2/sqrt(n) + 1/(2 n^1.5) + ...
    const h15 = ZETA_1_5 - 2 / Math.sqrt(n) + 0.5 * n ** -1.5;
    expect(Math.abs(harmonic(n, 1.5) - h15) / h15).toBeLessThan(1e-9);
  });
});

describe("zipfShare", () => {
  it("gives the viral post 38% of the reactions (social-reactions README: skew 1.5 over 500 million posts)", () => {
    expect(zipfShare(500e6, 1.5)).toBeCloseTo(0.383, 3);
  });

  it("gives the most read post 4.85% of the reads (social-reactions README: skew 1.0 over 500 million posts)", () => {
    expect(zipfShare(500e6, 1.0)).toBeCloseTo(0.0485, 4);
  });

  it("is uniform without skew, and 1 for a single value", () => {
    expect(zipfShare(100, 0)).toBeCloseTo(0.01, 15);
    expect(zipfShare(100, 0, 57)).toBeCloseTo(0.01, 15);
    expect(zipfShare(1, 1.5)).toBe(1);
    expect(zipfShare(0.5, 1)).toBe(1);
  });

  it("decreases with rank and the shares of all ranks sum to 1", () => {
    const n = 50;
    const s = 1.2;
    const shares = Array.from({ length: n }, (_, index) => zipfShare(n, s, index + 1));
    for (let k = 1; k < n; k++) expect(shares[k]).toBeLessThan(shares[k - 1] ?? 0);
    expect(shares.reduce((sum, share) => sum + share, 0)).toBeCloseTo(1, 12);
    // The k-th share is the first divided by k^s.
    expect(shares[9]).toBeCloseTo((shares[0] ?? 0) / 10 ** s, 14);
  });
});
