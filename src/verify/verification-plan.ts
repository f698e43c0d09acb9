/**
 * The verification plan of a model: which synthetic data to load, which writes to run (with
 * their maintenance) and in which order, which read requests to check afterwards with which
 * parameters, and which checks the endpoint cannot run and why. Pure and deterministic from the
 * seed (STYLE.md plan-then-execute): `runVerification` executes it, `formatVerificationReport`
 * prints the outcome.
 */
import type { RuCoefficients } from "../estimator/coefficients.js";
import { evaluateModel } from "../cost/evaluate.js";
import type { PatternEvaluation } from "../cost/evaluation-types.js";
import type { RuEstimate } from "../estimator/operation.js";
import type { Model } from "../model/types.js";
import { withExplicitIndexing } from "../planner/explicit-indexing.js";
import type { Plan, PlanStep, ReadPlan, WritePlan } from "../planner/types.js";
import {
  generateDataset,
  linkingRelationships,
  type Dataset,
  type EntityRecord,
} from "../synthetic/generate-records.js";
import { generateWriteRecord } from "../synthetic/generate-writes.js";
import { linkedRecords, manyToManyBetween } from "../synthetic/many-to-many-links.js";
import {
  findDuplicateItems,
  materializeDataset,
  type ContainerItems,
  type DuplicateItems,
} from "../synthetic/materialize-dataset.js";
import { createRng, type Rng } from "../synthetic/random.js";
import { holdsParentKey, jsonEqual, sameRecord } from "../synthetic/record-order.js";
import { templateAttributes } from "../model/templates.js";
import { recordIdentity } from "../workload/keys.js";
import type { ReadPattern, Workload, WritePattern } from "../workload/types.js";
import { applyWriteToDataset } from "./apply-write.js";
import type { Capability, EndpointCapabilities } from "./endpoint.js";
import { answerReadPattern, entityOf, linkBetween, recordsOf, type PatternParameters } from "./oracle.js";
import { formatWithItem } from "../workload/with-items.js";
import { pickParameters } from "./pick-parameters.js";
import { expectedAddresses, type ExpectedAddresses } from "./stray-items.js";

/** The seed used when none is given: the same data and requests on every run. */
export const DEFAULT_VERIFY_SEED = 20261122;

/**
 * Items per container the plan aims at: the embedded endpoint scans the whole container for
 * every query, about 120 ms per query at 5,000 items (@vercel/cosmosdb-server 1.0.1, measured
 * 2026-11-21), so a few thousand keep a verification within about a minute.
 */
export const DEFAULT_MAX_ITEMS_PER_CONTAINER = 3000;

/** A fault injected into the maintenance, to prove that the checks catch it (tests). */
export type VerifyFault = "drop-counter" | "drop-copy" | "drop-trim";
export const VERIFY_FAULTS: readonly VerifyFault[] = ["drop-counter", "drop-copy", "drop-trim"];

export interface VerificationOptions {
  /** Seed of the data, the writes and the read parameters. Default `DEFAULT_VERIFY_SEED`. */
  readonly seed?: number;
  /** Multiplies the workload's entity counts before the caps. Default 1. */
  readonly scale?: number;
  /** At most this many records per entity (before the per-container cap). Default 2,000. */
  readonly maxItemsPerEntity?: number;
  /** The data is scaled down until no container holds more items. Default 3,000. */
  readonly maxItemsPerContainer?: number;
  /** Requests checked per read pattern (different parameters). Default 3. */
  readonly requestsPerPattern?: number;
  /** Writes per write pattern. Default 2. */
  readonly writesPerPattern?: number;
  /**
   * The request-charge coefficients the estimates measured charges are compared with come from
   * (`--coefficients`, a file `calibrate` wrote); default the built-in ones.
   */
  readonly coefficients?: RuCoefficients;
}

/** One write request: the record and the parent records it belongs to. */
export interface PlannedWrite {
  readonly patternId: string;
  readonly record: EntityRecord;
  /** Parent records by entity (for parent items whose key the record does not hold). */
  readonly parents: Readonly<Record<string, EntityRecord>>;
  /** Child records written inside this record's item, by child entity (an order's lines). */
  readonly embeds?: Readonly<Record<string, readonly EntityRecord[]>>;
  /** Records linked to this one many-to-many, by entity (a product's tags, for its copies). */
  readonly linked?: Readonly<Record<string, readonly EntityRecord[]>>;
  /** The child write patterns these embedded children stand for, with their counts. */
  readonly companions?: readonly { readonly patternId: string; readonly count: number }[];
  /**
   * For a create into an item type of N records per bucket: the bucket the application passes
   * (`related.bucket`), floor(ordinal / N) where the ordinal is the number of records already
   * in the item's logical partition (the new record is the newest, as the loader orders them).
   */
  readonly bucket?: number;
}

/** The bucket number a created record takes in its entity's records bucket (see PlannedWrite.bucket). */
function recordsBucketOf(
  workload: Workload,
  model: Model,
  dataset: Dataset,
  pattern: WritePattern,
  record: EntityRecord,
): number | undefined {
  if (pattern.operation !== "create" && pattern.operation !== "upsert") return undefined;
  const item = model.containers
    .flatMap((container) => container.items)
    .find((candidate) => candidate.entity === pattern.entity && candidate.bucket?.kind === "records");
  if (item?.bucket?.kind !== "records") return undefined;
  const attributes = item.partitionKey.flatMap((template) => templateAttributes(template));
  const sameKey = (other: EntityRecord) => attributes.every((name) => jsonEqual(other[name], record[name]));
  const ordinal = recordsOf(dataset, pattern.entity).filter(
    (other) => sameKey(other) && !sameRecord(entityOf(workload, pattern.entity), other, record),
  ).length;
  return Math.floor(ordinal / item.bucket.records);
}

/** One read request: its parameters, and whether they aim at data the writes changed. */
export interface PlannedRequest {
  readonly parameters: PatternParameters;
  readonly focus: "changed" | "random";
}

/** The check of one access pattern. */
export type PatternCheckPlan =
  | {
      readonly kind: "read";
      readonly patternId: string;
      readonly name: string;
      readonly plan: ReadPlan;
      readonly estimate: RuEstimate;
      readonly requests: readonly PlannedRequest[];
      /** Why this endpoint cannot check the pattern (absent = checkable). */
      readonly notCheckable?: string;
      /**
       * A flaw of the model the answers may not show: a bounded set (keepLatest) the model keeps
       * for this pattern holds fewer items than it asks for, so the plan reads elsewhere.
       */
      readonly designFailure?: string;
    }
  | {
      readonly kind: "write";
      readonly patternId: string;
      readonly name: string;
      readonly plan: WritePlan;
      /** Synchronous estimate plus the change-feed work, per request. */
      readonly estimate: RuEstimate;
      readonly writes: readonly PlannedWrite[];
      /** The parent create pattern whose requests carry this pattern's records (embedded children). */
      readonly writtenWith?: string;
      /** Records of this pattern written that way. */
      readonly companionWrites?: number;
      readonly notCheckable?: string;
    };

/** A check the endpoint cannot run for the whole model. */
export interface EndpointLimitation {
  readonly capability: Capability;
  readonly reason: string;
}

export interface VerificationPlan {
  readonly workload: Workload;
  readonly model: Model;
  /** The model deployed: derived indexing policies written out (withExplicitIndexing). */
  readonly deployedModel: Model;
  readonly plans: readonly Plan[];
  readonly seed: number;
  /** Records per entity actually generated. */
  readonly maxItemsPerEntity: number;
  readonly dataset: Dataset;
  /** The dataset after every planned write (what the reads are checked against). */
  readonly finalDataset: Dataset;
  /** Where the final dataset's items are, per item type: any other item is a stray (stale copy...). */
  readonly finalAddresses: readonly ExpectedAddresses[];
  readonly items: readonly ContainerItems[];
  /** Ids the model gives to several items of one logical partition (a model flaw). */
  readonly duplicates: readonly DuplicateItems[];
  /** Writes in execution order (creates and updates, then deletes). */
  readonly writes: readonly PlannedWrite[];
  /** One entry per access pattern, in workload order. */
  readonly patterns: readonly PatternCheckPlan[];
  readonly limitations: readonly EndpointLimitation[];
  /** What no verify run checks, whatever the endpoint (the data is scaled down, time is short). */
  readonly outOfScope: readonly string[];
}

/** SQL an endpoint may not parse, with the capability it needs. */
const SQL_FEATURES: readonly { readonly capability: Capability; readonly pattern: RegExp }[] = [
  { capability: "offsetLimit", pattern: /\bOFFSET\b/i },
  { capability: "groupBy", pattern: /\bGROUP\s+BY\b/i },
  { capability: "distinct", pattern: /\bDISTINCT\b/i },
  { capability: "fullTextSearch", pattern: /\bFullText(?:Score|Contains\w*)\(|\bORDER BY RANK\b/i },
  { capability: "vectorSearch", pattern: /\bVectorDistance\(/i },
];

function allSteps(steps: readonly PlanStep[]): PlanStep[] {
  return steps.flatMap((step) =>
    step.kind === "batch"
      ? [step, ...step.operations]
      : step.kind === "changeFeed"
        ? [step, ...allSteps(step.steps)]
        : [step],
  );
}

/**
 * The reason an endpoint cannot run a plan's queries (SQL it cannot parse), or undefined.
 * @example missingCapability(plan.operations, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS) // "the embedded endpoint cannot parse OFFSET LIMIT"
 */
export function missingCapability(
  steps: readonly PlanStep[],
  capabilities: EndpointCapabilities,
  reasons: Readonly<Record<Capability, string>>,
): string | undefined {
  for (const step of allSteps(steps)) {
    if (step.kind !== "query") continue;
    for (const feature of SQL_FEATURES) {
      if (!capabilities[feature.capability] && feature.pattern.test(step.sql)) {
        return reasons[feature.capability];
      }
    }
  }
  return undefined;
}

/** The data, scaled down until every container holds at most `maxItemsPerContainer` items. */
function scaledData(
  workload: Workload,
  model: Model,
  seed: number,
  options: VerificationOptions,
): { dataset: Dataset; items: readonly ContainerItems[]; maxItemsPerEntity: number } {
  const limit = options.maxItemsPerContainer ?? DEFAULT_MAX_ITEMS_PER_CONTAINER;
  let cap = options.maxItemsPerEntity ?? 2000;
  for (let attempt = 0; ; attempt++) {
    const dataset = generateDataset(workload, {
      seed,
      maxItemsPerEntity: cap,
      ...(options.scale === undefined ? {} : { scale: options.scale }),
    });
    const items = materializeDataset(workload, model, dataset);
    const largest = Math.max(0, ...items.map((container) => container.items.length));
    if (largest <= limit || cap <= 10 || attempt >= 5) return { dataset, items, maxItemsPerEntity: cap };
    cap = Math.max(10, Math.floor((cap * limit) / largest));
  }
}

/** The records linked to a record many-to-many, by entity (its copies' arrays come from them). */
export function linkedRecordsOf(
  workload: Workload,
  dataset: Dataset,
  entity: string,
  record: EntityRecord,
): Record<string, readonly EntityRecord[]> {
  const linked: Record<string, readonly EntityRecord[]> = {};
  for (const relationship of workload.relationships) {
    if (relationship.kind !== "many-to-many") continue;
    const other =
      relationship.parent === entity
        ? relationship.child
        : relationship.child === entity
          ? relationship.parent
          : undefined;
    const records = other === undefined ? undefined : linkedRecords(workload, dataset, entity, record, other);
    if (other !== undefined && records !== undefined) linked[other] = records;
  }
  return linked;
}

/** The parent records of a record, by parent entity (from the relationships with `via`). */
export function parentRecordsOf(
  workload: Workload,
  dataset: Dataset,
  entity: string,
  record: EntityRecord,
): Readonly<Record<string, EntityRecord>> {
  const parents: Record<string, EntityRecord> = {};
  for (const relationship of linkingRelationships(workload)) {
    if (relationship.child !== entity || relationship.parent === entity) continue;
    const parentEntity = entityOf(workload, relationship.parent);
    const parent = recordsOf(dataset, relationship.parent).find((candidate) =>
      holdsParentKey(parentEntity, relationship.via, candidate, record),
    );
    if (parent !== undefined) parents[relationship.parent] = parent;
  }
  return parents;
}

/**
 * Why a write pattern is not run on its own: its plan writes nothing (the model stores the entity
 * inside its parent, written with the parent in the same request), so a write of the pattern
 * alone is not a request the application makes.
 */
export function writtenWithParent(plan: WritePlan): string | undefined {
  if (plan.operations.length > 0 || plan.async.length > 0) return undefined;
  return `${plan.notes.join("; ") || "the plan writes nothing"}; verify runs each write pattern on its own, so this write was not run`;
}

/**
 * True when some record holds this record's key in a relationship whose child entity the model
 * copies this entity's attributes into (any relationship when the model copies nothing from it):
 * updating such a record exercises the propagation of copies.
 */
function hasDependents(
  workload: Workload,
  model: Model,
  dataset: Dataset,
  entity: string,
  record: EntityRecord,
): boolean {
  const parentEntity = entityOf(workload, entity);
  const copiers = new Set(
    model.containers
      .flatMap((container) => container.items)
      .filter((item) => item.copies.some((copy) => copy.from.entity === entity))
      .map((item) => item.entity),
  );
  return linkingRelationships(workload).some(
    (relationship) =>
      relationship.parent === entity &&
      (copiers.size === 0 || copiers.has(relationship.child)) &&
      recordsOf(dataset, relationship.child).some((child) =>
        holdsParentKey(parentEntity, relationship.via, record, child),
      ),
  );
}

/**
 * The record of one write request: for updates of existing records, preferably one whose
 * children hold copies of it, so that the propagation of copied attributes is exercised.
 */
function pickWriteRecord(
  workload: Workload,
  model: Model,
  dataset: Dataset,
  pattern: WritePattern,
  rng: Rng,
): EntityRecord | undefined {
  const isUpdate =
    pattern.operation === "replace" ||
    pattern.operation === "patch" ||
    (pattern.operation === "upsert" && pattern.changes !== undefined);
  if (!isUpdate) return generateWriteRecord(workload, dataset, pattern, rng);
  const entity = entityOf(workload, pattern.entity);
  const records = recordsOf(dataset, pattern.entity);
  const useful = records.filter((record) => hasDependents(workload, model, dataset, pattern.entity, record));
  if (useful.length > 0 && useful.length < records.length) {
    // Changed values are taken from other records: keep them all as donors, but the target
    // among the useful ones (the generator picks the target first, then donors).
    const candidate = generateWriteRecord(
      workload,
      { ...dataset, entities: { ...dataset.entities, [pattern.entity]: useful } },
      pattern,
      rng,
    );
    const original =
      candidate === undefined ? undefined : records.find((record) => sameRecord(entity, record, candidate));
    if (candidate !== undefined && JSON.stringify(candidate) !== JSON.stringify(original)) return candidate;
  }
  return generateWriteRecord(workload, dataset, pattern, rng);
}

/** A child write pattern whose records the model stores inside the parent's items. */
interface EmbeddedChild {
  readonly pattern: WritePattern;
  /** The child's attributes holding the parent key (one per parent key attribute). */
  readonly via: readonly string[];
  /** Children written with each parent (the relationship's average, 1 to 3). */
  readonly perParent: number;
}

/**
 * The child write patterns written with each parent create pattern: the pattern's plan writes
 * nothing of its own because the model embeds the child in the parent's item (an order with its
 * lines), so the application passes the children with the parent's create.
 */
export function embeddedChildWrites(
  workload: Workload,
  model: Model,
  plans: readonly Plan[],
): ReadonlyMap<string, readonly EmbeddedChild[]> {
  const planOf = (id: string) => plans.find((plan) => plan.patternId === id);
  const result = new Map<string, EmbeddedChild[]>();
  for (const pattern of workload.accessPatterns) {
    if (pattern.type !== "write" || pattern.operation !== "create") continue;
    const plan = planOf(pattern.id);
    if (plan?.type !== "write" || writtenWithParent(plan) === undefined) continue;
    const holder = model.containers
      .flatMap((container) => container.items)
      .find((item) => item.embeds.some((embed) => embed.entity === pattern.entity));
    if (holder === undefined) continue;
    const link = linkingRelationships(workload).find(
      (relationship) => relationship.parent === holder.entity && relationship.child === pattern.entity,
    );
    const parentCreate = workload.accessPatterns.find((candidate): candidate is WritePattern => {
      if (candidate.type !== "write" || candidate.entity !== holder.entity) return false;
      const candidatePlan = planOf(candidate.id);
      return (
        candidate.operation === "create" &&
        candidatePlan?.type === "write" &&
        writtenWithParent(candidatePlan) === undefined
      );
    });
    if (link === undefined || parentCreate === undefined) continue;
    const perParent = Math.max(1, Math.min(3, Math.round(link.avg)));
    result.set(parentCreate.id, [
      ...(result.get(parentCreate.id) ?? []),
      { pattern, via: link.via, perParent },
    ]);
  }
  return result;
}

function planWrites(
  workload: Workload,
  model: Model,
  plans: readonly Plan[],
  dataset: Dataset,
  seed: number,
  perPattern: number,
): { writes: PlannedWrite[]; finalDataset: Dataset } {
  const writePatterns = workload.accessPatterns.filter((p): p is WritePattern => {
    if (p.type !== "write") return false;
    const plan = plans.find((candidate) => candidate.patternId === p.id);
    return plan?.type === "write" && writtenWithParent(plan) === undefined;
  });
  const embedded = embeddedChildWrites(workload, model, plans);
  // Deletes last: they prefer records without children, which the other writes may add.
  const ordered = [
    ...writePatterns.filter((p) => p.operation !== "delete"),
    ...writePatterns.filter((p) => p.operation === "delete"),
  ];
  const writes: PlannedWrite[] = [];
  let current = dataset;
  for (const pattern of ordered) {
    const rng = createRng(seed, "write", pattern.id);
    for (let request = 0; request < perPattern; request++) {
      const record = pickWriteRecord(workload, model, current, pattern, rng);
      if (record === undefined) continue;
      let next: Dataset;
      try {
        next = applyWriteToDataset(workload, current, pattern, record);
      } catch {
        // A generated write that would conflict or miss is not a request an application makes.
        continue;
      }
      const parents = parentRecordsOf(workload, current, pattern.entity, record);
      // Children the model embeds in this record's item are written with it.
      const children: Record<string, EntityRecord[]> = {};
      const companions: { patternId: string; count: number }[] = [];
      const parentKey = entityOf(workload, pattern.entity).key;
      for (const child of embedded.get(pattern.id) ?? []) {
        const childRng = createRng(seed, "write", child.pattern.id, request);
        const written: EntityRecord[] = [];
        for (let index = 0; index < child.perParent; index++) {
          const generated = generateWriteRecord(workload, next, child.pattern, childRng);
          if (generated === undefined) continue;
          const childRecord = {
            ...generated,
            ...Object.fromEntries(child.via.map((via, index) => [via, record[parentKey[index] ?? ""]])),
          };
          try {
            next = applyWriteToDataset(workload, next, child.pattern, childRecord);
            written.push(childRecord);
          } catch {
            continue;
          }
        }
        if (written.length === 0) continue;
        children[child.pattern.entity] = written;
        companions.push({ patternId: child.pattern.id, count: written.length });
      }
      const linked = linkedRecordsOf(workload, next, pattern.entity, record);
      const bucket = recordsBucketOf(workload, model, current, pattern, record);
      writes.push({
        patternId: pattern.id,
        record,
        parents,
        ...(bucket === undefined ? {} : { bucket }),
        ...(Object.keys(linked).length === 0 ? {} : { linked }),
        ...(companions.length === 0 ? {} : { embeds: children, companions }),
      });
      current = next;
    }
  }
  return { writes, finalDataset: current };
}

/** Every record of the pattern's entity shaped as the pattern answers it, by key. */
function shapedByKey(
  workload: Workload,
  dataset: Dataset,
  pattern: ReadPattern,
): Map<string, Readonly<Record<string, unknown>>> {
  const { limit: _limit, ...rest } = pattern;
  const everything: ReadPattern = { ...rest, where: [], orderBy: [] };
  const entity = entityOf(workload, pattern.entity);
  const records = recordsOf(dataset, pattern.entity);
  const shaped = answerReadPattern(workload, dataset, everything, {});
  const byKey = new Map<string, Readonly<Record<string, unknown>>>();
  shaped.forEach((answer, index) => byKey.set(recordIdentity(entity, records[index] ?? {}), answer));
  return byKey;
}

/**
 * The records of the pattern's entity whose answer the writes changed, grouped by what changed
 * (`new`, or the properties that differ: a renamed parent's copy, a counter, an edited
 * attribute), each kind of change in key order.
 */
function changedRecordsByKind(
  workload: Workload,
  before: Dataset,
  after: Dataset,
  pattern: ReadPattern,
): Map<string, EntityRecord[]> {
  const previous = shapedByKey(workload, before, pattern);
  const current = shapedByKey(workload, after, pattern);
  const entity = entityOf(workload, pattern.entity);
  const groups = new Map<string, EntityRecord[]>();
  for (const record of recordsOf(after, pattern.entity)) {
    const id = recordIdentity(entity, record);
    const old = previous.get(id);
    const now = current.get(id) ?? {};
    let kind: string;
    if (old === undefined) kind = "new";
    else {
      const differing = [...new Set([...Object.keys(old), ...Object.keys(now)])]
        .filter((property) => JSON.stringify(old[property]) !== JSON.stringify(now[property]))
        .sort();
      if (differing.length === 0) continue;
      kind = differing.join(",");
    }
    groups.set(kind, [...(groups.get(kind) ?? []), record]);
  }
  return new Map([...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Requests aimed at changed data: at most this many per read pattern (one per kind of change). */
const MAX_CHANGED_REQUESTS = 6;

function planRequests(
  workload: Workload,
  before: Dataset,
  after: Dataset,
  pattern: ReadPattern,
  seed: number,
  count: number,
): PlannedRequest[] {
  if (pattern.where.length === 0) return [{ parameters: {}, focus: "random" }];
  const requests: PlannedRequest[] = [];
  const seen = new Set<string>();
  const add = (parameters: PatternParameters | undefined, focus: PlannedRequest["focus"]): void => {
    if (parameters === undefined) return;
    const text = JSON.stringify(parameters);
    if (seen.has(text)) return;
    seen.add(text);
    requests.push({ parameters, focus });
  };
  // First one request per kind of change the writes made (a new child, a renamed parent, a
  // counter...), so that stale copies and counters show; then random requests.
  const changedRng = createRng(seed, "read-changed", pattern.id);
  for (const records of [...changedRecordsByKind(workload, before, after, pattern).values()].slice(
    0,
    MAX_CHANGED_REQUESTS,
  )) {
    const focused: Dataset = { ...after, entities: { ...after.entities, [pattern.entity]: records } };
    add(pickParameters(workload, focused, pattern, changedRng), "changed");
  }
  const rng = createRng(seed, "read", pattern.id);
  const wanted = requests.length + count;
  for (let attempt = 0; requests.length < wanted && attempt < count * 3; attempt++) {
    add(pickParameters(workload, after, pattern, rng), "random");
  }
  return requests;
}

/** What the check of every pattern is planned from. */
interface CheckContext {
  readonly workload: Workload;
  readonly dataset: Dataset;
  readonly finalDataset: Dataset;
  readonly writes: readonly PlannedWrite[];
  readonly capabilities: EndpointCapabilities;
  readonly reasons: Readonly<Record<Capability, string>>;
  readonly seed: number;
  readonly options: VerificationOptions;
}

/**
 * Why a full-text or hybrid search is not compared even where it runs: its BM25 ranking is the
 * service's own (tokenizer, stemming, statistics over the container), which the oracle does not
 * imitate; a vector search is compared (exact nearest neighbours, by the pattern's recall).
 */
function rankedByService(pattern: ReadPattern): string | undefined {
  return pattern.search === undefined || pattern.search.kind === "vector"
    ? undefined
    : "its BM25 ranking (FullTextScore) is the service's own tokenizer, stemming and statistics, which the oracle does not imitate: verify does not compare its answers";
}

/** The check of a read pattern: its requests, or why it cannot be checked, and a design flaw. */
function readCheck(
  context: CheckContext,
  pattern: ReadPattern,
  plan: ReadPlan,
  evaluated: PatternEvaluation,
): PatternCheckPlan {
  const { workload, capabilities, reasons, options } = context;
  // the synthetic data links records through `via` attributes, and many-to-many pairs through
  // links of their own: an attribute across them has an answer; a count or the children do not
  // (a many-to-many relationship is linked by synthetic/many-to-many-links.ts)
  const unlinked = pattern.with.find(
    (item) =>
      item.entity !== pattern.entity &&
      linkBetween(workload, pattern.entity, item.entity) === undefined &&
      linkBetween(workload, item.entity, pattern.entity) === undefined &&
      (item.kind !== "attribute" || manyToManyBetween(workload, pattern.entity, item.entity) === undefined),
  );
  const notCheckable =
    unlinked === undefined
      ? (missingCapability(plan.operations, capabilities, reasons) ?? rankedByService(pattern))
      : `${formatWithItem(unlinked)} follows a many-to-many relationship without a via attribute, whose children the oracle does not follow (only attributes across it)`;
  // A bounded set in the pattern's order too small for it fails verify when no other item type
  // serves the pattern (evaluate's error); when one does, its answers are checked like any other
  // read and the set's size is evaluate's warning (the blogging feed kept at 10 for "the newest
  // 100": Q6 is read from users/post, test/verify/verify.test.ts).
  const boundedSet = plan.served ? undefined : plan.boundedSetsTooSmall?.[0];
  return {
    kind: "read",
    patternId: pattern.id,
    name: pattern.name,
    plan,
    estimate: { estimate: evaluated.ru.estimate, low: evaluated.ru.low, high: evaluated.ru.high },
    requests:
      unlinked === undefined
        ? planRequests(
            workload,
            context.dataset,
            context.finalDataset,
            pattern,
            context.seed,
            Math.max(1, options.requestsPerPattern ?? 3),
          )
        : [],
    ...(notCheckable === undefined ? {} : { notCheckable }),
    ...(boundedSet === undefined
      ? {}
      : {
          designFailure: `${boundedSet}: the bounded set the model maintains for ${pattern.id} cannot answer it`,
        }),
  };
}

/**
 * The check of a write pattern: its writes (with its change-feed work in the estimate), or the
 * parent create whose items carry its records, or why it cannot be checked.
 */
function writeCheck(
  context: CheckContext,
  pattern: WritePattern,
  plan: WritePlan,
  evaluated: PatternEvaluation,
): PatternCheckPlan {
  const { writes } = context;
  // Children the model embeds in their parent's item are written with the parent's create.
  const carriers = writes.filter((write) => write.companions?.some((c) => c.patternId === pattern.id));
  const writtenWith = carriers[0]?.patternId;
  const companionWrites = carriers.reduce(
    (sum, write) => sum + (write.companions?.find((c) => c.patternId === pattern.id)?.count ?? 0),
    0,
  );
  const notCheckable =
    writtenWith === undefined
      ? (writtenWithParent(plan) ??
        missingCapability([...plan.operations, ...plan.async], context.capabilities, context.reasons))
      : undefined;
  const async = evaluated.ru.async;
  return {
    kind: "write",
    patternId: pattern.id,
    name: pattern.name,
    plan,
    estimate: {
      estimate: evaluated.ru.estimate + async,
      low: evaluated.ru.low + async,
      high: evaluated.ru.high + async,
    },
    writes: writes.filter((write) => write.patternId === pattern.id),
    ...(writtenWith === undefined ? {} : { writtenWith, companionWrites }),
    ...(notCheckable === undefined ? {} : { notCheckable }),
  };
}

/**
 * Plans the verification of a model on an endpoint with the given capabilities.
 * @example buildVerificationPlan(workload, model, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS, { seed: 1 })
 */
export function buildVerificationPlan(
  workload: Workload,
  model: Model,
  capabilities: EndpointCapabilities,
  reasons: Readonly<Record<Capability, string>>,
  options: VerificationOptions = {},
): VerificationPlan {
  const seed = options.seed ?? DEFAULT_VERIFY_SEED;
  const evaluation = evaluateModel(
    workload,
    model,
    options.coefficients === undefined ? {} : { coefficients: options.coefficients },
  );
  const plans = evaluation.patterns.map((pattern) => pattern.plan);
  const { dataset, items, maxItemsPerEntity } = scaledData(workload, model, seed, options);
  const { writes, finalDataset } = planWrites(
    workload,
    model,
    plans,
    dataset,
    seed,
    options.writesPerPattern ?? 2,
  );
  const patterns: PatternCheckPlan[] = [];
  const context: CheckContext = {
    workload,
    dataset,
    finalDataset,
    writes,
    capabilities,
    reasons,
    seed,
    options,
  };
  for (const pattern of workload.accessPatterns) {
    const evaluated = evaluation.patterns.find((entry) => entry.id === pattern.id);
    if (evaluated === undefined) continue;
    const plan = evaluated.plan;
    if (pattern.type === "read" && plan.type === "read")
      patterns.push(readCheck(context, pattern, plan, evaluated));
    else if (pattern.type === "write" && plan.type === "write")
      patterns.push(writeCheck(context, pattern, plan, evaluated));
  }
  return {
    workload,
    model,
    deployedModel: withExplicitIndexing(workload, model),
    plans,
    seed,
    maxItemsPerEntity,
    dataset,
    finalDataset,
    finalAddresses: expectedAddresses(model, materializeDataset(workload, model, finalDataset)),
    items,
    duplicates: findDuplicateItems(items),
    writes,
    patterns,
    limitations: endpointLimitations(model, plans, capabilities, reasons),
    outOfScope: outOfScopeChecks(model),
  };
}

/** What verify never checks for this model, on any endpoint. */
function outOfScopeChecks(model: Model): string[] {
  const checks = [
    "throughput, throttling (429) and partition limits at the workload's full scale: the data is scaled down to a few thousand items per container (evaluate computes them)",
  ];
  if (model.containers.some((c) => c.defaultTtl !== undefined || c.items.some((i) => i.ttl !== undefined))) {
    checks.push("expiry of items with a ttl: a run does not last that long");
  }
  if (model.integratedCache !== undefined) {
    checks.push(
      `the integrated cache's hits (${model.integratedCache.patterns.join(", ")}): verify reads the database directly, every answer fresh; the misses and the gateway's bill are evaluate's figures`,
    );
  }
  return checks;
}

/** The model-wide checks this endpoint cannot run (only those the model would need). */
function endpointLimitations(
  model: Model,
  plans: readonly Plan[],
  capabilities: EndpointCapabilities,
  reasons: Readonly<Record<Capability, string>>,
): EndpointLimitation[] {
  const steps = plans.flatMap((plan) =>
    allSteps(plan.type === "read" ? plan.operations : [...plan.operations, ...plan.async]),
  );
  const needs: Record<Capability, boolean> = {
    measuresRequestCharge: true,
    changeFeed: steps.some((step) => step.kind === "changeFeed"),
    hierarchicalKeysFull: model.containers.some((container) => container.partitionKey.length > 1),
    ttl: model.containers.some(
      (container) => container.defaultTtl !== undefined || container.items.some((i) => i.ttl !== undefined),
    ),
    atomicBatch: steps.some((step) => step.kind === "batch"),
    patchInBatch: steps.some(
      (step) =>
        step.kind === "batch" &&
        step.operations.some((write) => write.operation === "patch" || write.increments !== undefined),
    ),
    // Per pattern (reported as not checkable there), not model-wide.
    offsetLimit: false,
    groupBy: false,
    distinct: false,
    partitionScopedQuery: false,
    vectorSearch: false,
    fullTextSearch: false,
  };
  return (Object.keys(needs) as Capability[])
    .filter((capability) => needs[capability] && !capabilities[capability])
    .map((capability) => ({ capability, reason: reasons[capability] }));
}
