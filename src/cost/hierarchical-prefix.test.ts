/**
 * A hierarchical key is placed by its first level (issue 11, hot.yaml of its audit): a hot
 * first-level value loads one physical partition however many logical partitions its second
 * level makes, until its data outgrows a partition and storage splits spread it.
 */
import { describe, expect, it } from "vitest";
import { formatIssue } from "../common/issues.js";
import { MAX_PHYSICAL_PARTITION_RUS } from "../cosmos/limits.js";
import { parseModel } from "../test-support/evaluate-fixtures.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { evaluateModel } from "./evaluate.js";

/** Bets placed at 50,000/s; one event in 1,000 takes most of them (skew 2). */
function bets(count: number, avgBytes: number): Workload {
  const loaded = loadWorkload(`
version: 1
name: bets
entities:
  Bet:
    key: betId
    count: ${count}
    avgBytes: ${avgBytes}
    attributes:
      betId: string
      eventId: { type: string, distinct: 1000, skew: 2 }
      placedAt: datetime
accessPatterns:
  - { id: C1, name: place bet, type: write, operation: create, entity: Bet, rps: { avg: 20000, peak: 50000 } }
  - { id: Q1, name: bets of event, type: read, entity: Bet, where: { eventId: eq }, orderBy: { placedAt: desc }, limit: 20, rps: { avg: 100, peak: 300 } }
`);
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  return loaded.value;
}

const byEventAndBet = `
version: 1
containers:
  - name: bets
    partitionKey: [/eventId, /betId]
    items:
      - { type: bet, entity: Bet, id: "{betId}", partitionKey: ["{eventId}", "{betId}"] }
`;

describe("hierarchical keys with a hot first level", () => {
  it("put the hot value's load on one physical partition, not on one logical partition", () => {
    const workload = bets(10_000_000, 500);
    const evaluation = evaluateModel(workload, parseModel(byEventAndBet, workload));
    const codes = evaluation.issues.filter((i) => i.severity === "error").map((i) => i.code);
    expect(codes).toContain("evaluate.hotPhysicalPartition");
    expect(codes).not.toContain("evaluate.hotPartition");
    const bets0 = evaluation.containers[0];
    expect(bets0?.hottestLogicalPartition.rus).toBeLessThan(MAX_PHYSICAL_PARTITION_RUS);
    expect(bets0?.hottestPhysicalPartition.rus).toBeGreaterThan(MAX_PHYSICAL_PARTITION_RUS);
  });

  it("spread a value whose data spans many physical partitions over them", () => {
    // 20 TB of bets: the hottest event's ~12 TB span about 240 partitions after storage splits.
    const large = bets(10_000_000_000, 2_000);
    const small = bets(10_000_000, 500);
    const hottest = (workload: Workload) =>
      evaluateModel(workload, parseModel(byEventAndBet, workload)).containers[0]?.hottestPhysicalPartition
        .rus ?? 0;
    expect(hottest(large)).toBeLessThan(hottest(small) / 10);
  });
});
