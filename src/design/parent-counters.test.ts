/**
 * Issue 26, a count the expert keeps on the parent: where reads of a count of a parent's children
 * outweigh the writes that change it (child creates and deletes, moves to another parent), the
 * design keeps a counter on the parent's item and serves the count by a point read; with the same
 * shape but child writes dominating, it counts at read time. Each is recorded as a `counter`
 * decision with both alternatives' monthly cost. Two workloads of our own, each with its control
 * (test/fixtures/expert-classes/): a library member's loans, read exactly (kept in each loan's
 * transactional batch), and a warehouse bin's stock items, moved between bins (kept from the
 * change feed, the moves priced).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { designModel, type DesignResult } from "./design-model.js";
import type { Decision } from "./search.js";

const FIXTURES = new URL("../../test/fixtures/expert-classes/", import.meta.url);

function design(file: string): { workload: Workload; result: DesignResult } {
  const loaded = loadWorkload(readFileSync(new URL(file, FIXTURES), "utf8"), { file });
  if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("; "));
  return { workload: loaded.value, result: designModel(loaded.value) };
}

/** The item types that count `child`, with their container. */
function counters(model: Model, child: string): { container: string; type: string; as: string }[] {
  return model.containers.flatMap((container) =>
    container.items.flatMap((item) =>
      item.counts
        .filter((counter) => counter.of === child)
        .map((counter) => ({ container: container.name, type: item.type, as: counter.as })),
    ),
  );
}

/** The counter decision of `pattern`: both alternatives, the chosen one named. */
function counterDecision(decisions: readonly Decision[], pattern: string, child: string): Decision {
  const found = decisions.filter(
    (d) => d.subject.kind === "counter" && d.subject.pattern === pattern && d.subject.child === child,
  );
  expect(found).toHaveLength(1);
  const [decision] = found;
  if (decision === undefined) throw new Error("no counter decision");
  expect(decision.alternatives.map((a) => a.name)).toEqual([
    `count ${child} at read time`,
    expect.stringMatching(new RegExp(`^keep a count of ${child} in `)),
  ]);
  for (const alternative of decision.alternatives) {
    expect(alternative.monthlyCostUSD).toBeGreaterThan(0);
    expect(alternative.errors).toBe(0);
  }
  // The figures the choice rests on: the reads saved, the upkeep, the hottest logical partition.
  expect(decision.why).toMatch(/counting at read time costs [\d,]+ RU\/s at peak/);
  expect(decision.why).toMatch(/RU\/s of upkeep at peak/);
  expect(decision.why).toMatch(/of the 10,000 RU\/s one logical partition serves/);
  return decision;
}

const CASES = [
  {
    kept: "loans.yaml",
    control: "loans-kiosks.yaml",
    parent: "Member",
    child: "Loan",
    read: "M1",
    changes: ["L1", "L2"],
  },
  {
    kept: "bins.yaml",
    control: "bins-reslotted.yaml",
    parent: "Bin",
    child: "StockItem",
    read: "B1",
    changes: ["S1", "S2", "S3"],
  },
] as const;

describe("a count of a parent's children read more often than it changes", () => {
  it.each(CASES)(
    "$kept: a counter on the $parent, the count a point read",
    ({ kept, parent, child, read, changes }) => {
      const { result } = design(kept);
      const { model, evaluation } = result;
      const held = counters(model, child);
      expect(held).toHaveLength(1);
      const [counter] = held;
      expect(model.containers.flatMap((c) => c.items).find((i) => i.type === counter?.type)?.entity).toBe(
        parent,
      );
      const plan = evaluation.patterns.find((p) => p.id === read)?.plan;
      expect(plan?.operations.map((step) => step.kind)).toEqual(["pointRead"]);
      expect(plan?.notes).toContain(`count(${child}) is kept in ${counter?.type}.${counter?.as}`);
      // Every write that changes the count keeps the counter, in its batch or from the change feed.
      for (const id of changes) {
        const write = evaluation.patterns.find((p) => p.id === id)?.plan;
        const batched =
          write?.operations.some(
            (step) => step.kind === "batch" && step.operations.some((op) => op.itemType === counter?.type),
          ) === true;
        const fed =
          write?.type === "write" &&
          write.async.some((step) => step.reason === "counter" && step.itemType === counter?.type);
        expect(batched || fed, id).toBe(true);
      }
      const decision = counterDecision(result.decisions, read, child);
      const [readTime, withCounter] = decision.alternatives;
      expect(decision.chosen).toBe(withCounter?.name);
      expect(withCounter?.monthlyCostUSD).toBeLessThan(readTime?.monthlyCostUSD ?? 0);
      expect(evaluation.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    },
  );

  it.each(CASES)(
    "$control (the control): child writes dominate, the count is a query at read time",
    ({ control, child, read }) => {
      const { result } = design(control);
      const { model, evaluation } = result;
      expect(counters(model, child)).toEqual([]);
      const plan = evaluation.patterns.find((p) => p.id === read)?.plan;
      expect(plan?.operations.map((step) => [step.kind, step.withEntry])).toEqual([
        ["pointRead", undefined],
        ["query", `count(${child})`],
      ]);
      const decision = counterDecision(result.decisions, read, child);
      const [readTime, withCounter] = decision.alternatives;
      expect(decision.chosen).toBe(readTime?.name);
      expect(withCounter?.monthlyCostUSD).toBeGreaterThan(readTime?.monthlyCostUSD ?? 0);
      expect(evaluation.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    },
  );

  it("loans.yaml: the count must be exact, so the counter is in each loan's transactional batch", () => {
    const { result } = design("loans.yaml");
    for (const id of ["L1", "L2"]) {
      const plan = result.evaluation.patterns.find((p) => p.id === id)?.plan;
      expect(plan?.operations.map((step) => step.kind)).toEqual(["batch"]);
      expect(plan?.type === "write" ? plan.async : []).toEqual([]);
    }
  });

  it("loans-kiosks.yaml: counted by one query in the member's logical partition", () => {
    const { result } = design("loans-kiosks.yaml");
    const count = result.evaluation.patterns.find((p) => p.id === "M1")?.plan.operations[1];
    expect(count).toMatchObject({ kind: "query", scope: "single", partitions: 1 });
  });

  it("bins.yaml: items move between bins, so the move's counter work is priced from the change feed", () => {
    const { result } = design("bins.yaml");
    const plan = result.evaluation.patterns.find((p) => p.id === "S3")?.plan;
    const counter = plan?.type === "write" ? plan.async.find((step) => step.reason === "counter") : undefined;
    // -1 to the old bin, +1 to the new one, in the share of moves (binId changes: frequent).
    expect(counter?.steps.flatMap((step) => (step.kind === "write" ? (step.increments ?? []) : []))).toEqual([
      { property: "stockItemCount", by: -1 },
      { property: "stockItemCount", by: 1 },
    ]);
    expect(counter?.steps[0]?.times).toBe(0.5);
  });
});
