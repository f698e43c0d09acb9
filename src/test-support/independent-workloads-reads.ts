/**
 * Read patterns of an independent workload (`independent-workloads.ts`): one to three per entity,
 * each located by its key, a parent's via (a parent's children), a unique attribute, a range of
 * dates or numbers, an array's element, a prefix, a category, or nothing (a global feed); then
 * ordered, limited, projected, truncated and joined with related data (`with`) at random.
 */
import {
  CONSISTENCIES,
  entityNamed,
  type Consistency,
  type DraftAttribute,
  type DraftEntity,
  type DraftRead,
  type DraftRelationship,
  type PatternContext,
  type WhereOperator,
} from "./independent-workloads-model.js";
import { drawRate } from "./independent-workloads-rates.js";
import {
  between,
  chance,
  intBetween,
  pick,
  pickWeighted,
  roundSignificant,
  sample,
  type Random,
} from "./independent-workloads-random.js";

/** How a read finds its records: the filters, and how many records they match on average. */
interface Located {
  readonly where: (readonly [string, WhereOperator])[];
  /** A list of records (not one record by its identity). */
  readonly listing: boolean;
  readonly expected: number;
  /** Needs an order and a limit to be a sensible read (a feed). */
  readonly feed?: boolean;
}

type Locator = () => Located | undefined;

/**
 * The read patterns of every entity of `context.schema`.
 * @example draftReads(context).every((read) => read.type === "read") // true
 */
export function draftReads(context: PatternContext): DraftRead[] {
  const { random } = context;
  const reads: DraftRead[] = [];
  for (const entity of context.schema.entities) {
    const count = 1 + (chance(random, 0.6) ? 1 : 0) + (chance(random, 0.25) ? 1 : 0);
    for (let index = 0; index < count; index += 1) reads.push(draftRead(context, entity));
  }
  return reads;
}

function draftRead(context: PatternContext, entity: DraftEntity): DraftRead {
  const { random } = context;
  const located = locate(context, entity);
  const orderBy =
    located.listing && (located.feed === true || chance(random, 0.6)) ? drawOrder(random, entity) : [];
  const needsLimit =
    located.feed === true || !located.where.some(([, op]) => op !== "range" && op !== "prefix");
  const limit =
    located.listing && (needsLimit || chance(random, 0.5))
      ? chance(random, 0.6)
        ? pick(random, [1, 5, 10, 20, 50, 100])
        : intBetween(random, 1, 200)
      : undefined;
  const expected = Math.min(roundSignificant(located.expected, 2), limit ?? Infinity);
  const returns = chance(random, located.listing ? 0.5 : 0.15) ? expected : undefined;
  const { select, truncate } = drawProjection(random, entity);
  const candidates = withCandidates(context, entity);
  const withEntries =
    candidates.length > 0 && chance(random, 0.55) ? sample(random, candidates, intBetween(random, 1, 3)) : [];
  // docs/workload-format.md: an attribute across a many-to-many relationship is answered only by a
  // copy the change feed keeps, so such a read allows a delay (never maxStalenessSeconds: 0).
  const linkedAcross = withEntries.some((entry) => {
    const named = /^([A-Za-z_][A-Za-z0-9_]*)\.[A-Za-z_$]/.exec(entry)?.[1];
    return context.schema.relationships.some(
      (r) =>
        r.kind === "many-to-many" &&
        ((r.parent === entity.name && r.child === named) || (r.child === entity.name && r.parent === named)),
    );
  });
  const staleness = chance(random, withEntries.length > 0 ? 0.35 : 0.05)
    ? chance(random, 0.4) && !linkedAcross
      ? 0
      : pick(random, [1, 5, 30, 300])
    : undefined;
  const uncreated = context.uncreated === entity.name;
  return {
    type: "read",
    id: context.nextId("read"),
    name: readName(entity, located, orderBy.length > 0),
    entity: entity.name,
    rps: drawRate(random, context.settings.readRps),
    where: located.where,
    orderBy,
    ...(limit === undefined ? {} : { limit }),
    ...(returns === undefined ? {} : { returns }),
    ...(select === undefined ? {} : { select }),
    ...(truncate === undefined ? {} : { truncate }),
    with: withEntries,
    ...(chance(random, 0.2) ? { consistency: drawConsistency(random, context.multiRegionWrites) } : {}),
    ...(chance(random, 0.15) ? { latencyMs: pick(random, [5, 10, 20, 50, 100]) } : {}),
    ...(staleness === undefined ? {} : { maxStalenessSeconds: staleness }),
    ...(chance(random, 0.1) ? { skew: roundSignificant(between(random, 0, 1.5), 2) } : {}),
    ...(chance(random, uncreated ? 0.5 : 0.04) ? { standalone: true } : {}),
  };
}

function locate(context: PatternContext, entity: DraftEntity): Located {
  const { random } = context;
  const vias = viaRelationships(context, entity);
  const data = entity.attributes.filter(
    (attribute) => attribute.role === "data" && !entity.key.includes(attribute.name),
  );
  const ofType = (...types: string[]) => data.filter((attribute) => types.includes(attribute.type));
  const viaEq = (): (readonly [string, WhereOperator])[] => {
    const relationship = vias.length > 0 && chance(random, 0.5) ? pick(random, vias) : undefined;
    return relationship?.via === undefined ? [] : [[relationship.via, "eq"]];
  };
  const locators: [Locator, number][] = [
    [() => byKey(context, entity, vias), 3],
    [
      () =>
        entity.key.length === 1
          ? { where: [[entity.key[0] ?? "", "in"]], listing: true, expected: intBetween(random, 2, 10) }
          : undefined,
      1,
    ],
    [() => byParent(context, entity, vias), vias.length > 0 ? 4 : 0],
    [() => byUnique(random, data), 1],
    [() => byRange(random, ofType("datetime", "number"), viaEq()), 1.5],
    [() => byElement(random, ofType("array"), viaEq()), 1],
    [
      () =>
        byPrefix(
          random,
          ofType("string").filter((attribute) => attribute.long !== true),
          viaEq(),
        ),
      1,
    ],
    [
      () =>
        byCategory(
          random,
          data.filter((attribute) => attribute.categorical === true || attribute.type === "boolean"),
          viaEq(),
        ),
      1,
    ],
    [() => ({ where: [], listing: true, expected: entity.count, feed: true }), 0.8],
  ];
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const located = pickWeighted(random, locators)();
    if (located !== undefined) return located;
  }
  return byKey(context, entity, vias);
}

/** Every key attribute by `eq`, sometimes with the parent's via too (a read scoped by its parent). */
function byKey(context: PatternContext, entity: DraftEntity, vias: readonly DraftRelationship[]): Located {
  const where: (readonly [string, WhereOperator])[] = entity.key.map((name) => [name, "eq"] as const);
  const scope = vias.find(
    (relationship) => relationship.via !== undefined && !entity.key.includes(relationship.via),
  );
  if (scope?.via !== undefined && chance(context.random, 0.25)) where.unshift([scope.via, "eq"]);
  return { where, listing: false, expected: 1 };
}

/** A parent's children by the via (eq or in), sometimes with a second via or a date range. */
function byParent(context: PatternContext, entity: DraftEntity, vias: readonly DraftRelationship[]): Located {
  const { random } = context;
  const relationship = pick(random, vias);
  const via = relationship.via ?? "";
  const many = chance(random, 0.2);
  const where: (readonly [string, WhereOperator])[] = [[via, many ? "in" : "eq"]];
  let expected = relationship.avg * (many ? 3 : 1);
  const other = vias.find((candidate) => candidate.via !== undefined && candidate.via !== via);
  const dated = entity.attributes.find(
    (attribute) => attribute.type === "datetime" && attribute.role === "data",
  );
  if (other?.via !== undefined && chance(random, 0.3)) {
    where.push([other.via, "eq"]); // did this person react to this post?
    expected = Math.min(1, expected);
  } else if (dated !== undefined && chance(random, 0.3)) {
    where.push([dated.name, "range"]);
    expected *= 0.3;
  }
  return { where, listing: true, expected: Math.max(0.01, expected) };
}

function byUnique(random: Random, data: readonly DraftAttribute[]): Located | undefined {
  const unique = data.filter((attribute) => attribute.unique === true);
  return unique.length === 0
    ? undefined
    : { where: [[pick(random, unique).name, "eq"]], listing: false, expected: 1 };
}

function byRange(
  random: Random,
  ranged: readonly DraftAttribute[],
  scope: (readonly [string, WhereOperator])[],
): Located | undefined {
  if (ranged.length === 0) return undefined;
  return {
    where: [...scope, [pick(random, ranged).name, "range"]],
    listing: true,
    expected: intBetween(random, 1, 40),
  };
}

function byElement(
  random: Random,
  arrays: readonly DraftAttribute[],
  scope: (readonly [string, WhereOperator])[],
): Located | undefined {
  if (arrays.length === 0) return undefined;
  return {
    where: [...scope, [pick(random, arrays).name, "contains"]],
    listing: true,
    expected: intBetween(random, 1, 30),
  };
}

function byPrefix(
  random: Random,
  strings: readonly DraftAttribute[],
  scope: (readonly [string, WhereOperator])[],
): Located | undefined {
  if (strings.length === 0) return undefined;
  return {
    where: [...scope, [pick(random, strings).name, "prefix"]],
    listing: true,
    expected: intBetween(random, 1, 20),
  };
}

function byCategory(
  random: Random,
  categorical: readonly DraftAttribute[],
  scope: (readonly [string, WhereOperator])[],
): Located | undefined {
  if (categorical.length === 0) return undefined;
  const attribute = pick(random, categorical);
  const operator = attribute.type !== "boolean" && chance(random, 0.3) ? "in" : "eq";
  return {
    where: [...scope, [attribute.name, operator]],
    listing: true,
    expected: intBetween(random, 1, 50),
  };
}

/** One or two sortable attributes, each ascending or descending (dates first). */
function drawOrder(random: Random, entity: DraftEntity): (readonly [string, "asc" | "desc"])[] {
  const sortable = entity.attributes.filter((attribute) =>
    ["datetime", "number", "string"].includes(attribute.type),
  );
  const dated = sortable.filter((attribute) => attribute.type === "datetime");
  const first =
    dated.length > 0 && chance(random, 0.7)
      ? pick(random, dated)
      : sortable.length > 0
        ? pick(random, sortable)
        : undefined;
  if (first === undefined) return [];
  const order: (readonly [string, "asc" | "desc"])[] = [[first.name, chance(random, 0.6) ? "desc" : "asc"]];
  const rest = sortable.filter((attribute) => attribute !== first);
  if (rest.length > 0 && chance(random, 0.25))
    order.push([pick(random, rest).name, chance(random, 0.5) ? "desc" : "asc"]);
  return order;
}

function drawProjection(
  random: Random,
  entity: DraftEntity,
): { select?: readonly string[]; truncate?: readonly (readonly [string, number])[] } {
  const others = entity.attributes.filter((attribute) => !entity.key.includes(attribute.name));
  const selected = chance(random, 0.3)
    ? [
        ...(chance(random, 0.85) || others.length === 0 ? entity.key : []), // sometimes not even the key
        ...sample(random, others, intBetween(random, 1, 3)).map((a) => a.name),
      ]
    : undefined;
  const strings = entity.attributes.filter(
    (attribute) => attribute.type === "string" && !entity.key.includes(attribute.name),
  );
  const long = strings.filter((attribute) => attribute.long === true);
  if (strings.length === 0 || !chance(random, long.length > 0 ? 0.3 : 0.1)) {
    return selected === undefined ? {} : { select: order(entity, selected) };
  }
  const truncated = pick(random, long.length > 0 ? long : strings).name;
  const truncate = [[truncated, pick(random, [16, 64, 200, 500])] as const];
  if (selected === undefined) return { truncate };
  return {
    select: order(entity, selected.includes(truncated) ? selected : [...selected, truncated]),
    truncate,
  };
}

/** `names` in the entity's attribute order, each once. */
function order(entity: DraftEntity, names: readonly string[]): string[] {
  return entity.attributes.map((attribute) => attribute.name).filter((name) => names.includes(name));
}

/** Every `with` entry the entity's relationships allow (each text once). */
export function withCandidates(context: PatternContext, entity: DraftEntity): string[] {
  const { random, schema } = context;
  const entries = new Set<string>();
  const spaced = (text: string): string =>
    chance(random, 0.05) ? text.replace("(", "( ").replace(")", " )").replace(", ", ",") : text;
  for (const relationship of schema.relationships) {
    if (relationship.child === entity.name) {
      const parent = entityNamed(schema.entities, relationship.parent);
      for (const attribute of parent.attributes) {
        if (!parent.key.includes(attribute.name)) entries.add(`${parent.name}.${attribute.name}`);
      }
    }
    if (relationship.parent !== entity.name) continue;
    const child = entityNamed(schema.entities, relationship.child);
    const childData = child.attributes.filter((attribute) => !child.key.includes(attribute.name));
    // `Entity.attribute` names one record: a parent, or the records linked many-to-many (the
    // format refuses a child's attribute: a parent has any number of children).
    if (relationship.kind === "many-to-many")
      for (const attribute of childData) entries.add(`${child.name}.${attribute.name}`);
    if (relationship.kind === "many-to-many") continue; // count, all and latest need a link entity
    entries.add(spaced(`count(${child.name})`));
    entries.add(spaced(`all(${child.name})`));
    if (child.attributes.some((attribute) => attribute.type === "datetime")) {
      entries.add(spaced(`latest(${child.name}, ${intBetween(random, 1, 5)})`));
    }
    // Aggregates of data only (the sum of parent keys means nothing).
    for (const attribute of childData.filter((candidate) => candidate.role === "data")) {
      if (attribute.type === "number") entries.add(spaced(`sum(${child.name}.${attribute.name})`));
      if (attribute.type !== "object" && attribute.type !== "array") {
        entries.add(spaced(`${chance(random, 0.5) ? "min" : "max"}(${child.name}.${attribute.name})`));
      }
    }
  }
  // One entry per meaning: `all( Team )` and `all(Team)` are the same entry to the loader.
  const byMeaning = new Map<string, string>();
  for (const entry of entries) {
    const meaning = entry.replace(/\s+/g, "");
    if (!byMeaning.has(meaning)) byMeaning.set(meaning, entry);
  }
  return [...byMeaning.values()];
}

function viaRelationships(context: PatternContext, entity: DraftEntity): DraftRelationship[] {
  return context.schema.relationships.filter(
    (relationship) => relationship.child === entity.name && relationship.via !== undefined,
  );
}

function drawConsistency(random: Random, multiRegionWrites: boolean): Consistency {
  return pick(
    random,
    CONSISTENCIES.filter((level) => !multiRegionWrites || level !== "strong"),
  );
}

function readName(entity: DraftEntity, located: Located, ordered: boolean): string {
  const filters = located.where.map(([name, op]) => `${name} ${op}`).join(" and ");
  const what = located.listing ? `List ${entity.name} records` : `Get a ${entity.name}`;
  return `${what}${filters === "" ? "" : ` by ${filters}`}${ordered ? ", ordered" : ""}`;
}
