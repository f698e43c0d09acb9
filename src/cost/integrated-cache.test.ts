import { describe, expect, it } from "vitest";
import { DEFAULT_PRICES } from "../cosmos/prices.js";
import {
  cacheMissesPerSecond,
  gatewayCacheBytes,
  gatewayMonthlyCostUSD,
  keysPerNodeWindow,
} from "./integrated-cache.js";

describe("cacheMissesPerSecond (TTL cache per node, Jung et al. 2003)", () => {
  it("one key read 2,000 times/s through 3 nodes with a 5 s window: 2000 / (1 + 2000 x 5 / 3) = 0.59982/s", () => {
    expect(cacheMissesPerSecond({ rate: 2000, keys: 1, skew: 0, stalenessSeconds: 5, nodes: 3 })).toBeCloseTo(
      0.59982,
      5,
    );
  });
  it("1,000 keys alike at 100 requests/s, 10 s window, 1 node: each key 0.1/s misses 0.1 / (1 + 1) = 0.05/s, 50/s in all", () => {
    expect(
      cacheMissesPerSecond({ rate: 100, keys: 1000, skew: 0, stalenessSeconds: 10, nodes: 1 }),
    ).toBeCloseTo(50, 9);
  });
  it("two keys with skew 1 (shares 2/3 and 1/3 of 30/s), 1 s window, 1 node: 20/21 + 10/11 = 1.861472/s", () => {
    expect(cacheMissesPerSecond({ rate: 30, keys: 2, skew: 1, stalenessSeconds: 1, nodes: 1 })).toBeCloseTo(
      20 / 21 + 10 / 11,
      9,
    );
  });
  it("never misses more than min(rate, keys x nodes / window): at most once per key, window and node", () => {
    const cases = [
      { rate: 10_000, keys: 100, skew: 0, stalenessSeconds: 60, nodes: 2 },
      { rate: 5, keys: 1_000_000, skew: 0, stalenessSeconds: 60, nodes: 3 },
      { rate: 2_000, keys: 3_000_000, skew: 0.9, stalenessSeconds: 30, nodes: 5 },
      { rate: 50, keys: 10, skew: 1.2, stalenessSeconds: 1, nodes: 3 },
    ];
    for (const traffic of cases) {
      const misses = cacheMissesPerSecond(traffic);
      expect(misses).toBeLessThanOrEqual(
        Math.min(traffic.rate, (traffic.keys * traffic.nodes) / traffic.stalenessSeconds) + 1e-9,
      );
      expect(misses).toBeGreaterThan(0);
    }
    // 100 keys at 100/s each, 2 nodes, 60 s: 100 x 100 / (1 + 100 x 60 / 2) = 3.3322, just under 100 x 2 / 60 = 3.3333.
    expect(
      cacheMissesPerSecond({ rate: 10_000, keys: 100, skew: 0, stalenessSeconds: 60, nodes: 2 }),
    ).toBeCloseTo((100 * 100) / 3001, 9);
  });
  it("integrates the tail of a skewed key set past 10,000 ranks within 0.1% of the sum rank by rank", () => {
    const traffic = { rate: 800, keys: 60_000, skew: 0.8, stalenessSeconds: 20, nodes: 3 };
    let h = 0;
    for (let k = 1; k <= traffic.keys; k++) h += k ** -traffic.skew;
    let direct = 0;
    for (let k = 1; k <= traffic.keys; k++) {
      const lambda = (traffic.rate * k ** -traffic.skew) / h;
      direct += lambda / (1 + (lambda * traffic.stalenessSeconds) / traffic.nodes);
    }
    expect(Math.abs(cacheMissesPerSecond(traffic) / direct - 1)).toBeLessThan(0.001);
  });
  it("a window of 0 caches nothing", () => {
    expect(cacheMissesPerSecond({ rate: 40, keys: 1, skew: 0, stalenessSeconds: 0, nodes: 3 })).toBe(40);
  });
});

describe("keysPerNodeWindow", () => {
  it("1,000 keys alike at 10/s, 60 s window, 3 nodes: 1000 x (1 - exp(-0.01 x 60 / 3)) = 181.27", () => {
    expect(keysPerNodeWindow({ rate: 10, keys: 1000, skew: 0, stalenessSeconds: 60, nodes: 3 })).toBeCloseTo(
      1000 * (1 - Math.exp(-0.2)),
      6,
    );
  });
});

describe("gateway cost and size", () => {
  it("3 D4s nodes for a 730-hour month at the price table's rate; a second region doubles it", () => {
    const perHour = DEFAULT_PRICES.dedicatedGatewayD4sPerNodeHour;
    expect(gatewayMonthlyCostUSD(DEFAULT_PRICES, "D4s", 3, 1)).toBeCloseTo(3 * perHour * 730, 9);
    expect(gatewayMonthlyCostUSD(DEFAULT_PRICES, "D4s", 3, 2)).toBeCloseTo(6 * perHour * 730, 9);
    expect(gatewayMonthlyCostUSD({ ...DEFAULT_PRICES, dedicatedGatewayD8sPerNodeHour: 1 }, "D8s", 2, 1)).toBe(
      1460,
    );
  });
  it("a D4s node caches about half of its 16 GB", () => {
    expect(gatewayCacheBytes("D4s")).toBe(8 * 1024 ** 3);
  });
});
