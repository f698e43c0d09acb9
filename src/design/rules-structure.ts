/**
 * Design rules about where items live and how they are keyed: aggregates (embed, co-locate,
 * separate) from the access correlation of each related pair, lookup items for unique values,
 * partition keys (entity key, frequent filters, hierarchical chains), and time-window binning.
 * Each rule proposes candidate models; the search evaluates them.
 */
import { coversKey, keyAttributes, keyTemplate, soleKey, soleVia } from "../workload/keys.js";
import { MAX_ITEM_BYTES } from "../cosmos/limits.js";
import { identifiesRecord } from "../cost/soundness.js";
import type { Model } from "../model/types.js";
import { rewritesRecords } from "../model/key-changes.js";
import {
  analyzeAccessCorrelation,
  CONSOLIDATE_ABOVE,
  SEPARATE_BELOW,
} from "../analysis/aggregate-analysis.js";
import type { Entity, Relationship, Workload } from "../workload/types.js";
import {
  addItem,
  copiesOf,
  editItem,
  findPrimary,
  freshItemType,
  mergeContainers,
  moveItem,
  propertyNameOf,
  removeItem,
  retargetSources,
  unspread,
} from "./model-edits.js";
import type { Candidate } from "./search.js";
import { primaryKeyProblem } from "../analysis/key-stability.js";
import { atomicPairs } from "../cost/atomic-writes.js";
import { MIN_KEY_CARDINALITY } from "../analysis/design-considerations.js";

/** Embedding needs the whole aggregate to stay well below the 2 MB item limit. */
const EMBED_MAX_FRACTION_OF_ITEM_LIMIT = 0.5;

/** Correlation of each related pair (share of requests needing both), by "parent>child". */
export function correlations(workload: Workload): Map<string, number> {
  return new Map(
    analyzeAccessCorrelation(workload).map((pair) => [`${pair.parent}>${pair.child}`, pair.correlation]),
  );
}

/** Candidate aggregates for one relationship: embed the child, co-locate it, or key it by its parent. */
export function aggregateCandidates(
  workload: Workload,
  model: Model,
  relationship: Relationship,
  correlation = 0,
  everyPair = false,
): Candidate[] {
  const { parent, child } = relationship;
  // Children of a composite-key parent are not embedded or co-located (their via is several
  // attributes): they stay in their own container, keyed by their own key.
  const via = soleVia(relationship);
  if (via === undefined || relationship.kind === "many-to-many") return [];
  const parentHome = findPrimary(model, parent);
  const childHome = findPrimary(model, child);
  if (
    parentHome === undefined ||
    childHome === undefined ||
    parentHome.container.name === childHome.container.name
  )
    return [];
  const parentEntity = workload.entities.find((e) => e.name === parent);
  const childEntity = workload.entities.find((e) => e.name === child);
  if (parentEntity === undefined || childEntity === undefined) return [];
  const candidates: Candidate[] = [];
  const childReads = workload.accessPatterns.filter((p) => p.type === "read" && p.entity === child);
  const childIsParent = workload.relationships.some((r) => r.parent === child);
  const onlyChildOfContainer = childHome.container.items.length === 1;
  candidates.push(
    ...embedCandidates(
      model,
      relationship,
      { parentHome, childHome, parentEntity, childEntity },
      correlation,
      {
        childRead: childReads.length > 0,
        childIsParent,
        onlyChildOfContainer,
      },
    ),
  );
  // Identifying relationship: every read of the child names its parent.
  const identifying = childReads.every(
    (p) => p.type === "read" && p.where.some((w) => w.attribute === via && w.op === "eq"),
  );
  const parentKeyed =
    parentHome.container.partitionKey.length === 1 &&
    parentHome.item.partitionKey[0] === `{${soleKey(parentEntity) ?? ""}}`;
  // A child keyed by its parent's key moves when a write re-parents it (or lacks the key).
  const viaKeyable = primaryKeyProblem(workload, child, via) === undefined;
  // Co-location is a candidate for every parent-child pair whatever the correlation: children
  // in their parent's logical partition can be written with it in one transactional batch, and
  // one container less pays no minimum throughput; it wins a cost tie. A child that some read
  // finds by its own key alone would fan out there, so it is offered then only when writes of
  // the pair must commit together (`atomicWith`), or when the search combines moves
  // (`everyPair`: a copy keyed by the child's key can then repair that read).
  const atomic = atomicPairs(workload).some(
    (p) =>
      (p.entity === parent && p.partnerEntity === child) ||
      (p.entity === child && p.partnerEntity === parent),
  );
  if (parentKeyed && viaKeyable && onlyChildOfContainer && (identifying || atomic || everyPair)) {
    const target = parentHome.container;
    candidates.push({
      // Over 50% of the pair's requests need both: the prompt consolidates them.
      preferred: identifying && correlation > CONSOLIDATE_ABOVE,
      winsTies: true,
      name: `store ${child} items in the ${parent} container, in their ${parent}'s logical partition`,
      model: moveItem(model, { container: childHome.container.name, type: childHome.item.type }, target, {
        ...unspread(childHome.item),
        type: freshItemType(target, childHome.item.type),
        partitionKey: [`{${via}}`],
      }),
    });
  }
  if (
    identifying &&
    viaKeyable &&
    onlyChildOfContainer &&
    childHome.container.partitionKey.join() !== `/${via}`
  ) {
    candidates.push({
      name: `partition ${child} by ${via} in its own container`,
      model: {
        ...model,
        containers: model.containers.map((c) =>
          c.name === childHome.container.name
            ? {
                ...c,
                partitionKey: [`/${via}`],
                items: c.items.map((i) => ({ ...unspread(i), partitionKey: [`{${via}}`] })),
              }
            : c,
        ),
      },
    });
  }
  return candidates;
}

/**
 * Embedding the child in its parent's item: when the pair is read together often enough, the
 * whole aggregate fits well within the item limit, and the child has no reads, children, copies
 * or container mates of its own.
 */
function embedCandidates(
  model: Model,
  relationship: Relationship,
  homes: {
    readonly parentHome: NonNullable<ReturnType<typeof findPrimary>>;
    readonly childHome: NonNullable<ReturnType<typeof findPrimary>>;
    readonly parentEntity: Entity;
    readonly childEntity: Entity;
  },
  correlation: number,
  child: {
    readonly childRead: boolean;
    readonly childIsParent: boolean;
    readonly onlyChildOfContainer: boolean;
  },
): Candidate[] {
  const { parentHome, childHome, parentEntity, childEntity } = homes;
  const maxAggregate =
    relationship.max === undefined
      ? Infinity
      : parentEntity.maxBytes + relationship.max * childEntity.maxBytes;
  if (
    correlation < SEPARATE_BELOW ||
    maxAggregate > MAX_ITEM_BYTES * EMBED_MAX_FRACTION_OF_ITEM_LIMIT ||
    child.childRead ||
    child.childIsParent ||
    copiesOf(model, childHome.container.name, childHome.item.type).length > 0 ||
    !child.onlyChildOfContainer
  )
    return [];
  const withoutChild = removeItem(model, childHome.container.name, childHome.item.type);
  return [
    {
      preferred: correlation > CONSOLIDATE_ABOVE,
      name: `embed ${relationship.child} in the ${relationship.parent} item (at most ${relationship.max} per ${relationship.parent})`,
      model: editItem(withoutChild, parentHome.container.name, parentHome.item.type, (item) => ({
        ...item,
        embeds: [
          ...item.embeds,
          { entity: relationship.child, as: propertyNameOf(relationship.child, true) },
        ],
      })),
    },
  ];
}

/** Unique attributes that a read filters on get a lookup item keyed by the value. */
export function lookupCandidates(workload: Workload, model: Model, entityName: string): Candidate[] {
  const entity = workload.entities.find((e) => e.name === entityName);
  const home = findPrimary(model, entityName);
  if (entity === undefined || home === undefined) return [];
  const candidates: Candidate[] = [];
  for (const attribute of entity.attributes) {
    if (!attribute.unique || soleKey(entity) === attribute.name) continue;
    const read = workload.accessPatterns.some(
      (p) =>
        p.type === "read" &&
        p.entity === entityName &&
        p.where.some((w) => w.attribute === attribute.name && w.op === "eq"),
    );
    if (!read) continue;
    const lookup = {
      ...unspread(home.item),
      type: freshItemType(home.container, `${attribute.name}Lookup`),
      id: `{${attribute.name}}`,
      partitionKey: [`{${attribute.name}}`],
      select: [attribute.name, ...keyAttributes(entity).filter((name) => name !== attribute.name)],
      embeds: [],
      copies: [],
      counts: [],
    };
    // Every item is then addressed by its id alone: the container is keyed by /id.
    const allById = home.container.items.every(
      (i) => i.partitionKey.length === 1 && i.partitionKey[0] === i.id,
    );
    const container = allById ? { ...home.container, partitionKey: ["/id"] } : home.container;
    const withLookup = addItem(
      { ...model, containers: model.containers.map((c) => (c.name === container.name ? container : c)) },
      container,
      lookup,
    );
    candidates.push({
      name: `lookup item per ${entityName}.${attribute.name} (id and partition key = the value; a create conflict enforces uniqueness)`,
      model: withLookup,
    });
  }
  return candidates;
}

/** Partition key candidates for a container: single attributes and hierarchical chains. */
export function partitionKeyCandidates(workload: Workload, model: Model, containerName: string): Candidate[] {
  const container = model.containers.find((c) => c.name === containerName);
  if (
    container === undefined ||
    container.items.some((i) => i.source !== undefined || i.shards !== undefined || i.replicas !== undefined)
  )
    return [];
  const entities = container.items.map((i) => workload.entities.find((e) => e.name === i.entity));
  if (entities.some((e) => e === undefined)) return [];
  // Every item type has the attribute, and none of them would move when a write changes it.
  const shared = (name: string): boolean =>
    entities.every(
      (e) =>
        e?.attributes.some((a) => a.name === name) === true &&
        primaryKeyProblem(workload, e.name, name) === undefined,
    );
  const reads = workload.accessPatterns.filter(
    (p) => p.type === "read" && container.items.some((i) => i.entity === p.entity),
  );
  const usage = new Map<string, number>();
  for (const pattern of reads) {
    if (pattern.type !== "read") continue;
    for (const predicate of pattern.where) {
      if (predicate.op === "eq" && shared(predicate.attribute)) {
        usage.set(predicate.attribute, (usage.get(predicate.attribute) ?? 0) + pattern.rps.peak);
      }
    }
  }
  const cardinality = (name: string): number => {
    const entity = entities[0];
    const attribute = entity?.attributes.find((a) => a.name === name);
    if (attribute?.distinct !== undefined) return attribute.distinct;
    const parent = workload.relationships.find((r) => r.child === entity?.name && soleVia(r) === name);
    const parentEntity = workload.entities.find((e) => e.name === parent?.parent);
    return parentEntity?.count ?? entity?.count ?? 0;
  };
  const ranked = [...usage.keys()].sort(
    (a, b) => cardinality(a) - cardinality(b) || (usage.get(b) ?? 0) - (usage.get(a) ?? 0),
  );
  const keys: string[][] = [];
  for (const name of ranked) if (cardinality(name) >= MIN_KEY_CARDINALITY) keys.push([name]);
  // The natural hierarchy: the keys of the entity's ancestors (coarsest first) that it carries,
  // led by the coarsest attribute a pattern filters on.
  const chain: string[] = [];
  let level: string | undefined = entities[0]?.name;
  for (let depth = 0; level !== undefined && depth < 6; depth++) {
    const child = level;
    const up = workload.relationships.find(
      (r) => r.child === child && r.via !== undefined && r.kind !== "many-to-many",
    );
    const upVia = up === undefined ? undefined : soleVia(up);
    if (up === undefined || upVia === undefined || !shared(upVia)) break;
    chain.unshift(upVia);
    level = up.parent;
  }
  if (chain.length >= 2 && usage.has(chain[0] ?? "")) {
    keys.push(chain.slice(-3));
    if (chain.length >= 3) keys.push(chain.slice(-3).slice(0, 2));
  }
  // Hierarchical: coarse to fine, each level a filter some pattern uses with the previous ones.
  if (ranked.length >= 2) keys.push(ranked.slice(0, Math.min(3, ranked.length)));
  if (ranked.length >= 3) keys.push(ranked.slice(0, 2));
  const current = container.partitionKey.join("|");
  const candidates: Candidate[] = [];
  for (const attributes of keys) {
    const paths = attributes.map((a) => `/${a}`);
    if (paths.join("|") === current) continue;
    candidates.push({
      name: `${containerName} partitioned by ${attributes.length > 1 ? `the hierarchical key [${paths.join(", ")}]` : paths[0]}`,
      model: {
        ...model,
        containers: model.containers.map((c) =>
          c.name === containerName
            ? {
                ...c,
                partitionKey: paths,
                items: c.items.map((i) => ({ ...i, partitionKey: attributes.map((a) => `{${a}}`) })),
              }
            : c,
        ),
      },
    });
  }
  return candidates;
}

/** Standard time windows for binning, in seconds. */
const WINDOWS: readonly [string, number][] = [
  ["1m", 60],
  ["5m", 300],
  ["15m", 900],
  ["1h", 3600],
  ["1d", 86_400],
];
/** Records a bucket should hold: enough to cut the write rate, few enough to stay small. */
const TARGET_RECORDS_PER_BUCKET = 30;

/**
 * Binning: small records written often per key, read in time order by that key. The workload's
 * `binning` decides when it is given (never, this window, this many records per item); the
 * records a writer buffers (`bufferedRecords`) set the least a bucket should hold.
 */
export function binningCandidates(workload: Workload, model: Model, entityName: string): Candidate[] {
  const entity = workload.entities.find((e) => e.name === entityName);
  const home = findPrimary(model, entityName);
  if (
    entity === undefined ||
    home === undefined ||
    entity.binning?.kind === "never" ||
    entity.avgBytes > 2048
  )
    return [];
  // A bucket holds its records append-only: an entity whose records are rewritten or deleted one
  // by one is not binned (each such write would read and rewrite a whole bucket, under an ETag,
  // which costs more than binning saves; the model check refuses it: model.badBucket).
  if (
    workload.accessPatterns.some((p) => p.type === "write" && p.entity === entityName && rewritesRecords(p))
  )
    return [];
  const writes = workload.accessPatterns.filter(
    (p) => p.type === "write" && p.entity === entityName && p.operation === "create",
  );
  const rate = writes.reduce((sum, p) => sum + (p.type === "write" ? p.rps.avg * p.batch : 0), 0);
  const buffered = Math.max(1, ...writes.map((p) => (p.type === "write" ? p.bufferedRecords : 1)));
  const timeAttribute = workload.accessPatterns
    .flatMap((p) =>
      p.type === "read" && p.entity === entityName
        ? [
            ...p.orderBy.map((s) => s.attribute),
            ...p.where.filter((w) => w.op === "range").map((w) => w.attribute),
          ]
        : [],
    )
    .find((name) => entity.attributes.find((a) => a.name === name)?.type === "datetime");
  const keyAttribute =
    home.item.partitionKey.length === 1
      ? /^\{(\w+)\}$/.exec(home.item.partitionKey[0] ?? "")?.[1]
      : undefined;
  if (
    timeAttribute === undefined ||
    keyAttribute === undefined ||
    soleKey(entity) === keyAttribute ||
    rate <= 0
  )
    return [];
  const parent = workload.relationships.find((r) => r.child === entityName && soleVia(r) === keyAttribute);
  const keys =
    workload.entities.find((e) => e.name === parent?.parent)?.count ??
    entity.attributes.find((a) => a.name === keyAttribute)?.distinct;
  if (keys === undefined) return [];
  const perKeyPerSecond = rate / keys;
  const bin = (
    bucket: NonNullable<Model["containers"][number]["items"][number]["bucket"]>,
    name: string,
  ): Candidate => {
    const type = freshItemType(home.container, `${home.item.type}Bucket`);
    return {
      name,
      // Copies of the item type follow its new name.
      model: retargetSources(
        editItem(model, home.container.name, home.item.type, (item) => ({
          ...item,
          type,
          id: `{${keyAttribute}}-{bucket}`,
          bucket,
        })),
        new Map([[`${home.container.name}/${home.item.type}`, { container: home.container.name, type }]]),
      ),
    };
  };
  if (entity.binning?.kind === "records") {
    const records = entity.binning.perItem;
    return [
      bin(
        { kind: "records", records },
        `bin ${entityName} records into items of ${records} records per ${keyAttribute} (the workload's binning)`,
      ),
    ];
  }
  if (entity.binning?.kind === "window") {
    const seconds = entity.binning.seconds;
    return [
      bin(
        { kind: "window", by: timeAttribute, windowSeconds: seconds },
        `bin ${entityName} records into one item per ${keyAttribute} per ${seconds} s (the workload's binning; about ${Math.round(perKeyPerSecond * seconds)} records each)`,
      ),
    ];
  }
  const target = Math.max(TARGET_RECORDS_PER_BUCKET, buffered);
  const window =
    WINDOWS.find(([, seconds]) => perKeyPerSecond * seconds >= target) ?? WINDOWS[WINDOWS.length - 1];
  if (window === undefined || perKeyPerSecond * window[1] < 2) return [];
  return [
    bin(
      { kind: "window", by: timeAttribute, windowSeconds: window[1] },
      `bin ${entityName} records into one item per ${keyAttribute} per ${window[0]} (about ${Math.round(perKeyPerSecond * window[1])} records each)`,
    ),
  ];
}

/**
 * An id built from the attributes a frequent read gives when they identify one record (e.g.
 * `{postId}-{userId}` for a reaction whose key is those two, or a `unique` attribute among them):
 * the read becomes a point read. A read that returns one record on average proves nothing (a
 * student enrolled twice in one course): such an id would refuse the second record
 * (`evaluate.idNotUnique`), so it is never offered.
 */
export function idCandidates(workload: Workload, model: Model, entityName: string): Candidate[] {
  const entity = workload.entities.find((e) => e.name === entityName);
  const home = findPrimary(model, entityName);
  if (entity === undefined || home === undefined || home.item.id !== keyTemplate(entity.key)) return [];
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  for (const pattern of workload.accessPatterns) {
    if (pattern.type !== "read" || pattern.entity !== entityName || pattern.where.length < 2) continue;
    const single = (pattern.returns?.avg ?? Infinity) <= 1 || pattern.limit === 1;
    const attributes = pattern.where.map((w) => w.attribute);
    if (!single || pattern.where.some((w) => w.op !== "eq") || coversKey(entity, attributes)) continue;
    const id = attributes.map((a) => `{${a}}`).join("-");
    if (seen.has(id) || !identifiesRecord(entity, { ...home.item, id })) continue;
    seen.add(id);
    candidates.push({
      name: `${home.item.type} id ${id}: ${pattern.id} becomes a point read, and the id keeps one ${entityName} per ${attributes.join(" and ")}`,
      model: editItem(model, home.container.name, home.item.type, (item) => ({ ...item, id })),
    });
  }
  return candidates;
}

/** The indexing of two merged containers: derived stays derived, otherwise every path is indexed. */
function mergedIndexing(
  a: Model["containers"][number],
  b: Model["containers"][number],
): Model["containers"][number]["indexing"] {
  return a.indexing.kind === "derived" && b.indexing.kind === "derived" ? a.indexing : { kind: "automatic" };
}

/** The attribute a single-path container is keyed by, when every item uses `{attribute}` for it. */
function keyAttributeOf(container: Model["containers"][number]): string | undefined {
  if (container.partitionKey.length !== 1) return undefined;
  const path = container.partitionKey[0];
  const ok = container.items.every(
    (i) =>
      i.partitionKey[0] === `{${path?.slice(1) ?? ""}}` &&
      i.source === undefined &&
      i.shards === undefined &&
      i.replicas === undefined,
  );
  return ok ? path?.slice(1) : undefined;
}

/**
 * Multi-document containers: containers keyed by the same attribute hold items that share
 * logical partitions (a site's devices and alerts); one container saves a minimum throughput.
 */
export function sameKeyMergeCandidates(
  model: Model,
  workload: Workload,
  correlation: ReadonlyMap<string, number>,
): Candidate[] {
  return sameKeyMergePairs(model, workload, correlation).map(candidateOfPair);
}

/** {@link sameKeyMergeCandidates} as pairs whose models are built on demand (see `MergePair`). */
export function sameKeyMergePairs(
  model: Model,
  workload: Workload,
  correlation: ReadonlyMap<string, number>,
): MergePair[] {
  const candidates: MergePair[] = [];
  // Under 30% correlation the prompt keeps a related pair in separate containers.
  const separated = (a: Model["containers"][number], b: Model["containers"][number]): boolean =>
    workload.relationships.some(
      (r) =>
        ((a.items.some((i) => i.entity === r.parent) && b.items.some((i) => i.entity === r.child)) ||
          (b.items.some((i) => i.entity === r.parent) && a.items.some((i) => i.entity === r.child))) &&
        (correlation.get(`${r.parent}>${r.child}`) ?? 0) < SEPARATE_BELOW,
    );
  for (let i = 0; i < model.containers.length; i++) {
    for (let j = i + 1; j < model.containers.length; j++) {
      const a = model.containers[i];
      const b = model.containers[j];
      if (a === undefined || b === undefined) continue;
      const key = keyAttributeOf(a);
      if (key === undefined || key === "id" || keyAttributeOf(b) !== key) continue;
      if (b.items.some((item) => a.items.some((other) => other.type === item.type)) || separated(a, b))
        continue;
      candidates.push({
        name: `share one container keyed by /${key} for ${a.name} and ${b.name} (their items share logical partitions)`,
        merges: [a.name, b.name],
        build: () =>
          mergeContainers(model, b, {
            ...a,
            items: [...a.items, ...b.items],
            indexing: mergedIndexing(a, b),
          }),
      });
    }
  }
  return candidates;
}

/** True when every item of the container is addressed by its id alone (key template = id template). */
function addressedById(container: Model["containers"][number]): boolean {
  return container.items.every(
    (i) =>
      i.partitionKey.length === 1 &&
      i.partitionKey[0] === i.id &&
      i.source === undefined &&
      i.shards === undefined,
  );
}

/**
 * A consolidation of two containers whose model is built only when asked: pairs grow with the
 * square of the containers, and a model built for each (before `boundedMerges` kept 4 per
 * container) took a 500-entity design past its memory budget (229 entities in one group).
 */
export interface MergePair {
  readonly name: string;
  readonly merges: readonly [string, string];
  readonly build: () => Model;
}

/** The candidate of a pair, its model built. */
export function candidateOfPair(pair: MergePair): Candidate {
  return { name: pair.name, merges: pair.merges, model: pair.build() };
}

/**
 * Container consolidation: two containers whose items are all read by id can share one
 * container keyed by /id, which saves a container's minimum throughput when one of them is small.
 */
export function mergeCandidates(model: Model): Candidate[] {
  return mergePairs(model).map(candidateOfPair);
}

/** {@link mergeCandidates} as pairs whose models are built on demand (see `MergePair`). */
export function mergePairs(model: Model): MergePair[] {
  const candidates: MergePair[] = [];
  const eligible = model.containers.filter(addressedById);
  for (let i = 0; i < eligible.length; i++) {
    for (let j = i + 1; j < eligible.length; j++) {
      const a = eligible[i];
      const b = eligible[j];
      if (a === undefined || b === undefined) continue;
      const types = new Set(a.items.map((item) => item.type));
      if (b.items.some((item) => types.has(item.type))) continue;
      candidates.push({
        name: `share one container keyed by /id for ${a.name} and ${b.name} (every item is read by its id)`,
        merges: [a.name, b.name],
        build: () =>
          mergeContainers(model, b, {
            ...a,
            partitionKey: ["/id"],
            items: [...a.items, ...b.items],
            indexing: mergedIndexing(a, b),
          }),
      });
    }
  }
  return candidates;
}
