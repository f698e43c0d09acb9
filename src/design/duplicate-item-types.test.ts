/**
 * Issue 26's twins: one entity stored twice at one place of one container (a change-feed copy
 * `menuItem2` beside `menuItem`, both keyed `{restaurantId}`) makes every write pay twice. Two
 * reads of one entity by the same filter with different projections each asked for a copy keyed
 * by that filter, and the second one landed beside the first: now the first is widened to serve
 * both. Three workloads of our own (a library's loans, a clinic's appointments, a fleet's trips),
 * and the edits of model-edits.ts that keep a container free of twins.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluateModel } from "../cost/evaluate.js";
import type { Container, ItemType, Model } from "../model/types.js";
import { duplicateItemTypes } from "../test-support/design-property.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import { designModel } from "./design-model.js";
import { addItem, baselineModel, moveItem, twinOf, widenCopy } from "./model-edits.js";
import { fanOutCandidates } from "./rules-access.js";

const FIXTURES = new URL("../../test/fixtures/expert-classes/", import.meta.url);

function workloadOf(file: string): Workload {
  const loaded = loadWorkload(readFileSync(new URL(file, FIXTURES), "utf8"), { file });
  if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("; "));
  return loaded.value;
}

function readOf(workload: Workload, id: string): ReadPattern {
  const read = workload.accessPatterns.find((p): p is ReadPattern => p.type === "read" && p.id === id);
  if (read === undefined) throw new Error(`no read ${id}`);
  return read;
}

/** Where each read of the workload is answered first, and the reads nothing answers. */
function answers(workload: Workload, model: Model) {
  const evaluation = evaluateModel(workload, model);
  return {
    evaluation,
    first: (id: string) => evaluation.patterns.find((p) => p.id === id)?.plan.operations[0],
    unserved: evaluation.issues.filter((issue) => issue.code === "evaluate.patternNotServed"),
  };
}

/**
 * Each workload: its entity is keyed by the parent its hottest read names, and two reads by
 * another filter differ in what they return (a narrow projection or a cut for the hot one, the
 * whole record for the rare one).
 */
const CASES = [
  { file: "library-loans.yaml", entity: "Loan", filter: "loanId", narrow: "L2", whole: "L3" },
  {
    file: "clinic-appointments.yaml",
    entity: "Appointment",
    filter: "appointmentId",
    narrow: "A2",
    whole: "A3",
  },
  { file: "fleet-trips.yaml", entity: "Trip", filter: "driverId", narrow: "T2", whole: "T3" },
] as const;

describe("two reads of one entity by one filter, with different projections", () => {
  it.each(CASES)(
    "$file: one copy keyed by $filter serves both, no twin",
    ({ file, entity, filter, narrow, whole }) => {
      const workload = workloadOf(file);
      const { model, evaluation, decisions } = designModel(workload);
      expect(duplicateItemTypes(model)).toEqual([]);
      // Every read is served, none fans out, and the model keeps every hard limit.
      expect(evaluation.issues.filter((issue) => issue.severity === "error")).toEqual([]);
      for (const pattern of evaluation.patterns) {
        expect(pattern.plan.operations.length, pattern.id).toBeGreaterThan(0);
        expect(pattern.fanOut, pattern.id).toBe(false);
      }
      // Both reads are answered by the one item type of the entity keyed by the filter.
      const keyed = model.containers.flatMap((container) =>
        container.items
          .filter((item) => item.entity === entity && item.partitionKey.join() === `{${filter}}`)
          .map((item) => ({ container: container.name, item })),
      );
      expect(keyed).toHaveLength(1);
      const [copy] = keyed;
      for (const id of [narrow, whole])
        expect(evaluation.patterns.find((p) => p.id === id)?.plan.operations[0], id).toMatchObject({
          container: copy?.container,
          itemType: copy?.item.type,
        });
      // It stores the whole record the rarer read returns.
      expect(copy?.item.select).toBeUndefined();
      expect(copy?.item.truncate).toEqual([]);
      // Control: when the item keyed by the filter is a copy (the situation that made twins: the
      // rarer read asks for a copy keyed by the filter of the copy already made for the hot one),
      // the copy is widened instead. (With the request charges refitted for issue 30, fleet-trips
      // keys the trips themselves by driver and keeps the newest per vehicle instead: no copy by
      // driver to widen; the next test builds that situation on purpose.)
      if (copy?.item.source !== undefined) {
        const decision = decisions.find((d) => d.id === `fan-out-${whole}`);
        expect(decision?.chosen).toBe(
          `widen the copy ${copy.container}/${copy.item.type} (partitioned by ${filter}) to serve ${whole} too`,
        );
      }
    },
  );

  it("fleet-trips.yaml: the rare read's copy widens the hot read's narrow copy, and it answers both", () => {
    const workload = workloadOf("fleet-trips.yaml");
    // Trips keyed by their vehicle, as the design keys them: a driver's trips fan out.
    const base = baselineModel(workload);
    const keyedByVehicle: Model = {
      ...base,
      containers: base.containers.map((c) =>
        c.name === "trips"
          ? {
              ...c,
              partitionKey: ["/vehicleId"],
              items: c.items.map((i) => ({ ...i, partitionKey: ["{vehicleId}"] })),
            }
          : c,
      ),
    };
    const hot = readOf(workload, "T2");
    const rare = readOf(workload, "T3");
    const first = fanOutCandidates(workload, keyedByVehicle, evaluateModel(workload, keyedByVehicle), hot);
    const narrowCopy = first.find((c) => c.name.startsWith("copy Trip into trips-by-driverid"))?.model;
    if (narrowCopy === undefined) throw new Error("no copy keyed by driverId for T2");
    const copied = answers(workload, narrowCopy);
    expect(copied.first("T2")).toMatchObject({ container: "trips-by-driverid", scope: "single" });
    // The narrow copy lacks the route T3 returns: T3 still fans out over the trips.
    expect(copied.first("T3")).toMatchObject({ container: "trips", scope: "fanOut" });
    const second = fanOutCandidates(workload, narrowCopy, copied.evaluation, rare);
    const keyed = second.filter((c) => c.model.containers.some((k) => k.name === "trips-by-driverid"));
    expect(keyed.map((c) => c.name)).toContain(
      "widen the copy trips-by-driverid/trip (partitioned by driverId) to serve T3 too",
    );
    for (const candidate of second) expect(duplicateItemTypes(candidate.model), candidate.name).toEqual([]);
    const widened = second.find((c) => c.name.startsWith("widen the copy"))?.model;
    if (widened === undefined) throw new Error("no widened copy");
    const items = widened.containers.find((c) => c.name === "trips-by-driverid")?.items;
    expect(items?.map((i) => [i.type, i.select])).toEqual([["trip", undefined]]);
    const after = answers(workload, widened);
    expect(after.unserved).toEqual([]);
    for (const id of ["T2", "T3"])
      expect(after.first(id), id).toMatchObject({
        container: "trips-by-driverid",
        itemType: "trip",
        scope: "single",
      });
  });
});

const item = (
  type: string,
  entity: string,
  id: string,
  partitionKey: string[],
  extra: Partial<ItemType> = {},
): ItemType => ({
  type,
  entity,
  id,
  partitionKey,
  truncate: [],
  embeds: [],
  copies: [],
  counts: [],
  ...extra,
});
const container = (name: string, partitionKey: string[], items: ItemType[]): Container => ({
  name,
  partitionKey,
  uniqueKeys: [],
  indexing: { kind: "derived" },
  items,
});
const source = { container: "loans", type: "loan" };
const primary = item("loan", "Loan", "{loanId}", ["{memberId}"]);
const byCopy = (items: ItemType[]): Model => ({
  version: 1,
  containers: [container("loans", ["/memberId"], [primary]), container("by-copy", ["/copyId"], items)],
});
const itemsOf = (model: Model, name: string) => model.containers.find((c) => c.name === name)?.items;

describe("addItem never places an entity twice in one container", () => {
  it("merges a second copy under the same key into the first: every attribute either stores, only the cuts both make", () => {
    const narrow = item("loan", "Loan", "{loanId}", ["{copyId}"], {
      source,
      select: ["loanId", "copyId", "dueAt"],
      truncate: [{ attribute: "notes", bytes: 100 }],
    });
    const other = item("loan2", "Loan", "{loanId}", ["{copyId}"], {
      source,
      select: ["loanId", "copyId", "returnedAt", "notes"],
      truncate: [
        { attribute: "notes", bytes: 300 },
        { attribute: "title", bytes: 50 },
      ],
    });
    const model = byCopy([narrow]);
    const merged = addItem(model, model.containers[1] as Container, other);
    expect(itemsOf(merged, "by-copy")).toEqual([
      {
        ...narrow,
        select: ["loanId", "copyId", "dueAt", "returnedAt", "notes"],
        truncate: [{ attribute: "notes", bytes: 300 }],
      },
    ]);
    expect(duplicateItemTypes(merged)).toEqual([]);
  });

  it("keeps every record and attribute when either copy does", () => {
    const newest = item("loan", "Loan", "{loanId}", ["{copyId}"], {
      source,
      keepLatest: { count: 20, by: "borrowedAt" },
      select: ["loanId", "copyId", "borrowedAt"],
    });
    const whole = item("loan2", "Loan", "{loanId}", ["{copyId}"], { source });
    const model = byCopy([newest]);
    const [merged] = itemsOf(addItem(model, model.containers[1] as Container, whole), "by-copy") ?? [];
    expect(merged).toEqual({ ...whole, type: "loan" });
    // Two bounded sets in the same order: the larger.
    expect(widenCopy(newest, { ...newest, keepLatest: { count: 50, by: "borrowedAt" } }).keepLatest).toEqual({
      count: 50,
      by: "borrowedAt",
    });
    expect(
      widenCopy(newest, { ...newest, keepLatest: { count: 50, by: "dueAt" } }).keepLatest,
    ).toBeUndefined();
  });

  it("adds no copy beside the entity's own items under the same key, and the own items replace a copy of them", () => {
    const own = item("loan", "Loan", "{loanId}", ["{copyId}"]);
    const model: Model = { version: 1, containers: [container("by-copy", ["/copyId"], [own])] };
    const copy = item("loan2", "Loan", "{loanId}", ["{copyId}"], {
      source: { container: "by-copy", type: "loan" },
    });
    expect(addItem(model, model.containers[0] as Container, copy)).toBe(model);
    // The loans move into the container of their copy, keyed alike: one item type, theirs.
    const copied = byCopy([
      item("loan", "Loan", "{loanId}", ["{copyId}"], { source, select: ["loanId", "copyId"] }),
    ]);
    const moved = moveItem(copied, source, copied.containers[1] as Container, {
      ...primary,
      type: "loan2",
      partitionKey: ["{copyId}"],
    });
    expect(moved.containers.map((c) => [c.name, c.items.map((i) => [i.type, i.source])])).toEqual([
      ["by-copy", [["loan2", undefined]]],
    ]);
  });

  it("keeps item types that place the records otherwise: a lookup item, replicas, another id or key", () => {
    const copy = item("account", "Account", "{accountId}", ["{email}"], {
      source: { container: "a", type: "account" },
    });
    const lookup = item("emailLookup", "Account", "{email}", ["{email}"], { select: ["email", "accountId"] });
    const replicated = item("account2", "Account", "{accountId}", ["{email}-{replica}"], {
      source: { container: "a", type: "account" },
      replicas: 4,
    });
    const otherKey = item("account3", "Account", "{accountId}", ["{region}"], {
      source: { container: "a", type: "account" },
    });
    const holder = container("by-email", ["/email"], [lookup, replicated, otherKey]);
    expect(twinOf(holder, copy)).toBeUndefined();
    const model: Model = { version: 1, containers: [holder] };
    expect(itemsOf(addItem(model, holder, copy), "by-email")).toHaveLength(4);
    // A prefix in the key names the item type only: `account-{accountId}` and `{accountId}` of a
    // container keyed by /id are one logical partition per account each.
    const byId = container(
      "by-id",
      ["/id"],
      [
        item("account", "Account", "account-{accountId}", ["account-{accountId}"], {
          source: { container: "a", type: "account" },
        }),
      ],
    );
    expect(
      twinOf(
        byId,
        item("account2", "Account", "{accountId}", ["{accountId}"], {
          source: { container: "a", type: "account" },
        }),
      )?.type,
    ).toBe("account");
    expect(
      duplicateItemTypes({
        version: 1,
        containers: [
          {
            ...byId,
            items: [
              ...byId.items,
              {
                ...copy,
                type: "account9",
                id: "account9-{accountId}",
                partitionKey: ["account9-{accountId}"],
              },
            ],
          },
        ],
      }),
    ).toHaveLength(1);
  });
});
