/**
 * How long a design stays right (issue 26): the chosen model is evaluated at 1x, 3x and 10x the
 * horizon's data and traffic; the decision names the first scale that breaks a hard limit and
 * the design for that scale. Two workloads of our own (the concert pages and the smart meters
 * of test/fixtures/headroom) and the arithmetic of the scaled workload.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { designModel } from "./design-model.js";
import { HORIZON_FACTORS, scaledWorkload } from "./horizon.js";

const FIXTURES = new URL("../../test/fixtures/headroom/", import.meta.url);

function workloadOf(file: string, edit: (text: string) => string = (text) => text): Workload {
  const loaded = loadWorkload(edit(readFileSync(new URL(file, FIXTURES), "utf8")), { file });
  if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("; "));
  return loaded.value;
}

describe("the horizon decision", () => {
  it("scales the horizon's months and every rate by the factor", () => {
    const workload = workloadOf("meters.yaml");
    const scaled = scaledWorkload(workload, 3);
    expect(scaled.scale.horizonMonths).toBe(3 * workload.scale.horizonMonths);
    scaled.accessPatterns.forEach((pattern, index) => {
      expect(pattern.rps.peak).toBe(3 * (workload.accessPatterns[index]?.rps.peak ?? 0));
      expect(pattern.rps.avg).toBe(3 * (workload.accessPatterns[index]?.rps.avg ?? 0));
    });
    expect(scaled.entities).toBe(workload.entities);
  });

  it("says a concert page at 12,000 reads/s breaks at 3x and names the design for that scale", () => {
    const workload = workloadOf("concerts.yaml", (text) => text.replace("peak: 22000", "peak: 12000"));
    const { decisions } = designModel(workload);
    const horizon = decisions.find((d) => d.id === "horizon");
    expect(horizon?.alternatives.map((a) => a.name)).toEqual([
      "as designed: 12 months of data, the stated traffic",
      "36 months of data, 3x the traffic",
      "120 months of data, 10x the traffic",
    ]);
    expect(horizon?.alternatives[0]?.errors).toBe(0);
    // 36,000 reads/s, a third on one hot concert: over what one partition serves.
    expect(horizon?.subject).toEqual({ kind: "horizon", breaksAt: 3 });
    expect(horizon?.why).toMatch(
      /breaks at 3x .*first: the hottest logical partition of \S+ needs [\d,]+ RU\/s/,
    );
    // The search at that scale spreads the hot concert over a replicated copy.
    expect(horizon?.why).toMatch(/The design for that scale: .*concerts-replicas by \/concertIdReplica/);
    // Costs grow with the scale (more RU/s, more data).
    const costs = horizon?.alternatives.map((a) => a.monthlyCostUSD) ?? [];
    expect(costs[1]).toBeGreaterThan(costs[0] ?? Infinity);
  });

  it("says when a design holds at every factor", () => {
    const workload = workloadOf("meters.yaml", (text) =>
      text.replace("peak: 2500", "peak: 25").replace("avg: 200, peak: 600", "avg: 2, peak: 6"),
    );
    const horizon = designModel(workload).decisions.find((d) => d.id === "horizon");
    expect(horizon?.subject).toEqual({ kind: "horizon" });
    expect(horizon?.why).toMatch(new RegExp(`holds every hard limit .* up to ${HORIZON_FACTORS.at(-1)}x`));
    expect(horizon?.alternatives.every((a) => a.errors === 0)).toBe(true);
  });
});
