/**
 * Many-to-many `with` entries on random valid workloads (src/test-support/workload-arbitrary.ts,
 * those with a many-to-many pair): to each, a read of one side by its key asking for an
 * attribute of the other side, and a write that renames that attribute. The design must keep the
 * property of every design (design-property.ts) and serve the read from an array copy whenever
 * the array fits the design's bound, with the rename's propagation planned as a fan-out over the
 * holders linked to the renamed record (their number from the relationship's own figures) and
 * costed as the sum of its steps. `MANY_TO_MANY_PROPERTY_RUNS` sets the sample (default 8, about 15 s).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { designModel } from "./design-model.js";
import { loadModel } from "../model/load-model.js";
import { createPlanningContext } from "../planner/context.js";
import { manyToManyCopyBytes } from "../planner/item-shape.js";
import { MANY_TO_MANY_COPY_MAX_BYTES, manyToManyLink } from "../planner/many-to-many.js";
import { designProblems } from "../test-support/design-property.js";
import {
  toWorkload,
  workloadDocumentArbitrary,
  workloadText,
  type WorkloadDocument,
} from "../test-support/workload-arbitrary.js";

const RUNS = Number(process.env.MANY_TO_MANY_PROPERTY_RUNS ?? 8);
const SEED = 20261125;

interface EntityDoc {
  readonly key: string;
  readonly count: number;
  readonly attributes?: Record<string, unknown>;
}
interface RelationshipDoc {
  readonly parent: string;
  readonly child: string;
  readonly kind?: string;
  readonly avg: number;
}

/** A workload with a many-to-many pair, a read across it and a rename of the copied attribute. */
const manyToManyWorkloads = workloadDocumentArbitrary({ maxEntities: 4 })
  .filter(
    (document) =>
      (document["relationships"] as RelationshipDoc[] | undefined)?.some((r) => r.kind === "many-to-many") ===
      true,
  )
  .chain((document) => {
    const pairs = (document["relationships"] as RelationshipDoc[]).filter((r) => r.kind === "many-to-many");
    return fc.tuple(
      fc.constant(document),
      fc.constantFrom(...pairs),
      fc.boolean(),
      fc.nat(),
      fc.constantFrom(1, 50, 2000),
      fc.constantFrom(0.01, 1, 20),
    );
  })
  .map(([document, pair, parentHolds, pick, readRate, renameRate]) => {
    const entities = document["entities"] as Record<string, EntityDoc>;
    const holder = parentHolds ? pair.parent : pair.child;
    const source = parentHolds ? pair.child : pair.parent;
    const sourceEntity = entities[source];
    const attributes = Object.keys(sourceEntity?.attributes ?? {}).filter(
      (name) => name !== sourceEntity?.key,
    );
    const attribute = attributes[pick % Math.max(1, attributes.length)] ?? sourceEntity?.key ?? "";
    const patterns = [
      ...(document["accessPatterns"] as unknown[]),
      {
        id: "QM",
        name: `a ${holder} with the ${attribute} of its ${source} records`,
        type: "read",
        entity: holder,
        where: { [entities[holder]?.key ?? ""]: "eq" },
        with: [`${source}.${attribute}`],
        rps: { avg: readRate, peak: readRate * 3 },
      },
      ...(attribute === sourceEntity?.key
        ? []
        : [
            {
              id: "WM",
              name: `rename a ${source}'s ${attribute}`,
              type: "write",
              operation: "patch",
              entity: source,
              changes: [attribute],
              rps: { avg: renameRate, peak: renameRate * 2 },
            },
          ]),
    ];
    return {
      document: { ...document, accessPatterns: patterns } as WorkloadDocument,
      holder,
      source,
      attribute,
      pair,
    };
  });

describe("many-to-many with entries on random workloads", () => {
  it(`are served by an array copy kept by a fan-out propagation, whenever it fits (${RUNS} workloads)`, () => {
    fc.assert(
      fc.property(manyToManyWorkloads, ({ document, holder, source, attribute, pair }) => {
        const workload = toWorkload(document);
        const result = designModel(workload);
        const text = workloadText(document);
        const reload = (model: string) => loadModel(model, { file: "model.yaml", workload });
        expect(designProblems(result, reload), text).toEqual([]);
        const context = createPlanningContext(workload, result.model);
        const link = manyToManyLink(context, holder, source);
        if (link === undefined) throw new Error("the pair is many-to-many");
        // Counts at the horizon, from the entities themselves: holders of one source record.
        const parents = context.countAtHorizon(pair.parent);
        const children = context.countAtHorizon(pair.child);
        const expected = holder === pair.parent ? (pair.avg * parents) / children : pair.avg;
        const read = result.evaluation.patterns.find((p) => p.id === "QM");
        const fits =
          manyToManyCopyBytes(context, { from: { entity: source, attribute }, as: "x" }, link).max <=
          MANY_TO_MANY_COPY_MAX_BYTES;
        const holders = result.model.containers.flatMap((container) =>
          container.items
            .filter((item) => item.entity === holder && item.source === undefined)
            .flatMap((item) =>
              item.copies
                .filter((copy) => copy.from.entity === source && copy.from.attribute === attribute)
                .map((copy) => ({ container, item, copy })),
            ),
        );
        if (!fits) {
          // Not offered: the read stays unserved and says why (no array that large in an item).
          expect(holders, text).toEqual([]);
          expect(read?.plan.served, text).toBe(false);
          return;
        }
        // The read is answered in place (a copy on its item, or on the item it reads).
        expect(read?.plan.served, text).toBe(true);
        expect(read?.plan.notes.join(" "), text).toMatch(
          new RegExp(`${source}\\.${attribute} is copied into`),
        );
        const rename = result.evaluation.patterns.find((p) => p.id === "WM")?.plan;
        if (rename?.type !== "write" || holders.length === 0) return;
        const propagations = rename.async.filter(
          (step) => step.reason === "propagate" && step.itemType === holders[0]?.item.type,
        );
        expect(propagations.length, text).toBe(1);
        const [find, patch] = propagations[0]?.steps ?? [];
        expect(find?.kind === "query" ? find.sql : "", text).toContain(
          `ARRAY_CONTAINS(c.${holders[0]?.copy.as}, {"${context.entity(source).key[0] ?? ""}": @`,
        );
        expect(find?.kind === "query" ? find.returned : 0, text).toBeCloseTo(expected, 6);
        expect(patch?.times ?? 0, text).toBeCloseTo((find?.times ?? 0) * expected, 6);
        const sum = (propagations[0]?.steps ?? []).reduce((total, s) => total + s.ru.estimate * s.times, 0);
        expect(propagations[0]?.ru.estimate ?? 0, text).toBeCloseTo(sum, 6);
        expect(rename.findings ?? [], text).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 600_000);
});
