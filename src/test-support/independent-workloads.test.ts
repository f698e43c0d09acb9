import { describe, expect, it } from "vitest";
import { formatIssue } from "../common/issues.js";
import { loadWorkload } from "../workload/load-workload.js";
import {
  generateIndependentWorkload,
  independentWorkloadFigures,
  INDEPENDENT_WORKLOAD_FEATURES,
  type IndependentWorkload,
} from "./independent-workloads.js";
import { createRandom } from "./independent-workloads-random.js";

const SEEDS = Array.from({ length: 300 }, (_, index) => index + 1);
const workloads = SEEDS.map((seed) => generateIndependentWorkload(seed));

/** The error-severity issues of a workload's text, one per line with the seed. */
function errorsOf(workload: IndependentWorkload): string[] {
  const result = loadWorkload(workload.text, { file: `seed-${workload.seed}.yaml` });
  return result.issues
    .filter((issue) => issue.severity === "error")
    .map((issue) => `seed ${workload.seed}: ${formatIssue(issue)}`);
}

describe("generateIndependentWorkload", () => {
  it("writes 300 workloads the loader accepts without an error", () => {
    const errors = workloads.flatMap(errorsOf);
    expect(errors, errors.slice(0, 20).join("\n")).toEqual([]);
  });

  it("gives the same text and features for the same seed, and different texts for different seeds", () => {
    for (const seed of [1, 17, 123456, 2 ** 31 + 5]) {
      const first = generateIndependentWorkload(seed);
      const second = generateIndependentWorkload(seed);
      expect(second.text).toBe(first.text);
      expect(second.features).toEqual(first.features);
      expect(second.document).toEqual(first.document);
    }
    expect(new Set(workloads.map((workload) => workload.text)).size).toBe(workloads.length);
  });

  it("draws every feature in at least 3% of 300 workloads (composite keys included)", () => {
    const rare = INDEPENDENT_WORKLOAD_FEATURES.map(
      (feature) =>
        [feature, workloads.filter((workload) => workload.features.includes(feature)).length] as const,
    ).filter(([, count]) => count < 9);
    expect(rare).toEqual([]);
  });

  it("claims a feature exactly when the document or its text shows it", () => {
    interface Relationship {
      parent: string;
      child: string;
      via?: string;
      kind?: string;
    }
    interface Doc {
      entities: Record<string, { key: unknown }>;
      relationships?: Relationship[];
      accessPatterns: {
        type: string;
        where?: object;
        with?: string[];
        atomicWith?: string[];
        batch?: number;
      }[];
    }
    const oneToMany = (doc: Doc) => (doc.relationships ?? []).filter((r) => r.kind !== "many-to-many");
    const checks: Record<string, (doc: Doc, text: string) => boolean> = {
      selfRelationship: (doc) => oneToMany(doc).some((r) => r.parent === r.child),
      manyToMany: (doc) => (doc.relationships ?? []).some((r) => r.kind === "many-to-many"),
      twoRelationshipsSamePair: (doc) =>
        oneToMany(doc).some((r, i, all) =>
          all.some((o, j) => j !== i && o.parent === r.parent && o.child === r.child),
        ),
      // The Like shape: Like.userId -> User, Like.postId -> Post, Post.userId -> User.
      sameViaTwoPaths: (doc) =>
        oneToMany(doc).some((direct, _, all) =>
          all.some(
            (through) =>
              through.child === direct.child &&
              through.parent !== direct.parent &&
              through.parent !== direct.child &&
              all.some(
                (upper) =>
                  upper.child === through.parent &&
                  upper.parent === direct.parent &&
                  upper.via === direct.via,
              ),
          ),
        ),
      keyNamedId: (doc) => Object.values(doc.entities).some((entity) => entity.key === "id"),
      "with:latest": (doc) =>
        doc.accessPatterns.some((p) => (p.with ?? []).some((e) => e.startsWith("latest("))),
      "where:none": (doc) => doc.accessPatterns.some((p) => p.type === "read" && p.where === undefined),
      atomicWith: (doc) => doc.accessPatterns.some((p) => p.atomicWith !== undefined),
      batch: (doc) => doc.accessPatterns.some((p) => p.batch !== undefined),
      flowYaml: (_, text) => /(: |- )[{[] /.test(text),
    };
    for (const workload of workloads) {
      for (const [feature, check] of Object.entries(checks)) {
        const claimed = workload.features.includes(feature as (typeof workload.features)[number]);
        expect(claimed, `seed ${workload.seed} ${feature}`).toBe(
          check(workload.document as unknown as Doc, workload.text),
        );
      }
    }
  });

  it("keeps to maxEntities, and to one key attribute when composite keys are not asked for", () => {
    for (const maxEntities of [1, 2, 7]) {
      for (const seed of SEEDS.slice(0, 20)) {
        const { document } = generateIndependentWorkload(seed, { maxEntities });
        const entities = Object.values(document["entities"] as Record<string, { key: unknown }>);
        expect(entities.length).toBeGreaterThanOrEqual(1);
        expect(entities.length).toBeLessThanOrEqual(maxEntities);
      }
    }
    const counts = workloads.map((workload) => Object.keys(workload.document["entities"] as object).length);
    expect(Math.max(...counts)).toBe(4);
    const single = SEEDS.slice(0, 100).map((seed) =>
      generateIndependentWorkload(seed, { compositeKeys: false }),
    );
    const keys = single.flatMap((workload) =>
      Object.values(workload.document["entities"] as Record<string, { key: unknown }>).map(
        (entity) => entity.key,
      ),
    );
    expect(keys.every((key) => typeof key === "string")).toBe(true);
    expect(single.some((workload) => workload.features.includes("compositeKey"))).toBe(false);
  });

  it("draws list keys by default, which the loader accepts with the rest", () => {
    const withList = workloads.filter((workload) => workload.features.includes("compositeKey"));
    expect(withList.length).toBeGreaterThan(30);
    for (const workload of withList) {
      const entities = Object.values(workload.document["entities"] as Record<string, { key: unknown }>);
      expect(entities.some((entity) => Array.isArray(entity.key))).toBe(true);
      const loaded = loadWorkload(workload.text);
      expect(loaded.ok && loaded.value.entities.some((entity) => entity.key.length > 1)).toBe(true);
    }
  });

  it("summarises a batch: counts, spreads and feature shares", () => {
    const figures = independentWorkloadFigures(workloads);
    expect(figures).toMatch(/^300 independent workloads\n/);
    expect(figures).toMatch(/entities 1\/\d\/4, relationships \d+\/\d+\/\d+, access patterns \d+\/\d+\/\d+/);
    expect(figures).toContain("linkEntity ");
    expect(figures).not.toContain("never drawn: sameViaTwoPaths");
    expect(independentWorkloadFigures([])).toContain("0 independent workloads");
  });
});

describe("createRandom", () => {
  it("repeats its sequence for a seed and stays in [0, 1)", () => {
    const draws = (seed: number) => Array.from({ length: 1000 }, createRandom(seed).next);
    expect(draws(3)).toEqual(draws(3));
    expect(draws(3)).not.toEqual(draws(4));
    expect(draws(9).every((value) => value >= 0 && value < 1)).toBe(true);
  });
});
