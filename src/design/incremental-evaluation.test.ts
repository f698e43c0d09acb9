/**
 * The design scores its candidates with an evaluator that reuses what a candidate does not change
 * (`cost/evaluation-cache.ts`). On random workloads, walking the design's rules from the baseline
 * (each rule's candidates evaluated in turn, then one of them taken), every evaluation of the
 * shared evaluator must be a fresh `evaluateModel`'s to the last bit: same plans, loads, layouts,
 * prices, issues and their order. Models that differ only in how deletes reach the change feed
 * (`deletes`) are compared too.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEvaluator, evaluateModel } from "../cost/evaluate.js";
import type { DeletePropagation, Model } from "../model/types.js";
import { loadExample } from "../test-support/evaluate-fixtures.js";
import { toWorkload, workloadDocumentArbitrary } from "../test-support/workload-arbitrary.js";
import { cacheIneligibility } from "../workload/cacheable.js";
import type { Workload } from "../workload/types.js";
import { baselineModel } from "./model-edits.js";
import { problemsOf, repairCandidates } from "./repair.js";
import { denormalizationCandidates, fanOutCandidates } from "./rules-access.js";
import {
  aggregateCandidates,
  binningCandidates,
  correlations,
  idCandidates,
  lookupCandidates,
  mergeCandidates,
  partitionKeyCandidates,
  sameKeyMergeCandidates,
} from "./rules-structure.js";
import type { Candidate } from "./search.js";

const RUNS = Number(process.env.INCREMENTAL_PROPERTY_RUNS ?? 12);

/** Every step of the walk: the candidates of one rule at the model reached so far. */
type Step = (workload: Workload, model: Model, evaluate: (model: Model) => unknown) => Candidate[];

function steps(workload: Workload): Step[] {
  const correlation = correlations(workload);
  const evaluationOf = (evaluate: (model: Model) => unknown, model: Model) =>
    evaluate(model) as ReturnType<typeof evaluateModel>;
  return [
    ...workload.relationships.map(
      (relationship): Step =>
        (w, model) =>
          aggregateCandidates(
            w,
            model,
            relationship,
            correlation.get(`${relationship.parent}>${relationship.child}`) ?? 0,
          ),
    ),
    ...workload.entities.map(
      (entity): Step =>
        (w, model) =>
          lookupCandidates(w, model, entity.name),
    ),
    ...workload.entities.map(
      (entity): Step =>
        (w, model) =>
          model.containers
            .filter((c) => c.items.some((i) => i.entity === entity.name))
            .flatMap((c) => partitionKeyCandidates(w, model, c.name)),
    ),
    ...workload.entities.map(
      (entity): Step =>
        (w, model) =>
          idCandidates(w, model, entity.name),
    ),
    ...workload.entities.map(
      (entity): Step =>
        (w, model) =>
          binningCandidates(w, model, entity.name),
    ),
    ...workload.accessPatterns.flatMap((pattern): Step[] =>
      pattern.type === "read"
        ? [
            (w, model, evaluate) =>
              denormalizationCandidates(w, model, evaluationOf(evaluate, model), pattern),
            (w, model, evaluate) => fanOutCandidates(w, model, evaluationOf(evaluate, model), pattern),
          ]
        : [],
    ),
    // The hard-limit repairs: shards, replicas, hierarchical keys, moves away from a hot key.
    (w, model, evaluate) => {
      const evaluation = evaluationOf(evaluate, model);
      return problemsOf(w, evaluation).flatMap((problem) =>
        repairCandidates(w, model, evaluation, problem, "all"),
      );
    },
    (w, model) => [...mergeCandidates(model), ...sameKeyMergeCandidates(model, w, correlation)],
  ];
}

describe("the design's shared evaluator", () => {
  it(`evaluates every candidate of the design's rules exactly as a fresh evaluation (${RUNS} workloads)`, () => {
    let compared = 0;
    let cachedModels = 0;
    fc.assert(
      fc.property(
        workloadDocumentArbitrary({ maxEntities: 4 }),
        fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
        (document, picks) => {
          const workload = toWorkload(document);
          const evaluate = createEvaluator(workload);
          const same = (model: Model): void => {
            expect(JSON.stringify(evaluate(model))).toBe(JSON.stringify(evaluateModel(workload, model)));
            compared++;
          };
          let model = baselineModel(workload);
          same(model);
          // Only how deletes reach the change feed differs: soft-delete patches, tombstone filters
          // and counted flags come and go, so no plan of the model before may be taken as is.
          same({ ...model, deletes: { mode: "allVersionsAndDeletes", retentionDays: 7 } });
          same({ ...model, deletes: { mode: "softDelete", property: "removed", ttlSeconds: 3_600 } });
          same(model);
          for (const [index, step] of steps(workload).entries()) {
            const candidates = step(workload, model, evaluate);
            for (const candidate of candidates) same(candidate.model);
            // Back to the model the step started from, then on with one candidate (or none).
            same(model);
            const pick = (picks[index % picks.length] ?? 0) % (candidates.length + 1);
            model = candidates[pick]?.model ?? model;
          }
          // Through an integrated cache the database serves the cached reads' misses: the plans
          // are shared with the uncached model's, the loads and figures are not. (Every read of
          // the walk's workload made stale-tolerant, so that some can be cached.)
          const stale: Workload = {
            ...workload,
            scale: { ...workload.scale, consistency: "session" },
            accessPatterns: workload.accessPatterns.map((p) =>
              p.type === "read" ? { ...p, consistency: "session" as const, maxStalenessSeconds: 5 } : p,
            ),
          };
          const evaluateStale = createEvaluator(stale);
          const sameStale = (m: Model): void => {
            expect(JSON.stringify(evaluateStale(m))).toBe(JSON.stringify(evaluateModel(stale, m)));
            compared++;
          };
          const eligible = stale.accessPatterns
            .filter((p) => cacheIneligibility(stale, p) === undefined)
            .map((p) => p.id);
          const cached = (patterns: string[]): Model => ({
            ...model,
            integratedCache: { size: "D4s", nodes: 3, patterns },
          });
          sameStale(model);
          // A few reads alone and growing sets of them (each a gateway's own served workload),
          // then every read at once.
          for (const [index, id] of eligible.slice(0, 3).entries()) {
            sameStale(cached([id]));
            sameStale(cached(eligible.slice(0, index + 1)));
            sameStale(model);
          }
          if (eligible.length > 3) sameStale(cached(eligible));
          if (eligible.length > 0) cachedModels++;
        },
      ),
      { numRuns: RUNS, seed: 20261124 },
    );
    // The walk compares many models, not only the baselines.
    expect(compared).toBeGreaterThan(RUNS * 5);
    // Some walks end with reads the integrated cache may serve.
    expect(cachedModels).toBeGreaterThan(0);
  }, 600_000);

  it("re-plans what depends on how deletes reach the change feed (soft-delete patches, tombstone filters, counted flags)", () => {
    const modes: readonly DeletePropagation[] = [
      { mode: "allVersionsAndDeletes", retentionDays: 7 },
      { mode: "softDelete", property: "removed", ttlSeconds: 3_600 },
      { mode: "softDelete", property: "deleted", ttlSeconds: 604_800 },
    ];
    let differing = 0;
    for (const name of ["social-reactions", "blogging", "ecommerce"]) {
      const { workload, model } = loadExample(name);
      const evaluate = createEvaluator(workload);
      const fresh = (m: Model): string => JSON.stringify(evaluateModel(workload, m));
      expect(JSON.stringify(evaluate(model))).toBe(fresh(model));
      const seen = new Set<string>();
      for (const deletes of modes) {
        const changed: Model = { ...model, deletes };
        const evaluation = JSON.stringify(evaluate(changed));
        expect(evaluation, `${name} with ${deletes.mode}`).toBe(fresh(changed));
        seen.add(evaluation);
      }
      differing += seen.size > 1 ? 1 : 0;
    }
    // The modes plan differently somewhere: the comparisons above are not all between equals.
    expect(differing).toBeGreaterThan(0);
  });
});
