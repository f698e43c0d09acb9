import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ITEM_OVERHEAD_BYTES, MAX_ITEM_BYTES } from "../cosmos/limits.js";
import type { Workload } from "../workload/types.js";
import { toWorkload, workloadDocumentArbitrary } from "./workload-arbitrary.js";

const SAMPLE = 300;

describe("workloadDocumentArbitrary", () => {
  const workloads: Workload[] = fc
    .sample(workloadDocumentArbitrary(), { numRuns: SAMPLE, seed: 11 })
    .map((document) => toWorkload(document));
  const reads = workloads.flatMap((w) => w.accessPatterns.flatMap((p) => (p.type === "read" ? [p] : [])));
  const writes = workloads.flatMap((w) => w.accessPatterns.flatMap((p) => (p.type === "write" ? [p] : [])));
  const entities = workloads.flatMap((w) => w.entities);
  const attributes = entities.flatMap((e) => e.attributes);

  it("generates documents the loader accepts without an error", () => {
    // toWorkload throws with the loader's issues otherwise; every sample got here.
    expect(workloads).toHaveLength(SAMPLE);
  });

  it("uses every filter kind, every `with` entry and every write operation", () => {
    const ops = new Set(reads.flatMap((p) => p.where.map((w) => w.op)));
    expect([...ops].sort()).toEqual(["contains", "eq", "in", "prefix", "range"]);
    const withKinds = new Set(
      reads.flatMap((p) => p.with.map((w) => (w.kind === "aggregate" ? `aggregate:${w.fn}` : w.kind))),
    );
    expect([...withKinds].sort()).toEqual([
      "aggregate:max",
      "aggregate:min",
      "aggregate:sum",
      "all",
      "attribute",
      "count",
      "latest",
    ]);
    expect(new Set(writes.map((p) => p.operation))).toEqual(
      new Set(["create", "upsert", "replace", "patch", "delete"]),
    );
    expect(reads.some((p) => p.where.length === 0)).toBe(true);
    expect(reads.some((p) => p.select !== undefined)).toBe(true);
    expect(reads.some((p) => p.truncate.length > 0)).toBe(true);
    expect(reads.some((p) => p.orderBy.length > 0 && p.limit !== undefined)).toBe(true);
    expect(reads.some((p) => p.consistency !== undefined)).toBe(true);
    expect(writes.some((p) => p.batch > 1)).toBe(true);
    expect(writes.some((p) => p.changes !== undefined)).toBe(true);
  });

  it("builds forests with every relationship kind, TTL, skew, uniqueness and change frequencies", () => {
    const kinds = new Set(workloads.flatMap((w) => w.relationships.map((r) => r.kind)));
    expect(kinds).toEqual(new Set(["one-to-many", "one-to-one", "many-to-many"]));
    expect(workloads.some((w) => w.relationships.some((r) => r.owned))).toBe(true);
    expect(workloads.some((w) => w.relationships.some((r) => r.max === undefined))).toBe(true);
    expect(workloads.some((w) => w.entities.length >= 5)).toBe(true);
    expect(workloads.some((w) => w.entities.length === 1)).toBe(true);
    // A forest: every entity has at most one parent through a `via`.
    for (const workload of workloads) {
      for (const entity of workload.entities) {
        const parents = workload.relationships.filter((r) => r.child === entity.name && r.via !== undefined);
        expect(parents.length).toBeLessThanOrEqual(1);
      }
    }
    expect(entities.some((e) => e.ttlSeconds !== undefined)).toBe(true);
    expect(attributes.some((a) => a.skew > 0)).toBe(true);
    expect(attributes.some((a) => a.unique)).toBe(true);
    expect(new Set(attributes.map((a) => a.changes))).toEqual(new Set(["never", "rare", "frequent"]));
    expect(new Set(attributes.map((a) => a.type))).toEqual(
      new Set(["string", "number", "boolean", "datetime", "object", "array"]),
    );
  });

  it("draws the shapes of issue 11: hot filters, request skew, sparse attributes, atomicWith, binning", () => {
    // Hot filters: newest 20 by a value of at most 100, at a tenth of the top rate or more.
    const hot = reads.filter(
      (p) => p.limit === 20 && p.rps.peak >= 5_000 && p.where.length === 1 && p.where[0]?.op === "eq",
    );
    expect(hot.length).toBeGreaterThan(0);
    expect(new Set([...reads, ...writes].map((p) => p.skew))).toEqual(new Set([undefined, 0, 1, 2]));
    expect(attributes.some((a) => a.presence < 1)).toBe(true);
    expect(
      workloads.filter((w) => w.relationships.filter((r) => r.kind === "many-to-many").length >= 2).length,
    ).toBeGreaterThan(0);
    const atomic = workloads.flatMap((w) =>
      w.accessPatterns.flatMap((p) => (p.type === "write" && p.atomicWith.length > 0 ? [{ w, p }] : [])),
    );
    expect(atomic.length).toBeGreaterThan(10);
    const related = atomic.filter(({ w, p }) => {
      const partner = w.accessPatterns.find((q) => q.id === p.atomicWith[0]);
      return (
        partner?.entity === p.entity ||
        w.relationships.some(
          (r) =>
            r.via !== undefined &&
            ((r.parent === p.entity && r.child === partner?.entity) ||
              (r.child === p.entity && r.parent === partner?.entity)),
        )
      );
    });
    expect(related.length).toBeGreaterThan(0);
    expect(related.length).toBeLessThan(atomic.length);
    expect(new Set(entities.map((e) => e.binning?.kind ?? "design")).size).toBeGreaterThanOrEqual(3);
    expect(writes.some((p) => p.bufferedRecords > 1)).toBe(true);
    expect(new Set(reads.map((p) => p.maxStalenessSeconds))).toEqual(new Set([undefined, 0, 5]));
  });

  it("draws composite keys: a child keyed by its parent's key and its own, its children holding both", () => {
    const composite = workloads.filter((w) => w.entities.some((e) => e.key.length > 1));
    expect(composite.length).toBeGreaterThan(SAMPLE / 10);
    expect(composite.length).toBeLessThan(SAMPLE / 3);
    for (const workload of composite) {
      const link = workload.entities.find((e) => e.key.length > 1);
      const parent = workload.relationships.find((r) => r.child === link?.name && r.via !== undefined);
      expect(link?.key[0]).toBe(parent?.via?.[0]);
    }
    const viaLists = workloads.flatMap((w) => w.relationships.filter((r) => (r.via?.length ?? 0) > 1));
    expect(viaLists.length).toBeGreaterThan(0);
  });

  it("draws composite keys last: without them, each (seed, index) gives the workload it gave before", () => {
    const documents = (compositeKeys: boolean) =>
      fc.sample(workloadDocumentArbitrary({ compositeKeys }), { numRuns: 40, seed: 11 });
    const withKeys = documents(true);
    const without = documents(false);
    const same = withKeys.filter(
      (document, index) => JSON.stringify(document) === JSON.stringify(without[index]),
    );
    // Only the documents that drew a composite key differ, and only in it (a write of the link
    // no longer lists the parent's key in its `changes`).
    expect(same.length).toBeGreaterThan(20);
    expect(same.length).toBeLessThan(40);
    const withoutChanges = (patterns: unknown) =>
      (patterns as Record<string, unknown>[]).map(({ changes: _changes, ...rest }) => rest);
    withKeys.forEach((document, index) => {
      expect(withoutChanges(document["accessPatterns"])).toEqual(
        withoutChanges(without[index]?.["accessPatterns"]),
      );
      expect(Object.keys(document["entities"] as object)).toEqual(
        Object.keys(without[index]?.["entities"] as object),
      );
    });
  });

  it("spans sizes from 100 B to 2 MB and rates from 0.01 to 50,000 requests/s", () => {
    const sizes = entities.map((e) => e.avgBytes);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(100);
    expect(Math.min(...sizes)).toBeLessThan(200);
    expect(Math.max(...sizes)).toBe(MAX_ITEM_BYTES - ITEM_OVERHEAD_BYTES);
    expect(sizes.filter((s) => s > 1000 && s < 100_000).length).toBeGreaterThan(sizes.length / 10);
    const rates = workloads.flatMap((w) => w.accessPatterns.map((p) => p.rps));
    expect(Math.min(...rates.map((r) => r.avg))).toBeLessThan(0.02);
    expect(Math.max(...rates.map((r) => r.peak))).toBe(50_000);
    expect(rates.every((r) => r.peak >= r.avg && r.peak <= 50_000 && r.avg >= 0.01)).toBe(true);
    expect(rates.filter((r) => r.avg > 1 && r.avg < 1000).length).toBeGreaterThan(rates.length / 5);
  });

  it("narrows its ranges on request", () => {
    const small = fc
      .sample(
        workloadDocumentArbitrary({ maxEntities: 2, rates: [1, 10], sizes: [500, 600], counts: [10, 100] }),
        { numRuns: 50, seed: 3 },
      )
      .map((document) => toWorkload(document));
    for (const workload of small) {
      expect(workload.entities.length).toBeLessThanOrEqual(2);
      for (const entity of workload.entities) {
        expect(entity.avgBytes).toBeGreaterThanOrEqual(500);
        expect(entity.avgBytes).toBeLessThanOrEqual(600);
        expect(entity.count).toBeLessThanOrEqual(100);
      }
      for (const pattern of workload.accessPatterns) expect(pattern.rps.peak).toBeLessThanOrEqual(10);
    }
  });
});
