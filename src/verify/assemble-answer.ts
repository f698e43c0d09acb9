/**
 * Turns what a generated read function returned (stored items and follow-up results) into the
 * oracle's answer shape, as the application would present it: records unpacked from bucket
 * items and filtered, ordered and limited client-side, each `with` entry taken from the item
 * (copies, counters, embeds) or from the follow-up reads of the plan. Pure.
 */
import type { ItemType, Model } from "../model/types.js";
import type { ReadPlan } from "../planner/types.js";
import { recordAttributes } from "../synthetic/generate-records.js";
import { compareValues, jsonEqual } from "../synthetic/record-order.js";
import type { ReadPattern, WithItem, Workload } from "../workload/types.js";
import { answerFromItem, unpackItem } from "./compare-answers.js";
import { entityOf, linkBetween, matchesPredicate, withLabel, type PatternParameters } from "./oracle.js";

/** A follow-up result of a generated read function (`FollowUpResult` of the generated module). */
export interface FollowUpOutput {
  readonly container: string;
  readonly itemType: string;
  readonly perResult: boolean;
  readonly items: readonly unknown[];
  readonly byResult: readonly (readonly unknown[])[];
  /** The `with` entry the plan's step answers (from the plan, by position). */
  readonly withEntry?: string;
}

/** What a generated read function returned (`ReadResult` of the generated module). */
export interface ReadOutput {
  readonly items: readonly Readonly<Record<string, unknown>>[];
  readonly followUps: readonly FollowUpOutput[];
  readonly requestCharge: number;
}

export interface AssembledAnswer {
  readonly answers: readonly Readonly<Record<string, unknown>>[];
  /** `with` entries neither the items nor the follow-ups answered (a defect of the plan or code). */
  readonly unresolved: readonly string[];
  /**
   * What the function returned beyond the pattern's `select` and `truncate` (an attribute not
   * selected, a string longer than its cut), one description each.
   */
  readonly leaks: readonly string[];
}

/**
 * What the returned records hold beyond what the pattern returns: attributes of the entity that
 * `select` leaves out (except the key and the parents' `via`, which follow-up reads need, and the
 * attributes `with` names on the entity itself, which answer it), and strings longer than their
 * `truncate` in bytes.
 */
export function returnedLeaks(
  workload: Workload,
  pattern: ReadPattern,
  records: readonly Readonly<Record<string, unknown>>[],
): string[] {
  const entity = entityOf(workload, pattern.entity);
  const structural = new Set([
    ...entity.key,
    ...workload.relationships.filter((r) => r.child === entity.name).flatMap((r) => r.via ?? []),
    ...pattern.with.flatMap((entry) =>
      entry.kind === "attribute" && entry.entity === entity.name ? [entry.attribute] : [],
    ),
  ]);
  const leaks = new Set<string>();
  for (const record of records) {
    if (pattern.select !== undefined) {
      for (const attribute of entity.attributes) {
        const name = attribute.name;
        if (name in record && !pattern.select.includes(name) && !structural.has(name)) {
          leaks.add(`${name} is returned although select lists ${pattern.select.join(", ")}`);
        }
      }
    }
    for (const cut of pattern.truncate) {
      const value = record[cut.attribute];
      if (typeof value === "string" && Buffer.byteLength(value, "utf8") > cut.bytes) {
        leaks.add(`${cut.attribute} is returned with more than the ${cut.bytes} bytes truncate allows`);
      }
    }
  }
  return [...leaks];
}

function itemTypeOf(model: Model, container: string, type: string): ItemType | undefined {
  return model.containers.find((c) => c.name === container)?.items.find((i) => i.type === type);
}

/**
 * True when the plan starts with a lookup item (a projection such as email -> accountId) whose
 * complete record the second step reads: the generated function then returns the complete items.
 * Mirrors the generated code's rule (render/code/emit-read.ts).
 */
export function isLookupPlan(model: Model, plan: ReadPlan): boolean {
  const [first, second] = plan.operations;
  if (first === undefined || second === undefined || second.perResult !== true) return false;
  if (second.withEntry !== undefined) return false; // a `with` follow-up (self-relationship children)
  const firstType = itemTypeOf(model, first.container, first.itemType);
  const secondType = itemTypeOf(model, second.container, second.itemType);
  return firstType?.select !== undefined && secondType?.entity === firstType.entity;
}

/** The entity record of a stored child item (its attributes only: no id, type or system properties). */
function childRecord(workload: Workload, entity: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const item = value as Readonly<Record<string, unknown>>;
  const record: Record<string, unknown> = {};
  for (const attribute of recordAttributes(entityOf(workload, entity))) {
    if (attribute.name in item) record[attribute.name] = item[attribute.name];
  }
  return record;
}

/** The value of an unresolved `with` entry from a follow-up result, or undefined. */
function followUpValue(
  workload: Workload,
  model: Model,
  pattern: ReadPattern,
  entry: WithItem,
  record: Readonly<Record<string, unknown>>,
  itemIndex: number,
  followUps: readonly FollowUpOutput[],
): unknown {
  // The follow-up the plan made for this entry, else any on the entry's entity.
  const label = withLabel(entry);
  const own = followUps.filter((followUp) => followUp.withEntry === label);
  const candidates =
    own.length > 0
      ? own
      : followUps.filter(
          (followUp) =>
            followUp.withEntry === undefined &&
            itemTypeOf(model, followUp.container, followUp.itemType)?.entity === entry.entity,
        );
  for (const followUp of candidates) {
    const found = followUp.perResult ? (followUp.byResult[itemIndex] ?? []) : followUp.items;
    switch (entry.kind) {
      case "attribute": {
        const link = linkBetween(workload, entry.entity, pattern.entity);
        if (link === undefined) continue;
        const parentKey = entityOf(workload, entry.entity).key;
        // The parent whose key the record's via holds (a follow-up may name it as the via).
        const parent = found.find(
          (candidate): candidate is Record<string, unknown> =>
            typeof candidate === "object" &&
            candidate !== null &&
            parentKey.every((key, index) => {
              const via = link.via[index] ?? key;
              const held = (candidate as Record<string, unknown>)[key];
              const named = (candidate as Record<string, unknown>)[via];
              return jsonEqual(held, record[via]) || jsonEqual(named, record[via]);
            }),
        );
        if (parent === undefined) return null;
        return parent[entry.attribute] ?? null;
      }
      case "count":
        return typeof found[0] === "number" ? found[0] : found.length === 0 ? 0 : undefined;
      case "aggregate": {
        const value = found[0];
        if (typeof value === "number") return value;
        return entry.fn === "sum" ? 0 : null;
      }
      case "latest":
      case "all":
        return found.map((child) => childRecord(workload, entry.entity, child));
      default:
        return entry satisfies never;
    }
  }
  return undefined;
}

/** Sorts by the pattern's `orderBy` (stable) and keeps the first `limit`. */
function orderAndLimit(
  pattern: ReadPattern,
  records: readonly { record: Readonly<Record<string, unknown>>; itemIndex: number }[],
): { record: Readonly<Record<string, unknown>>; itemIndex: number }[] {
  const sorted =
    pattern.orderBy.length === 0
      ? [...records]
      : [...records].sort((a, b) => {
          for (const key of pattern.orderBy) {
            const order = compareValues(a.record[key.attribute], b.record[key.attribute]);
            if (order !== 0) return key.direction === "asc" ? order : -order;
          }
          return 0;
        });
  return pattern.limit === undefined ? sorted : sorted.slice(0, pattern.limit);
}

/**
 * The answer records of one request, in the oracle's shape.
 * @example assembleReadAnswer(workload, model, q3, plan, { userId: "user-000001" }, await access.q3(...))
 */
export function assembleReadAnswer(
  workload: Workload,
  model: Model,
  pattern: ReadPattern,
  plan: ReadPlan,
  parameters: PatternParameters,
  output: ReadOutput,
): AssembledAnswer {
  const lookup = isLookupPlan(model, plan);
  const answering = lookup ? plan.operations[1] : plan.operations[0];
  const itemType =
    answering === undefined ? undefined : itemTypeOf(model, answering.container, answering.itemType);
  if (itemType === undefined) return { answers: [], unresolved: [], leaks: [] };
  // The function returns one follow-up per plan step after the first, in order.
  const steps = plan.operations.slice(1);
  const followUps = output.followUps
    .map((followUp, index) => {
      const entry = steps[index]?.withEntry;
      return entry === undefined ? followUp : { ...followUp, withEntry: entry };
    })
    .slice(lookup ? 1 : 0);
  const bucketed = itemType.bucket !== undefined;
  let records = output.items.flatMap((item, itemIndex) =>
    unpackItem(itemType, item).map((record) => ({ record, itemIndex })),
  );
  const leaks = returnedLeaks(
    workload,
    pattern,
    records.map(({ record }) => record),
  );
  if (bucketed) {
    // The records of a bucket item are filtered, ordered and limited by the application.
    records = orderAndLimit(
      pattern,
      records.filter(({ record }) =>
        pattern.where.every((predicate) =>
          matchesPredicate(record[predicate.attribute], predicate.op, parameters[predicate.attribute]),
        ),
      ),
    );
  }
  const unresolved = new Set<string>();
  const answers = records.map(({ record, itemIndex }) => {
    const { answer, unresolved: missing } = answerFromItem(workload, model, itemType, pattern, record);
    const completed: Record<string, unknown> = { ...answer };
    for (const entry of missing) {
      const value = followUpValue(workload, model, pattern, entry, record, itemIndex, followUps);
      if (value === undefined) unresolved.add(withLabel(entry));
      else completed[withLabel(entry)] = value;
    }
    return completed;
  });
  return { answers, unresolved: [...unresolved], leaks };
}
