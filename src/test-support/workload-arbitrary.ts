/**
 * Random valid workloads for property tests (fast-check), in the workload file format: forests
 * of entities (one-to-many, one-to-one and many-to-many relationships, owned or not, bounded or
 * not), attributes of every type with cardinality, skew, uniqueness and change frequency, TTL,
 * sizes from 100 B to 2 MB, rates from 0.01 to 50,000 requests/s, and access patterns with every
 * filter kind, every `with` entry, ordering, limits, projections, truncation, per-pattern
 * consistency, every write operation, `changes` and batches. The shapes issue 11 found designs
 * breaking on are drawn on purpose: hot filters (a low-cardinality value read newest-first at up
 * to the top rate), per-pattern request skew, sparse attributes (`presence`), many-to-many pairs,
 * writes that must commit together (`atomicWith`, mostly between related entities), binning and
 * buffered writers, related data that must be fresh (`maxStalenessSeconds`), and composite keys
 * (`key: [orderId, itemId]`: a child identified by its parent and its own key, one workload in
 * four that has a one-to-many child; its children then hold both in a via of two attributes).
 *
 * `workloadDocumentArbitrary` gives the document (what a user would write); `toWorkload` loads
 * one through the real loader, so a generated document that does not load is a failure of the
 * generator, reported with the loader's issues. Options narrow or widen the ranges (issue 14's
 * bounds tests reuse it with extreme ones).
 * @example fc.assert(fc.property(workloadDocumentArbitrary(), (doc) => { designModel(toWorkload(doc)); }))
 */
import fc from "fast-check";
import { stringify } from "yaml";
import { formatIssue } from "../common/issues.js";
import { ITEM_OVERHEAD_BYTES, MAX_ITEM_BYTES } from "../cosmos/limits.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";

export interface WorkloadArbitraryOptions {
  /** Fewest entities (default 1); at most `maxEntities`. */
  readonly minEntities?: number;
  /** Most entities (default 6); at least 1. */
  readonly maxEntities?: number;
  /** Most extra attributes per entity besides its key and parent keys (default 6). */
  readonly maxAttributes?: number;
  /** Most read patterns per entity (default 3). */
  readonly maxReadsPerEntity?: number;
  /** Most write patterns per entity besides its create (default 2). */
  readonly maxWritesPerEntity?: number;
  /** Requests per second of a pattern at average: [min, max], log-uniform (default 0.01-50,000). */
  readonly rates?: readonly [number, number];
  /** Average item size in bytes: [min, max], log-uniform (default 100 B - 2 MB). */
  readonly sizes?: readonly [number, number];
  /** Items of an entity at the start of the horizon: [min, max], log-uniform (default 1 - 100 M). */
  readonly counts?: readonly [number, number];
  /**
   * Draw composite keys now and then (default true). The draw comes last, after every other
   * draw of a workload, so without it (false) each (seed, index) gives the documents it gave
   * before composite keys existed (regression workloads are named that way).
   */
  readonly compositeKeys?: boolean;
}

/** A workload document as written in a file (YAML/JSON): plain data. */
export type WorkloadDocument = Record<string, unknown>;

const ATTRIBUTE_TYPES = ["string", "number", "boolean", "datetime", "object", "array"] as const;
type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

interface AttributeDraft {
  readonly name: string;
  readonly type: AttributeType;
  readonly distinct?: number;
  readonly skew?: number;
  readonly unique?: boolean;
  readonly changes?: "never" | "rare" | "frequent";
  readonly avgBytes?: number;
  readonly presence?: number;
}

type BinningDraft = false | { readonly windowSeconds: number } | { readonly recordsPerItem: number };

interface EntityDraft {
  readonly name: string;
  readonly key: string;
  readonly count: number;
  readonly growthPerMonth?: number;
  readonly avgBytes: number;
  readonly maxBytes?: number;
  readonly ttlSeconds?: number;
  readonly binning?: BinningDraft;
  readonly attributes: readonly AttributeDraft[];
  /** The parent in the forest: its index, the kind and bounds of the relationship. */
  readonly parent?: {
    readonly index: number;
    readonly kind: "one-to-many" | "one-to-one";
    readonly avg: number;
    readonly max?: number;
    readonly owned: boolean;
  };
}

interface RelationshipDraft {
  readonly parent: string;
  readonly child: string;
  readonly kind: "one-to-many" | "one-to-one" | "many-to-many";
  /** One attribute, or (a parent with a composite key) its list. */
  readonly via?: string | readonly string[];
  readonly avg: number;
  readonly max?: number;
  readonly owned?: boolean;
}

/** `arbitrary` in one draw of `oneIn`, else undefined (fc.option's `freq` is the share of nil). */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: oneIn - 1 }, { arbitrary, weight: 1 });
}

/** Rounds to 3 significant digits, so documents stay readable. */
function round3(value: number): number {
  if (value === 0) return 0;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value))));
  return Number(value.toFixed(Math.min(digits, 6)));
}

/** A number spread evenly over the orders of magnitude between min and max. */
export function logUniform(min: number, max: number, integer = false): fc.Arbitrary<number> {
  // fc.double is spread over the bit patterns of doubles (most near 0): draw a step instead.
  const steps = 1_000_000;
  const low = Math.log10(min);
  const high = Math.log10(max);
  const exponent = fc.integer({ min: 0, max: steps }).map((step) => low + ((high - low) * step) / steps);
  // fast-check favours the ends of a range; keep that for one draw in five (the extremes are
  // where designs break), spread the rest evenly over the orders of magnitude.
  return fc
    .oneof({ arbitrary: fc.noBias(exponent), weight: 4 }, { arbitrary: exponent, weight: 1 })
    .map((e) => {
      const value = Math.min(max, Math.max(min, round3(10 ** e)));
      return integer ? Math.max(Math.ceil(min), Math.round(value)) : value;
    });
}

const ENTITY_NAMES = [
  "Account",
  "Order",
  "Item",
  "Event",
  "Device",
  "Reading",
  "Comment",
  "Tenant",
  "Ticket",
  "Message",
  "Product",
  "Review",
  "Session",
  "Payment",
  "Vehicle",
  "Ping",
] as const;

const ATTRIBUTE_NAMES = [
  "status",
  "title",
  "email",
  "amount",
  "createdAt",
  "updatedAt",
  "region",
  "tags",
  "score",
  "category",
  "ownerName",
  "payload",
  "active",
  "priority",
  "assignedTo",
  "body",
] as const;

/** `Order` -> `orderId`. */
const keyName = (entity: string): string => `${entity.charAt(0).toLowerCase()}${entity.slice(1)}Id`;

function attributeArbitrary(name: string): fc.Arbitrary<AttributeDraft> {
  return fc
    .record(
      {
        type: fc.constantFrom(...ATTRIBUTE_TYPES),
        distinct: logUniform(1, 10_000_000, true),
        skew: fc.constantFrom(0, 0.3, 0.8, 1, 1.3),
        unique: fc.boolean(),
        changes: fc.constantFrom("never", "rare", "frequent"),
        avgBytes: logUniform(4, 20_000, true),
        presence: fc.constantFrom(0.01, 0.15, 0.5, 1),
      },
      { requiredKeys: ["type"] },
    )
    .map((draft) => {
      // Booleans have two values; uniqueness only on strings and numbers.
      const distinct = draft.type === "boolean" ? 2 : draft.distinct;
      const unique = draft.unique === true && (draft.type === "string" || draft.type === "number");
      return {
        name,
        type: draft.type,
        ...(distinct === undefined || unique ? {} : { distinct }),
        ...(draft.skew === undefined ? {} : { skew: draft.skew }),
        ...(unique ? { unique: true } : {}),
        ...(draft.changes === undefined ? {} : { changes: draft.changes }),
        ...(draft.avgBytes === undefined ? {} : { avgBytes: draft.avgBytes }),
        ...(draft.presence === undefined || draft.presence === 1 ? {} : { presence: draft.presence }),
      };
    });
}

function entityArbitrary(
  index: number,
  options: Required<WorkloadArbitraryOptions>,
): fc.Arbitrary<EntityDraft> {
  const base = ENTITY_NAMES[index % ENTITY_NAMES.length] ?? "Entity";
  const name = index < ENTITY_NAMES.length ? base : `${base}${Math.floor(index / ENTITY_NAMES.length) + 1}`;
  const [minSize, maxSize] = options.sizes;
  return fc
    .record({
      count: logUniform(options.counts[0], options.counts[1], true),
      growth: fc.option(logUniform(1, 10_000_000, true), { nil: undefined }),
      avgBytes: logUniform(minSize, maxSize, true),
      maxFactor: fc.option(fc.constantFrom(1, 1.5, 4, 20), { nil: undefined }),
      ttlSeconds: fc.option(logUniform(60, 31_536_000, true), { nil: undefined, freq: 4 }),
      binning: sometimes(
        fc.constantFrom<BinningDraft>(
          false,
          { windowSeconds: 60 },
          { windowSeconds: 3600 },
          { recordsPerItem: 100 },
        ),
        8,
      ),
      attributes: fc.uniqueArray(fc.constantFrom(...ATTRIBUTE_NAMES), { maxLength: options.maxAttributes }),
      parent:
        index === 0
          ? fc.constant(undefined)
          : fc.option(
              fc.record(
                {
                  index: fc.integer({ min: 0, max: index - 1 }),
                  kind: fc.constantFrom("one-to-many", "one-to-many", "one-to-many", "one-to-one"),
                  avg: logUniform(0.01, 2000),
                  maxFactor: fc.constantFrom(1, 2, 10),
                  owned: fc.boolean(),
                },
                { requiredKeys: ["index", "kind", "avg", "owned"] },
              ),
              { nil: undefined, freq: 4 },
            ),
    })
    .chain((draft) =>
      fc
        .tuple(...draft.attributes.map((attribute) => attributeArbitrary(attribute)))
        .map((attributes): EntityDraft => {
          // The largest record an item holds with the properties every item adds (check refuses more).
          const largest = MAX_ITEM_BYTES - ITEM_OVERHEAD_BYTES;
          const avgBytes = Math.min(draft.avgBytes, largest);
          const maxBytes =
            draft.maxFactor === undefined
              ? 4 * avgBytes > largest
                ? // Where the default (4 x avgBytes) is over it, half the limit: room for copies.
                  Math.max(avgBytes, Math.floor(largest / 2))
                : undefined
              : Math.min(largest, Math.round(avgBytes * draft.maxFactor));
          const parent =
            draft.parent === undefined
              ? undefined
              : draft.parent.kind === "one-to-one"
                ? {
                    index: draft.parent.index,
                    kind: "one-to-one" as const,
                    avg: Math.min(1, draft.parent.avg),
                    max: 1,
                    owned: draft.parent.owned,
                  }
                : {
                    index: draft.parent.index,
                    kind: "one-to-many" as const,
                    avg: draft.parent.avg,
                    ...(draft.parent.maxFactor === undefined
                      ? {}
                      : { max: Math.ceil(draft.parent.avg * draft.parent.maxFactor) }),
                    owned: draft.parent.owned,
                  };
          return {
            name,
            key: keyName(name),
            count: draft.count,
            ...(draft.growth === undefined ? {} : { growthPerMonth: draft.growth }),
            avgBytes,
            ...(maxBytes === undefined ? {} : { maxBytes }),
            ...(draft.ttlSeconds === undefined ? {} : { ttlSeconds: draft.ttlSeconds }),
            ...(draft.binning === undefined ? {} : { binning: draft.binning }),
            attributes,
            ...(parent === undefined ? {} : { parent }),
          };
        }),
    );
}

/** What the patterns of one entity can use: its attributes by type and its relatives. */
interface EntityView {
  readonly entity: EntityDraft;
  /** Every attribute of the item: key, parent key, the others. */
  readonly attributes: readonly AttributeDraft[];
  readonly parents: readonly { readonly entity: EntityDraft; readonly via: string }[];
  readonly children: readonly { readonly entity: EntityDraft; readonly via?: string }[];
}

function rateArbitrary(
  options: Required<WorkloadArbitraryOptions>,
): fc.Arbitrary<{ avg: number; peak: number }> {
  return fc
    .tuple(logUniform(options.rates[0], options.rates[1]), fc.constantFrom(1, 1.5, 3, 10))
    .map(([avg, factor]) => ({ avg, peak: Math.max(avg, Math.min(options.rates[1], round3(avg * factor))) }));
}

/** A pattern's own request skew (`skew`), now and then: even, Zipf 1 or very hot. */
const patternSkew = sometimes(fc.constantFrom(0, 1, 2), 6);

/** `with` entries a read of `view.entity` can ask for. */
function withEntries(view: EntityView): string[] {
  const entries: string[] = [];
  for (const { entity } of view.parents) {
    for (const attribute of entity.attributes) entries.push(`${entity.name}.${attribute.name}`);
  }
  for (const { entity, via } of view.children) {
    entries.push(`count(${entity.name})`, `all(${entity.name})`, `latest(${entity.name}, 3)`);
    if (via === undefined) continue;
    for (const attribute of entity.attributes) {
      if (attribute.type === "number") {
        entries.push(`sum(${entity.name}.${attribute.name})`, `max(${entity.name}.${attribute.name})`);
      }
      if (attribute.type === "datetime") entries.push(`min(${entity.name}.${attribute.name})`);
    }
  }
  return entries;
}

/** A predicate on an attribute, with an operator its type supports. */
function predicateArbitrary(attribute: AttributeDraft): fc.Arbitrary<[string, string]> {
  const ops: string[] = ["eq"];
  if (attribute.type === "number" || attribute.type === "datetime") ops.push("range");
  if (attribute.type === "string") ops.push("in", "prefix");
  if (attribute.type === "array") ops.splice(0, 1, "contains");
  return fc.constantFrom(...ops).map((op) => [attribute.name, op]);
}

/** A read's filters: by the entity's key, by a parent's key, by one or two other attributes, or none. */
function whereArbitrary(
  view: EntityView,
  filterable: readonly AttributeDraft[],
): fc.Arbitrary<[string, string][]> {
  const { entity } = view;
  const byKey = fc.constant([[entity.key, "eq"]] as [string, string][]);
  const byParent =
    view.parents.length === 0
      ? byKey
      : fc.constantFrom(...view.parents).map(({ via }) => [[via, "eq"]] as [string, string][]);
  const byOthers =
    filterable.length === 0
      ? byKey
      : fc
          .uniqueArray(fc.constantFrom(...filterable), {
            minLength: 1,
            maxLength: 2,
            selector: (a) => a.name,
          })
          .chain((picked) => fc.tuple(...picked.map(predicateArbitrary)));
  return fc.oneof(byKey, byParent, byOthers, fc.constant([] as [string, string][]));
}

/** What a read draws before it becomes a pattern (optional fields are `null` when not drawn). */
interface ReadDraft {
  readonly where: readonly (readonly [string, string])[];
  readonly order?: AttributeDraft | null | undefined;
  readonly direction: string;
  readonly limit?: number | null;
  readonly returns?: number | null;
  readonly select?: readonly string[] | null;
  readonly truncate?: readonly [AttributeDraft, number] | null | undefined;
  readonly with: readonly string[];
  readonly consistency?: string | null;
  readonly latencyMs?: number | null;
  readonly maxStalenessSeconds?: number | undefined;
  readonly skew?: number | undefined;
  readonly hot: { readonly attribute: AttributeDraft; readonly avg: number } | undefined;
  readonly rps: { readonly avg: number; readonly peak: number };
}

/**
 * A `latest(X, N)` entry for a child without a datetime attribute: the workload check rejects it
 * (nothing tells the newest), so the read drops it after drawing (the draws stay the same).
 */
function untimedLatest(entry: string, view: EntityView): boolean {
  return view.children.some(
    ({ entity }) =>
      entry === `latest(${entity.name}, 3)` && !entity.attributes.some((a) => a.type === "datetime"),
  );
}

/** The read pattern of a drawn draft: a hot filter, when drawn, overrides the filters, order, limit and rate. */
function readPatternOf(
  draft: ReadDraft,
  view: EntityView,
  id: string,
  sortable: readonly AttributeDraft[],
): Record<string, unknown> {
  const { entity } = view;
  const hotFilter = draft.hot;
  const withs = draft.with.filter((entry) => !untimedLatest(entry, view));
  const where = Object.fromEntries(
    hotFilter === undefined ? draft.where : [[hotFilter.attribute.name, "eq"] as const],
  );
  const order = hotFilter === undefined || sortable.length === 0 ? draft.order : sortable[0];
  const limit = hotFilter === undefined ? (draft.limit ?? undefined) : 20;
  const rps = hotFilter === undefined ? draft.rps : { avg: round3(hotFilter.avg / 2), peak: hotFilter.avg };
  const returns =
    draft.returns === undefined || draft.returns === null
      ? undefined
      : round3(limit === undefined ? draft.returns : Math.min(limit, draft.returns));
  return {
    id,
    name: `read ${entity.name} by ${Object.keys(where).join(" and ") || "nothing"}`,
    type: "read",
    entity: entity.name,
    ...(Object.keys(where).length === 0 ? {} : { where }),
    ...(order === undefined || order === null
      ? {}
      : { orderBy: { [order.name]: hotFilter === undefined ? draft.direction : "desc" } }),
    ...(limit === undefined || limit === null ? {} : { limit }),
    ...(returns === undefined ? {} : { returns: { avg: returns } }),
    ...(draft.select === undefined || draft.select === null ? {} : { select: draft.select }),
    ...(draft.truncate === undefined || draft.truncate === null
      ? {}
      : { truncate: { [draft.truncate[0].name]: draft.truncate[1] } }),
    ...(withs.length === 0 ? {} : { with: withs }),
    ...(draft.consistency === undefined || draft.consistency === null
      ? {}
      : { consistency: draft.consistency }),
    ...(draft.latencyMs === undefined || draft.latencyMs === null ? {} : { latencyMs: draft.latencyMs }),
    ...(draft.maxStalenessSeconds === undefined ||
    draft.maxStalenessSeconds === null ||
    withs.length === 0 ||
    // An attribute across a many-to-many relationship is only kept from the change feed: the
    // format refuses such a read that must be fresh (workload.badWith).
    (draft.maxStalenessSeconds === 0 &&
      withs.some((entry) =>
        view.children.some((child) => child.via === undefined && entry.startsWith(`${child.entity.name}.`)),
      ))
      ? {}
      : { maxStalenessSeconds: draft.maxStalenessSeconds }),
    ...(draft.skew === undefined ? {} : { skew: draft.skew }),
    rps,
  };
}

function readArbitrary(
  view: EntityView,
  id: string,
  options: Required<WorkloadArbitraryOptions>,
): fc.Arbitrary<Record<string, unknown>> {
  const { entity, attributes } = view;
  const filterable = attributes.filter((a) => a.type !== "object" && a.type !== "boolean");
  const sortable = attributes.filter((a) => a.type === "datetime" || a.type === "number");
  const truncatable = attributes.filter((a) => a.type === "string" && a.name !== entity.key);
  const entries = withEntries(view);
  // A hot filter: a low-cardinality value ("newest 20 by status"), read at up to the top rate.
  const lowCardinality = filterable.filter(
    (a) => a.type === "string" && a.distinct !== undefined && a.distinct <= 100 && a.unique !== true,
  );
  const hot =
    lowCardinality.length === 0
      ? fc.constant(undefined)
      : sometimes(
          fc.record({
            attribute: fc.constantFrom(...lowCardinality),
            avg: logUniform(Math.max(options.rates[0], options.rates[1] / 10), options.rates[1]),
          }),
          4,
        );
  return fc
    .record(
      {
        where: whereArbitrary(view, filterable),
        order: sortable.length === 0 ? fc.constant(undefined) : fc.option(fc.constantFrom(...sortable)),
        direction: fc.constantFrom("asc", "desc"),
        limit: fc.option(fc.constantFrom(1, 10, 20, 100)),
        returns: fc.option(logUniform(0.1, 5000)),
        select: fc.option(
          fc.uniqueArray(fc.constantFrom(...attributes.map((a) => a.name)), { minLength: 1, maxLength: 3 }),
        ),
        truncate:
          truncatable.length === 0
            ? fc.constant(undefined)
            : fc.option(fc.tuple(fc.constantFrom(...truncatable), fc.constantFrom(50, 200))),
        with:
          entries.length === 0
            ? fc.constant([])
            : fc.uniqueArray(fc.constantFrom(...entries), { maxLength: 3 }),
        consistency: fc.option(fc.constantFrom("strong", "eventual", "session"), { freq: 8 }),
        latencyMs: fc.option(fc.constantFrom(10, 50)),
        maxStalenessSeconds: sometimes(fc.constantFrom(0, 5), 4),
        skew: patternSkew,
        hot,
        rps: rateArbitrary(options),
      },
      { requiredKeys: ["where", "direction", "rps", "with", "hot"] },
    )
    .map((draft) => readPatternOf(draft, view, id, sortable));
}

function writeArbitrary(
  view: EntityView,
  id: string,
  options: Required<WorkloadArbitraryOptions>,
): fc.Arbitrary<Record<string, unknown>> {
  const { entity, attributes } = view;
  const changeable = attributes.filter((a) => a.name !== entity.key).map((a) => a.name);
  return fc
    .record({
      operation: fc.constantFrom("replace", "upsert", "patch", "patch", "delete"),
      changes:
        changeable.length === 0
          ? fc.constant(undefined)
          : fc.option(fc.uniqueArray(fc.constantFrom(...changeable), { minLength: 1, maxLength: 3 })),
      batch: fc.option(fc.constantFrom(1, 10, 500), { freq: 4 }),
      skew: patternSkew,
      rps: rateArbitrary(options),
    })
    .map((draft) => ({
      id,
      name: `${draft.operation} ${entity.name}`,
      type: "write",
      operation: draft.operation,
      entity: entity.name,
      ...(draft.changes === undefined ||
      draft.changes === null ||
      draft.operation === "delete" ||
      draft.operation === "upsert"
        ? {}
        : { changes: draft.changes }),
      ...(draft.batch === undefined || draft.batch === null || draft.batch === 1
        ? {}
        : { batch: draft.batch }),
      ...(draft.skew === undefined ? {} : { skew: draft.skew }),
      rps: draft.rps,
    }));
}

function createArbitrary(
  view: EntityView,
  id: string,
  options: Required<WorkloadArbitraryOptions>,
): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record({
      operation: fc.constantFrom("create", "create", "upsert"),
      batch: fc.option(fc.constantFrom(1, 10, 100), { freq: 5 }),
      // A writer that collects records of one key before sending them (a device's readings).
      buffered: sometimes(fc.constantFrom(10, 60), 6),
      rps: rateArbitrary(options),
    })
    .map((draft) => ({
      id,
      name: `${draft.operation} ${view.entity.name}`,
      type: "write",
      operation: draft.operation,
      entity: view.entity.name,
      ...(draft.batch === undefined || draft.batch === null || draft.batch === 1
        ? {}
        : { batch: draft.batch }),
      ...(draft.buffered === undefined ? {} : { bufferedRecords: draft.buffered }),
      rps: draft.rps,
    }));
}

function attributeField(attribute: AttributeDraft): unknown {
  const { name: _name, type, ...rest } = attribute;
  return Object.keys(rest).length === 0 ? type : { type, ...rest };
}

function withDefaults(options: WorkloadArbitraryOptions): Required<WorkloadArbitraryOptions> {
  const maxEntities = Math.max(1, options.maxEntities ?? 6);
  return {
    minEntities: Math.min(maxEntities, Math.max(1, options.minEntities ?? 1)),
    maxEntities,
    maxAttributes: options.maxAttributes ?? 6,
    maxReadsPerEntity: options.maxReadsPerEntity ?? 3,
    maxWritesPerEntity: options.maxWritesPerEntity ?? 2,
    rates: options.rates ?? [0.01, 50_000],
    sizes: options.sizes ?? [100, MAX_ITEM_BYTES],
    counts: options.counts ?? [1, 100_000_000],
    compositeKeys: options.compositeKeys ?? true,
  };
}

/**
 * One of `pairs`. Past a few thousand (hundreds of entities: the pairs grow as their square)
 * `constantFrom(...pairs)` would overflow the stack with its arguments, so large lists are drawn by
 * index; small ones keep constantFrom, so the samples of the seeded tests stay the same.
 */
function pairFrom<T>(pairs: readonly T[]): fc.Arbitrary<T> {
  if (pairs.length <= 4_096) return fc.constantFrom(...pairs);
  return fc.nat({ max: pairs.length - 1 }).map((index) => pairs[index] as T);
}

/** The relationships of drawn entities (parent links and many-to-many pairs) and each entity's view. */
function relationshipsAndViews(
  entities: readonly EntityDraft[],
  manyToMany: readonly (readonly [EntityDraft, EntityDraft])[],
): { readonly relationships: RelationshipDraft[]; readonly views: EntityView[] } {
  const relationships: RelationshipDraft[] = [];
  const viewAttributes = new Map<string, AttributeDraft[]>();
  for (const entity of entities) {
    const parent = entity.parent === undefined ? undefined : entities[entity.parent.index];
    const keys: AttributeDraft[] = [{ name: entity.key, type: "string" }];
    if (parent !== undefined) keys.push({ name: parent.key, type: "string" });
    const names = new Set(keys.map((k) => k.name));
    viewAttributes.set(entity.name, [...keys, ...entity.attributes.filter((a) => !names.has(a.name))]);
    if (parent !== undefined && entity.parent !== undefined) {
      relationships.push({
        parent: parent.name,
        child: entity.name,
        kind: entity.parent.kind,
        via: parent.key,
        avg: entity.parent.avg,
        ...(entity.parent.max === undefined ? {} : { max: entity.parent.max }),
        owned: entity.parent.owned,
      });
    }
  }
  for (const [a, b] of manyToMany) {
    relationships.push({ parent: a.name, child: b.name, kind: "many-to-many", avg: 5, max: 50 });
  }
  const views: EntityView[] = entities.map((entity) => ({
    entity,
    attributes: viewAttributes.get(entity.name) ?? [],
    parents: relationships
      .filter((r) => r.child === entity.name && r.via !== undefined)
      .flatMap((r) => {
        const found = entities.find((e) => e.name === r.parent);
        return found === undefined || typeof r.via !== "string" ? [] : [{ entity: found, via: r.via }];
      }),
    children: relationships
      .filter((r) => r.parent === entity.name)
      .flatMap((r) => {
        const found = entities.find((e) => e.name === r.child);
        return found === undefined
          ? []
          : [{ entity: found, ...(typeof r.via !== "string" ? {} : { via: r.via }) }];
      }),
  }));
  return { relationships, views };
}

/**
 * Random valid workload documents.
 * @example fc.sample(workloadDocumentArbitrary({ maxEntities: 3 }), 5)
 */
export function workloadDocumentArbitrary(
  options: WorkloadArbitraryOptions = {},
): fc.Arbitrary<WorkloadDocument> {
  const settings = withDefaults(options);
  return fc
    .integer({ min: settings.minEntities, max: settings.maxEntities })
    .chain((size) =>
      fc.tuple(...Array.from({ length: size }, (_, index) => entityArbitrary(index, settings))),
    )
    .chain((entities) => {
      // Many-to-many pairs (no `via`): a few, between entities with no parent link.
      const pairs = entities.flatMap((a, i) =>
        entities.slice(i + 1).flatMap((b) => (b.parent?.index === i ? [] : [[a, b] as const])),
      );
      return fc.tuple(
        fc.constant(entities),
        pairs.length === 0
          ? fc.constant([])
          : fc.uniqueArray(pairFrom(pairs), {
              maxLength: 2,
              selector: ([a, b]) => `${a.name}>${b.name}`,
            }),
        fc.record({
          consistency: fc.option(fc.constantFrom("strong", "bounded", "session", "eventual"), { freq: 3 }),
          regions: fc.option(fc.constantFrom(1, 2, 3), { freq: 3 }),
          horizonMonths: fc.option(fc.constantFrom(1, 12, 36), { freq: 3 }),
        }),
      );
    })
    .chain(([entities, manyToMany, scale]) => {
      const { relationships, views } = relationshipsAndViews(entities, manyToMany);
      // Ids are numbered once the patterns exist (C1, Q2, W3, ... in document order).
      const patternArbitraries = views.flatMap((view) => [
        createArbitrary(view, "C", settings).map((p) => [p]),
        fc
          .integer({ min: 0, max: settings.maxReadsPerEntity })
          .chain((n) => fc.tuple(...Array.from({ length: n }, () => readArbitrary(view, "Q", settings)))),
        fc
          .integer({ min: 0, max: settings.maxWritesPerEntity })
          .chain((n) => fc.tuple(...Array.from({ length: n }, () => writeArbitrary(view, "W", settings)))),
      ]);
      return fc.tuple(
        fc.constant({ entities, relationships, views, scale }),
        fc.tuple(...patternArbitraries),
      );
    })
    .map(([{ entities, relationships, views, scale }, patternGroups]) => {
      const patterns = patternGroups.flat().map((p, index) => ({ ...p, id: `${String(p.id)}${index + 1}` }));
      const document: WorkloadDocument = {
        version: 1,
        name: `Generated workload of ${entities.length} entities`,
        ...(Object.values(scale).some((v) => v !== undefined && v !== null)
          ? {
              scale: Object.fromEntries(
                Object.entries(scale).filter(([, value]) => value !== undefined && value !== null),
              ),
            }
          : {}),
        entities: Object.fromEntries(
          views.map(({ entity, attributes }) => [
            entity.name,
            {
              key: entity.key,
              count: entity.count,
              ...(entity.growthPerMonth === undefined ? {} : { growthPerMonth: entity.growthPerMonth }),
              avgBytes: entity.avgBytes,
              ...(entity.maxBytes === undefined ? {} : { maxBytes: entity.maxBytes }),
              ...(entity.ttlSeconds === undefined ? {} : { ttlSeconds: entity.ttlSeconds }),
              ...(entity.binning === undefined ? {} : { binning: entity.binning }),
              attributes: Object.fromEntries(attributes.map((a) => [a.name, attributeField(a)])),
            },
          ]),
        ),
        ...(relationships.length === 0 ? {} : { relationships }),
        accessPatterns: patterns,
      };
      return document;
    })
    .chain(withAtomicWrites)
    .chain((document) => (settings.compositeKeys ? withCompositeKey(document) : fc.constant(document)));
}

type EntityDocument = Record<string, unknown> & {
  readonly key: string | readonly string[];
  readonly attributes: Record<string, unknown>;
};

/**
 * The document with, one time in four, a composite key: a one-to-many child identified by its
 * parent's key and its own (`OrderLine key: [orderId, orderLineId]`, what a link table or an
 * identifying relationship gives). Its own children then hold both: their via becomes the list,
 * and they get the parent's key attribute when they lack it. Drawn after everything else.
 */
function withCompositeKey(document: WorkloadDocument): fc.Arbitrary<WorkloadDocument> {
  const entities = document.entities as Readonly<Record<string, EntityDocument>>;
  const relationships = (document.relationships ?? []) as readonly RelationshipDraft[];
  const candidates = relationships.filter(
    (r) => r.kind === "one-to-many" && typeof r.via === "string" && r.parent !== r.child,
  );
  if (candidates.length === 0) return fc.constant(document);
  return sometimes(pairFrom(candidates), 4).map((picked) => {
    const parentKey = picked?.via;
    if (picked === undefined || typeof parentKey !== "string") return document;
    const link = entities[picked.child];
    if (link === undefined || typeof link.key !== "string") return document;
    const key = [parentKey, link.key];
    const nextEntities: Record<string, EntityDocument> = { ...entities, [picked.child]: { ...link, key } };
    const nextRelationships = relationships.map((r) => {
      if (r.parent !== picked.child || r.via !== link.key) return r;
      const child = nextEntities[r.child];
      if (child !== undefined && !(parentKey in child.attributes))
        nextEntities[r.child] = { ...child, attributes: { [parentKey]: "string", ...child.attributes } };
      return { ...r, via: key };
    });
    // A write never changes its record's key: the parent's key leaves the link's `changes`.
    const patterns = (document.accessPatterns as readonly PatternDocument[]).map((pattern) => {
      const changes = pattern["changes"];
      if (pattern.entity !== picked.child || !Array.isArray(changes)) return pattern;
      const kept = (changes as readonly string[]).filter((name) => name !== parentKey);
      const { changes: _changes, ...rest } = pattern;
      return kept.length === 0 ? rest : { ...rest, changes: kept };
    });
    return {
      ...document,
      entities: nextEntities,
      relationships: nextRelationships,
      accessPatterns: patterns,
    };
  });
}

type PatternDocument = Record<string, unknown> & {
  readonly id: string;
  readonly type: string;
  readonly entity: string;
};

/**
 * The document with, now and then, a pair of writes that must commit together (`atomicWith`):
 * mostly writes of one entity or of a parent and its child (which a key can keep in one logical
 * partition), sometimes any two (which none may).
 */
function withAtomicWrites(document: WorkloadDocument): fc.Arbitrary<WorkloadDocument> {
  const patterns = document.accessPatterns as readonly PatternDocument[];
  const relationships = (document.relationships ?? []) as readonly RelationshipDraft[];
  const writes = patterns.filter((p) => p.type === "write");
  const pairs = writes.flatMap((a, i) =>
    writes.slice(i + 1).map((b) => [a.id, b.id, a.entity, b.entity] as const),
  );
  if (pairs.length === 0) return fc.constant(document);
  const related = pairs.filter(
    ([, , a, b]) =>
      a === b ||
      relationships.some(
        (r) =>
          r.via !== undefined && ((r.parent === a && r.child === b) || (r.parent === b && r.child === a)),
      ),
  );
  const pair =
    related.length === 0
      ? pairFrom(pairs)
      : fc.oneof({ arbitrary: pairFrom(related), weight: 3 }, { arbitrary: pairFrom(pairs), weight: 1 });
  return sometimes(pair, 3).map((picked) => {
    if (picked === undefined) return document;
    const [pattern, partner] = picked;
    return {
      ...document,
      accessPatterns: patterns.map((p) => (p.id === pattern ? { ...p, atomicWith: [partner] } : p)),
    };
  });
}

/** The YAML text of a generated document (what a user would save as workload.yaml). */
export function workloadText(document: WorkloadDocument): string {
  return stringify(document);
}

/**
 * Loads a generated document through the workload loader; throws with the loader's issues when
 * it does not load (a defect of the generator, not of the code under test).
 */
export function toWorkload(document: WorkloadDocument): Workload {
  const text = workloadText(document);
  const loaded = loadWorkload(text, { file: "generated.yaml" });
  if (!loaded.ok) {
    throw new Error(
      `generated workload does not load:\n${loaded.issues.map(formatIssue).join("\n")}\n---\n${text}`,
    );
  }
  return loaded.value;
}
