/**
 * Issue 14: the evaluation's work is bounded independently of counts, rates and partition
 * numbers, and every figure it gives is finite. Each case is one of the extremes that took the
 * process down (out of memory, "invalid table size", minutes of work).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { formatIssue } from "../common/issues.js";
import type { Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { parseModel } from "../test-support/evaluate-fixtures.js";
import { nonFiniteNumbers } from "../test-support/finite-numbers.js";
import { readExample } from "../test-support/model-examples.js";
import { evaluateModel } from "./evaluate.js";
import { MAX_LAYOUT_PARTITIONS, splitTrials } from "./layout.js";
import { BYTES_PER_GB, MAX_CONTAINER_STORAGE_GB, MAX_PHYSICAL_PARTITIONS } from "../cosmos/limits.js";
import { MAX_HORIZON_MONTHS } from "../workload/raw-schema.js";

type Edit = (document: ReturnType<typeof parseDocument>) => void;

function editedWorkload(example: string, edit: Edit = () => undefined): Workload {
  const document = parseDocument(readExample(`${example}/workload.yaml`));
  edit(document);
  const loaded = loadWorkload(document.toString(), { file: `${example}/workload.yaml` });
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  return loaded.value;
}

function editedModel(example: string, workload: Workload, edit: Edit = () => undefined): Model {
  const document = parseDocument(readExample(`${example}/expert-model.yaml`));
  edit(document);
  return parseModel(document.toString(), workload);
}

/** Evaluates and checks the figures are finite; returns the time taken in ms. */
function evaluateTimed(workload: Workload, model: Model): number {
  const start = performance.now();
  const evaluation = evaluateModel(workload, model);
  const elapsed = performance.now() - start;
  expect(nonFiniteNumbers(evaluation)).toEqual([]);
  return elapsed;
}

describe("splitTrials", () => {
  it("tries every count one by one for the partition counts real containers have", () => {
    expect([...splitTrials(3, 8)].slice(0, 10)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const trials = [...splitTrials(100, 256)];
    expect(trials.slice(0, 301)).toEqual(Array.from({ length: 301 }, (_, i) => 100 + i));
    expect(trials.at(-1)).toBe(MAX_LAYOUT_PARTITIONS);
  });

  it("tries a bounded number of counts however many partitions or keys there are, ending at four times the base (or the layout maximum)", () => {
    for (const base of [1, 70, 123_456, 6e7, 1e15, 1e20]) {
      for (const keys of [1, 256, 100_000]) {
        const trials = [...splitTrials(base, keys)];
        expect(trials[0]).toBe(base);
        expect(trials.at(-1)).toBe(Math.max(base * 4, MAX_LAYOUT_PARTITIONS));
        expect(trials.length).toBeLessThanOrEqual(Math.max(64, 200_000 / keys) + 65);
        expect(trials.every((count, index) => index === 0 || count > (trials[index - 1] ?? 0))).toBe(true);
      }
    }
  });
});

describe("splitTrials from a count", () => {
  it("gives the same counts as the whole sequence from that count on", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 1, max: 3_000 }), fc.constantFrom(123_456, 6e7, 1e15)),
        fc.constantFrom(1, 8, 256, 5_000, 100_000),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (base, keys, at) => {
          const all = [...splitTrials(base, keys)];
          const from = Math.round(base + at * ((all.at(-1) ?? base) - base + 2));
          expect([...splitTrials(base, keys, from)]).toEqual(all.filter((count) => count >= from));
        },
      ),
    );
  });
});

describe("evaluateModel on extreme but valid inputs (bounded work, finite figures)", () => {
  it("a model pinned at the most physical partitions a container can have (42,949,673)", () => {
    const workload = editedWorkload("blogging");
    const model = editedModel("blogging", workload, (d) =>
      d.setIn(["containers", 0, "physicalPartitions"], MAX_PHYSICAL_PARTITIONS),
    );
    expect(evaluateTimed(workload, model)).toBeLessThan(5_000);
  });

  it("100,000 replicas of the feed", () => {
    const workload = editedWorkload("blogging");
    const model = editedModel("blogging", workload, (d) =>
      d.setIn(["containers", 2, "items", 0, "replicas"], 100_000),
    );
    expect(evaluateTimed(workload, model)).toBeLessThan(5_000);
  });

  it("a write-sharded container keyed by the shard alone (20 logical partitions for 10 billion reactions)", () => {
    const workload = editedWorkload("social-reactions");
    const model = editedModel("social-reactions", workload, (d) => {
      // A delete event of a key without the post cannot reach its counter: soft deletes.
      d.deleteIn(["deletes"]);
      d.setIn(["containers", 0, "items", 0, "partitionKey"], d.createNode(["{shard}"]));
    });
    const start = performance.now();
    const evaluation = evaluateModel(workload, model);
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(nonFiniteNumbers(evaluation)).toEqual([]);
    expect(evaluation.issues.map((issue) => issue.code)).toContain("evaluate.hotPartition");
  });

  it.each([
    // As many 3,000-byte posts as one container can hold (more is refused by the loader).
    [
      "7e14 posts",
      ["entities", "Post", "count"],
      Math.floor((MAX_CONTAINER_STORAGE_GB * BYTES_PER_GB) / 3000 / 1e12) * 1e12,
    ],
    ["a relationship of 1e8 children on average", ["relationships", 0, "avg"], 1e8],
    ["a peak of 10,000,000 requests/s", ["accessPatterns", 0, "rps", "peak"], 1e7],
    ["the longest horizon, 1,200 months", ["scale", "horizonMonths"], MAX_HORIZON_MONTHS],
  ] as const)("the blogging expert model with %s", (_, path, value) => {
    const workload = editedWorkload("blogging", (d) => {
      d.setIn(path, value);
      if (path[0] === "relationships") d.deleteIn(["relationships", 0, "max"]);
    });
    const model = editedModel("blogging", workload);
    expect(evaluateTimed(workload, model)).toBeLessThan(5_000);
  });
});
