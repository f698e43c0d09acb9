/**
 * The integrated cache as a design move (issue 26): a hot read that may be stale is compared as
 * designed (a copy with replicas), as a plain query, and through a dedicated gateway's cache over
 * either, each with its monthly cost; the cache is chosen only where it is cheapest and the read
 * may use it (maxStalenessSeconds above 0, session or eventual consistency). Two workloads of our
 * own: a game's leaderboard (one key per game) and a newsroom's front page (one key for all).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MIN_PRODUCTION_GATEWAY_NODES } from "../cosmos/dedicated-gateway.js";
import { DEFAULT_PRICES } from "../cosmos/prices.js";
import { evaluateModel } from "../cost/evaluate.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { designModel } from "./design-model.js";
import { chooseIntegratedCache } from "./integrated-cache-move.js";
import { scoreModel, type Decision } from "./search.js";

const FIXTURES = new URL("../../test/fixtures/integrated-cache/", import.meta.url);

function workloadOf(file: string, edit: (text: string) => string = (text) => text): Workload {
  const loaded = loadWorkload(edit(readFileSync(new URL(file, FIXTURES), "utf8")), { file });
  if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("; "));
  return loaded.value;
}

const errorsOf = (result: ReturnType<typeof designModel>) =>
  result.evaluation.issues.filter((issue) => issue.severity === "error");

describe.each([
  ["leaderboard.yaml", 10, 20],
  ["newsroom.yaml", 30, 1],
])("%s: a hot read that may be stale", (file, staleness, keys) => {
  const workload = workloadOf(file);
  const result = designModel(workload);

  it("goes through the integrated cache, chosen against replicas and a plain query by monthly cost", () => {
    expect(result.model.integratedCache).toMatchObject({
      nodes: MIN_PRODUCTION_GATEWAY_NODES,
      patterns: ["R1"],
    });
    const decision = result.decisions.find((d) => d.subject.kind === "integratedCache");
    expect(decision?.subject).toEqual({ kind: "integratedCache", pattern: "R1", cached: true });
    const names = decision?.alternatives.map((a) => a.name) ?? [];
    // Every way of serving it is priced: the copy with replicas, a plain query, the cache over each.
    expect(names.some((name) => name.startsWith("replicas"))).toBe(true);
    expect(names).toContain("plain query (no copy)");
    expect(names.filter((name) => name.startsWith("integrated cache"))).toHaveLength(2);
    const chosen = decision?.alternatives.find((a) => a.name === decision.chosen);
    for (const other of decision?.alternatives ?? [])
      expect(chosen?.monthlyCostUSD ?? Infinity).toBeLessThanOrEqual(other.monthlyCostUSD);
    expect(chosen?.errors).toBe(0);
    // The plain query without the cache breaks a hard limit at this rate.
    expect(decision?.alternatives.find((a) => a.name === "plain query (no copy)")?.errors).toBeGreaterThan(0);
    expect(errorsOf(result)).toEqual([]);
  });

  it("stops trying reads once its work budget is spent, and names the reads left", () => {
    // The designed model (its gateway already there, so the read is always worth scoring).
    const designed = scoreModel(workload, result.model, {});
    const decisions: Decision[] = [];
    expect(chooseIntegratedCache(workload, designed, {}, decisions, 0)).toBe(designed);
    expect(decisions.map((d) => d.subject)).toEqual([
      { kind: "searchBudget", units: 0, spent: 0, skipped: 1 },
    ]);
    expect(decisions[0]?.why).toContain("R1 were not tried through the cache");
    // With its budget nothing is left untried.
    const full: Decision[] = [];
    chooseIntegratedCache(workload, designed, {}, full);
    expect(full.some((d) => d.subject.kind === "searchBudget")).toBe(false);
  });

  it("prices the gateway per node-hour and adds it to the containers' bill", () => {
    const cache = result.evaluation.integratedCache;
    expect(cache).toBeDefined();
    if (cache === undefined) return;
    expect(cache.monthlyCostUSD).toBeCloseTo(
      MIN_PRODUCTION_GATEWAY_NODES *
        DEFAULT_PRICES.dedicatedGatewayD4sPerNodeHour *
        DEFAULT_PRICES.hoursPerMonth,
      6,
    );
    const containers = result.evaluation.containers.reduce((sum, c) => sum + c.monthlyCostUSD, 0);
    expect(result.evaluation.totals.monthlyCostUSD).toBeCloseTo(containers + cache.monthlyCostUSD, 6);
    const [read] = cache.patterns;
    expect(read).toMatchObject({ id: "R1", stalenessSeconds: staleness, keys });
    // Each node asks the database once per key and staleness window at most.
    expect(read?.misses.peak ?? Infinity).toBeLessThanOrEqual(
      (MIN_PRODUCTION_GATEWAY_NODES * keys) / staleness + 1e-9,
    );
    // The database sees the misses, not the requests.
    const evaluated = result.evaluation.patterns.find((p) => p.id === "R1");
    expect(evaluated?.rus.peak ?? Infinity).toBeCloseTo(
      (read?.misses.peak ?? 0) * (evaluated?.ru.estimate ?? 0),
      6,
    );
  });
});

describe("the integrated cache is not used where it may not or does not pay", () => {
  it("a read that must see every write (no maxStalenessSeconds) is never cached", () => {
    const workload = workloadOf("newsroom.yaml", (text) => text.replace("    maxStalenessSeconds: 30\n", ""));
    const result = designModel(workload);
    expect(result.model.integratedCache).toBeUndefined();
    expect(result.decisions.some((d) => d.subject.kind === "integratedCache")).toBe(false);
  });

  it("a read at strong consistency bypasses the cache, so it is not cached", () => {
    const workload = workloadOf("leaderboard.yaml", (text) =>
      text.replace("maxStalenessSeconds: 10", "maxStalenessSeconds: 10\n    consistency: strong"),
    );
    expect(designModel(workload).model.integratedCache).toBeUndefined();
  });

  it("a read too cheap to pay for the gateway stays on the database", () => {
    const workload = workloadOf("newsroom.yaml", (text) =>
      text.replace("rps: { avg: 800, peak: 4000 }", "rps: { avg: 5, peak: 20 }"),
    );
    const result = designModel(workload);
    expect(result.model.integratedCache).toBeUndefined();
    const gateway = MIN_PRODUCTION_GATEWAY_NODES * DEFAULT_PRICES.dedicatedGatewayD4sPerNodeHour * 730;
    expect(result.evaluation.totals.monthlyCostUSD).toBeLessThan(gateway);
  });

  it("a read whose answers within a staleness window outgrow every node size is not cached", () => {
    // A million games of 200 KB scores: each node would need far more than a D16s's 32 GB.
    const workload = workloadOf("leaderboard.yaml", (text) =>
      text
        .replace("distinct: 20, skew: 0.8", "distinct: 1000000, skew: 0.8")
        .replace("count: 20\n", "count: 1000000\n")
        .replace("avgBytes: 300", "avgBytes: 200000"),
    );
    const result = designModel(workload);
    expect(result.model.integratedCache).toBeUndefined();
    expect(result.evaluation.issues.some((i) => i.code === "evaluate.integratedCacheTooSmall")).toBe(false);
  });

  it("in three regions the gateway is billed three times and still chosen when cheapest", () => {
    const workload = workloadOf("leaderboard.yaml", (text) =>
      text.replace("name: Game leaderboards", "name: Game leaderboards\nscale: { regions: 3 }"),
    );
    const result = designModel(workload);
    expect(result.evaluation.integratedCache?.regions).toBe(3);
    expect(result.evaluation.integratedCache?.monthlyCostUSD).toBeCloseTo(
      3 * MIN_PRODUCTION_GATEWAY_NODES * DEFAULT_PRICES.dedicatedGatewayD4sPerNodeHour * 730,
      6,
    );
    // Each region's cluster has its own caches: more misses than one region's.
    const single = designModel(workloadOf("leaderboard.yaml")).evaluation.integratedCache;
    expect(result.evaluation.integratedCache?.patterns[0]?.misses.peak ?? 0).toBeGreaterThan(
      2.5 * (single?.patterns[0]?.misses.peak ?? Infinity),
    );
    // Re-evaluating the written model gives the same figures (no hidden state in the design).
    expect(evaluateModel(workload, result.model).totals.monthlyCostUSD).toBeCloseTo(
      result.evaluation.totals.monthlyCostUSD,
      6,
    );
  });
});
