/**
 * The design search's work budget (issue 14: design ends in bounded time on any workload): past
 * it, candidates are not scored, the best model found so far is returned, and a `searchBudget`
 * decision says so; the examples never reach it. Consolidation scores a bounded number of pairs.
 */
import { describe, expect, it } from "vitest";
import { loadModel } from "../model/load-model.js";
import { designedExample } from "../test-support/designed-examples.js";
import { readExampleWorkload } from "../test-support/model-examples.js";
import { serializeModel } from "../model/serialize-model.js";
import { boundedMerges } from "./design-component.js";
import {
  DESIGN_WORK_FLOOR,
  DESIGN_WORK_PER_ELEMENT,
  designModel,
  designWorkBudget,
  FIXED_WORK_PER_ELEMENT,
  FULL_SEARCH_ELEMENTS,
} from "./design-model.js";
import { generateWorkload } from "./generate-workload.js";
import { baselineModel } from "./model-edits.js";
import { candidateOfPair, mergeCandidates, mergePairs } from "./rules-structure.js";
import { scoreModel } from "./search.js";

const EXAMPLES = [
  "blogging",
  "accounts-sessions",
  "ecommerce",
  "iot-telemetry",
  "multitenant-saas",
  "social-reactions",
] as const;

describe("design search budget", () => {
  it("keeps the floor for small workloads, gives the fixed evaluations' share past it, and grows linearly", () => {
    const small = readExampleWorkload("blogging");
    expect(designWorkBudget(small)).toBe(DESIGN_WORK_FLOOR);
    const large = generateWorkload(500, { patterns: 2000 });
    expect(designWorkBudget(large)).toBe(
      DESIGN_WORK_PER_ELEMENT * (large.entities.length + large.accessPatterns.length),
    );
    // Between the two: the floor less the fixed evaluations of the elements past the full search.
    const middle = generateWorkload(100, { patterns: 400 });
    const past = middle.entities.length + middle.accessPatterns.length - FULL_SEARCH_ELEMENTS;
    expect(past).toBeGreaterThan(0);
    expect(designWorkBudget(middle)).toBe(DESIGN_WORK_FLOOR - FIXED_WORK_PER_ELEMENT * past);
    for (const patterns of [10, 100, 500, 862, 1_000, 5_000]) {
      const workload = generateWorkload(10, { patterns });
      const elements = workload.entities.length + workload.accessPatterns.length;
      expect(designWorkBudget(workload)).toBeGreaterThanOrEqual(DESIGN_WORK_PER_ELEMENT * elements);
      expect(designWorkBudget(workload)).toBeLessThanOrEqual(
        Math.max(DESIGN_WORK_FLOOR, DESIGN_WORK_PER_ELEMENT * elements),
      );
    }
  });

  it("is never reached by the examples", () => {
    for (const name of EXAMPLES) {
      // The default budget: the design every example's tests share (once per process).
      const result = designedExample(name).design;
      expect(
        result.decisions.filter((d) => d.subject.kind === "searchBudget"),
        name,
      ).toEqual([]);
      expect(
        result.decisions.some((d) => d.why.includes("were not scored")),
        name,
      ).toBe(false);
    }
  });

  it("stops scoring when spent, keeps the best model found so far and says so", () => {
    const workload = readExampleWorkload("multitenant-saas");
    const full = designedExample("multitenant-saas").design;
    const cut = designModel(workload, { workBudget: 30 });
    const budget = cut.decisions.find((d) => d.subject.kind === "searchBudget");
    expect(budget?.subject).toMatchObject({ kind: "searchBudget", units: 30 });
    if (budget?.subject.kind !== "searchBudget") throw new Error("no budget decision");
    expect(budget.subject.skipped).toBeGreaterThan(0);
    expect(budget.subject.spent).toBeGreaterThanOrEqual(30);
    // Decisions cut short never claim to be the cheapest.
    const cutShort = cut.decisions.filter((d) => d.why.includes("were not scored"));
    expect(cutShort.length).toBeGreaterThan(0);
    for (const decision of cutShort) expect(decision.why).not.toContain("is the cheapest");
    // The model returned is a real one: it loads against the workload as written.
    const loaded = loadModel(serializeModel(cut.model), { file: "model.yaml", workload });
    expect(loaded.ok).toBe(true);
    // Less search finds no better model than the full one (same workload, same rules).
    expect(cut.evaluation.totals.monthlyCostUSD).toBeGreaterThanOrEqual(
      full.evaluation.totals.monthlyCostUSD * 0.999,
    );
  });
});

describe("consolidation candidates", () => {
  it("scores a bounded number of pairs: those with the least RU/s at peak", () => {
    const workload = generateWorkload(40);
    const model = baselineModel(workload);
    const current = scoreModel(workload, model, {});
    const candidates = mergeCandidates(model);
    const limit = Math.max(45, 4 * model.containers.length);
    expect(candidates.length).toBeGreaterThan(limit);
    const kept = boundedMerges(current, candidates);
    expect(kept).toHaveLength(limit);
    // Kept in the order they came.
    const positions = kept.map((c) => candidates.indexOf(c));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const peak = new Map(current.evaluation.containers.map((c) => [c.name, c.rus.peak]));
    const pairPeak = (c: (typeof candidates)[number]): number =>
      (peak.get(c.merges?.[0] ?? "") ?? 0) + (peak.get(c.merges?.[1] ?? "") ?? 0);
    const worstKept = Math.max(...kept.map(pairPeak));
    const dropped = candidates.filter((c) => !kept.includes(c));
    expect(Math.min(...dropped.map(pairPeak))).toBeGreaterThanOrEqual(worstKept);
    // Few pairs: all of them.
    expect(boundedMerges(current, candidates.slice(0, limit))).toHaveLength(limit);
  });

  it("builds a pair's model only when it is kept, the same model as built up front", () => {
    const workload = generateWorkload(40);
    const model = baselineModel(workload);
    const current = scoreModel(workload, model, {});
    let built = 0;
    const pairs = mergePairs(model).map((pair) => ({
      ...pair,
      build: () => {
        built++;
        return pair.build();
      },
    }));
    expect(built).toBe(0);
    const kept = boundedMerges(current, pairs).map(candidateOfPair);
    expect(built).toBe(kept.length);
    const eager = boundedMerges(current, mergeCandidates(model));
    expect(kept.map((c) => [c.name, c.merges])).toEqual(eager.map((c) => [c.name, c.merges]));
    expect(kept.map((c) => serializeModel(c.model))).toEqual(eager.map((c) => serializeModel(c.model)));
  });
});
