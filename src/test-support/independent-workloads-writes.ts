/**
 * Write patterns of an independent workload (`independent-workloads.ts`): a create or upsert per
 * entity (except at most one entity that nothing creates), then patches, replaces, upserts with
 * `changes` and deletes of entities that are not binned (a bucket's records are append-only).
 * Changes lean towards the attributes that hurt a model: a via (the record moves to another
 * parent) and an attribute another entity's read copies (`with: [User.name]`). A pair of writes of
 * related entities may commit together (`atomicWith`).
 */
import {
  isBinned,
  type DraftAttribute,
  type DraftEntity,
  type DraftRead,
  type DraftWrite,
  type PatternContext,
  type WriteOperation,
} from "./independent-workloads-model.js";
import { drawRate } from "./independent-workloads-rates.js";
import { chance, intBetween, pick, sample, shuffle, type Random } from "./independent-workloads-random.js";

/** The most records a write pattern sends at peak (`rps.peak x batch`), far below massive scale. */
const MAX_PEAK_RECORDS = 2000;

/**
 * The write patterns of every entity of `context.schema`, given its reads (for the attributes
 * they copy and the entities they read).
 * @example draftWrites(context, reads).some((write) => write.operation === "create") // usually true
 */
export function draftWrites(context: PatternContext, reads: readonly DraftRead[]): DraftWrite[] {
  const { random, schema } = context;
  const copied = copiedAttributes(reads);
  const read = readEntities(reads);
  const writes: DraftWrite[] = [];
  for (const entity of schema.entities) {
    const own: DraftWrite[] = [];
    const binned = isBinned(entity);
    if (entity.name !== context.uncreated) {
      const upsert = chance(random, 0.25);
      own.push(
        drawWrite(context, entity, upsert ? "upsert" : "create", {
          changes: upsert && !binned && chance(random, 0.4) ? drawChanges(random, entity, copied) : undefined,
          batch: chance(random, 0.15),
          buffered: chance(random, binned ? 0.5 : 0.12),
        }),
      );
    }
    if (!binned) {
      if (chance(random, 0.45)) {
        const changes = drawChanges(random, entity, copied);
        own.push(
          drawWrite(context, entity, "patch", {
            changes,
            batch: chance(random, 0.05),
            buffered: chance(random, 0.08),
          }),
        );
      }
      if (chance(random, 0.15)) {
        const changes = chance(random, 0.4) ? drawChanges(random, entity, copied) : undefined;
        own.push(drawWrite(context, entity, "replace", { changes, batch: false, buffered: false }));
      }
      if (chance(random, 0.3))
        own.push(drawWrite(context, entity, "delete", { batch: chance(random, 0.05), buffered: false }));
    }
    if (!read.has(entity.name)) {
      for (const write of own) if (chance(random, 0.5)) write.standalone = true;
    }
    writes.push(...own);
  }
  if (chance(random, 0.4)) linkAtomicWrites(context, writes);
  return writes;
}

interface WriteChoices {
  readonly changes?: readonly string[] | undefined;
  readonly batch: boolean;
  readonly buffered: boolean;
}

function drawWrite(
  context: PatternContext,
  entity: DraftEntity,
  operation: WriteOperation,
  choices: WriteChoices,
): DraftWrite {
  const { random } = context;
  const rps = drawRate(random, context.settings.writeRps);
  const batch = choices.batch
    ? Math.max(1, Math.min(intBetween(random, 2, 25), Math.floor(MAX_PEAK_RECORDS / Math.max(1, rps.peak))))
    : undefined;
  const changed = choices.changes === undefined ? "" : ` (${choices.changes.join(", ")})`;
  return {
    type: "write",
    id: context.nextId("write"),
    name: `${operation.charAt(0).toUpperCase()}${operation.slice(1)} ${entity.name} records${changed}`,
    entity: entity.name,
    rps,
    operation,
    ...(choices.changes === undefined ? {} : { changes: choices.changes }),
    ...(batch === undefined || batch < 2 ? {} : { batch }),
    ...(choices.buffered ? { bufferedRecords: intBetween(random, 2, 30) } : {}),
    ...(chance(random, 0.05) ? { skew: pick(random, [0, 0.5, 1, 1.3]) } : {}),
  };
}

/**
 * One to three attributes a write changes: often a via (a move) or an attribute others copy;
 * none (undefined) when the entity has no attribute besides its key.
 */
function drawChanges(random: Random, entity: DraftEntity, copied: ReadonlySet<string>): string[] | undefined {
  const changeable = entity.attributes.filter(
    (attribute) => !entity.key.includes(attribute.name) && attribute.name !== "createdAt",
  );
  if (changeable.length === 0) return undefined;
  const chosen = new Set<string>();
  const vias = changeable.filter((attribute) => attribute.role === "via");
  if (vias.length > 0 && chance(random, 0.35)) chosen.add(pick(random, vias).name);
  const copies = changeable.filter((attribute) => copied.has(`${entity.name}.${attribute.name}`));
  if (copies.length > 0 && chance(random, 0.6)) chosen.add(pick(random, copies).name);
  const mutable = changeable.filter((attribute: DraftAttribute) => attribute.changes !== "never");
  const wanted = intBetween(random, 1, 3);
  for (const attribute of shuffle(random, mutable.length > 0 ? mutable : changeable)) {
    if (chosen.size >= wanted) break;
    chosen.add(attribute.name);
  }
  return changeable.map((attribute) => attribute.name).filter((name) => chosen.has(name));
}

/** Makes one write commit with a write of a related entity (sometimes both ways, or with two). */
function linkAtomicWrites(context: PatternContext, writes: readonly DraftWrite[]): void {
  const { random, schema } = context;
  const single = writes.filter((write) => write.batch === undefined && write.bufferedRecords === undefined);
  const related = (left: string, right: string): boolean =>
    schema.relationships.some(
      (relationship) =>
        relationship.kind !== "many-to-many" &&
        ((relationship.parent === left && relationship.child === right) ||
          (relationship.parent === right && relationship.child === left)),
    );
  const pairs = single.flatMap((first) =>
    single
      .filter((second) => second !== first && related(first.entity, second.entity))
      .map((second) => [first, second] as const),
  );
  if (pairs.length === 0) return;
  const [first, second] = pick(random, pairs);
  const partners = [
    second,
    ...sample(
      random,
      pairs.filter(([from, to]) => from === first && to !== second).map(([, to]) => to),
      chance(random, 0.15) ? 1 : 0,
    ),
  ];
  first.atomicWith = partners.map((write) => write.id);
  if (chance(random, 0.3)) second.atomicWith = [first.id];
}

/** `Entity.attribute` of every attribute a read returns through `with` (copied or read at query time). */
function copiedAttributes(reads: readonly DraftRead[]): Set<string> {
  const copied = new Set<string>();
  for (const read of reads) {
    for (const entry of read.with) {
      const match = /^(?:(?:sum|min|max)\(\s*)?([A-Za-z_]\w*)\.([A-Za-z_$][\w$]*)\s*\)?$/.exec(entry);
      if (match?.[1] !== undefined && match[2] !== undefined) copied.add(`${match[1]}.${match[2]}`);
    }
  }
  return copied;
}

/** Entities a read reads, directly or through a `with` entry. */
function readEntities(reads: readonly DraftRead[]): Set<string> {
  const read = new Set<string>();
  for (const pattern of reads) {
    read.add(pattern.entity);
    for (const entry of pattern.with) {
      const match = /^(?:\w+\(\s*)?([A-Za-z_]\w*)/.exec(entry);
      if (match?.[1] !== undefined) read.add(match[1]);
    }
  }
  return read;
}
