/**
 * What planning asks of a model, and whether another model would answer the same.
 *
 * The planner and the load arithmetic see the model only through the planning context's look-ups
 * (`placementsOf`, `placement`, `container`, `copiesOf`, `embeddersOf`, `counterHoldersOf`,
 * `copyHoldersOf`, `tombstone`, `deletes`; the rest answer from the workload) and the partition count of a container.
 * Everything else they read (item shapes, indexing policies, item counts) is a function of the
 * workload and of the containers and items those look-ups return. So a plan made for one model is
 * the plan of another model when every look-up it made answers the same there: each answer is
 * fingerprinted (the containers and item types it returns, compared as JSON, interned as numbers)
 * and a model's answers form a table that two models compare key by key.
 */
import type { Container, ItemType, Model } from "../model/types.js";
import type { Placement, PlanningContext } from "../planner/context.js";
import type { Workload } from "../workload/types.js";

/** A look-up, as a key: its kind and arguments. */
export type AnswerKey = string;

/** Interned fingerprints: equal numbers for equal JSON, 0 for "nothing" (absent, empty list). */
export class Fingerprints {
  private readonly ids = new Map<string, number>();
  private readonly objects = new WeakMap<object, number>();
  private readonly models = new WeakMap<Model, number>();
  private nextModel = 0;

  /** The number of a text (the same text, the same number). */
  intern(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(text, id);
    }
    return id;
  }

  /** The fingerprint of a container or item type (its JSON; computed once per object). */
  of(value: Container | ItemType): number {
    let id = this.objects.get(value);
    if (id === undefined) {
      id = this.intern(JSON.stringify(value));
      this.objects.set(value, id);
    }
    return id;
  }

  /** A number of its own for each model object (equal models too: never taken as the same). */
  identity(model: Model): number {
    let id = this.models.get(model);
    if (id === undefined) {
      id = this.intern(`model ${++this.nextModel}`);
      this.models.set(model, id);
    }
    return id;
  }

  placement(placement: Placement | undefined): number {
    return placement === undefined
      ? 0
      : this.intern(`${this.of(placement.container)},${this.of(placement.item)}`);
  }

  placements(list: readonly Placement[]): number {
    return list.length === 0 ? 0 : this.intern(list.map((p) => this.placement(p)).join(";"));
  }
}

const SEPARATOR = "\u0000";
const keyOf = (...parts: readonly string[]): AnswerKey => parts.join(SEPARATOR);

/** The key of `container(name)`: what a figure computed from the container object depends on. */
export const containerAnswerKey = (name: string): AnswerKey => keyOf("C", name);

/** The key of the whole model (a reader of `context.model` depends on all of it). */
const WHOLE_MODEL: AnswerKey = "*";

/** The key of `deletes()`: how the model carries deletes to the change feed. */
const DELETES: AnswerKey = "D";

/** Every look-up a model answers with something, fingerprinted; absent keys answer "nothing" (0). */
export type AnswerTable = ReadonlyMap<AnswerKey, number>;

/**
 * The answers `context` (built for `model`) gives to every look-up that can answer something:
 * names are taken from the same fields the context indexes, so a name outside them answers
 * nothing in this model.
 */
export function answerTable(
  workload: Workload,
  model: Model,
  context: PlanningContext,
  fingerprints: Fingerprints,
): AnswerTable {
  const table = new Map<AnswerKey, number>();
  const set = (key: AnswerKey, fingerprint: number): void => {
    if (fingerprint !== 0) table.set(key, fingerprint);
  };
  const entities = new Set(workload.entities.map((e) => e.name));
  const copied = new Set<string>();
  for (const container of model.containers) {
    set(keyOf("C", container.name), fingerprints.of(container));
    for (const stored of container.items) {
      set(
        keyOf("P", container.name, stored.type),
        fingerprints.placement(context.placement(container.name, stored.type)),
      );
      const tombstone = context.tombstone(container.name, stored.type);
      if (tombstone !== undefined)
        set(keyOf("T", container.name, stored.type), fingerprints.intern(tombstone));
      entities.add(stored.entity);
      for (const embed of stored.embeds) entities.add(embed.entity);
      for (const count of stored.counts) entities.add(count.of);
      for (const copy of stored.copies) entities.add(copy.from.entity);
      if (stored.source !== undefined) copied.add(keyOf(stored.source.container, stored.source.type));
    }
  }
  for (const entity of entities) {
    set(keyOf("E", entity), fingerprints.placements(context.placementsOf(entity)));
    set(keyOf("M", entity), fingerprints.placements(context.embeddersOf(entity)));
    set(keyOf("N", entity), fingerprints.placements(context.counterHoldersOf(entity)));
    set(keyOf("Y", entity), fingerprints.placements(context.copyHoldersOf(entity)));
  }
  for (const source of copied) {
    const [container = "", type = ""] = source.split(SEPARATOR);
    set(keyOf("K", container, type), fingerprints.placements(context.copiesOf(container, type)));
  }
  set(DELETES, fingerprints.intern(JSON.stringify(context.deletes())));
  set(WHOLE_MODEL, fingerprints.identity(model));
  return table;
}

/** The keys whose answers differ between two tables. */
export function changedAnswers(before: AnswerTable, after: AnswerTable): AnswerKey[] {
  const changed: AnswerKey[] = [];
  for (const [key, fingerprint] of before) if (after.get(key) !== fingerprint) changed.push(key);
  for (const key of after.keys()) if (!before.has(key)) changed.push(key);
  return changed;
}

/** The context's look-ups that answer from the workload alone (the same for every model). */
export const WORKLOAD_LOOK_UPS = [
  "workload",
  "entity",
  "attribute",
  "relationship",
  "parentsOf",
  "childrenOf",
  "countAtHorizon",
  "distinctValues",
  "skewOf",
  "writesOf",
  "patternIndex",
  "readsTouching",
] as const;

/** The context's look-ups whose answers depend on the model: each read is recorded. */
export const MODEL_LOOK_UPS = [
  "model",
  "placementsOf",
  "placement",
  "container",
  "copiesOf",
  "embeddersOf",
  "counterHoldersOf",
  "copyHoldersOf",
  "tombstone",
  "deletes",
] as const;

/**
 * The context, with every look-up that depends on the model reported to `read` (its key) before
 * it answers.
 */
export function recordingContext(context: PlanningContext, read: (key: AnswerKey) => void): PlanningContext {
  return {
    workload: context.workload,
    get model() {
      read(WHOLE_MODEL);
      return context.model;
    },
    entity: (name) => context.entity(name),
    attribute: (entity, name) => context.attribute(entity, name),
    placementsOf(entity) {
      read(keyOf("E", entity));
      return context.placementsOf(entity);
    },
    placement(container, type) {
      read(keyOf("P", container, type));
      return context.placement(container, type);
    },
    container(name) {
      read(keyOf("C", name));
      return context.container(name);
    },
    relationship: (parent, child) => context.relationship(parent, child),
    parentsOf: (entity) => context.parentsOf(entity),
    childrenOf: (entity) => context.childrenOf(entity),
    countAtHorizon: (entity) => context.countAtHorizon(entity),
    distinctValues: (entity, attribute) => context.distinctValues(entity, attribute),
    skewOf: (entity, attribute) => context.skewOf(entity, attribute),
    writesOf: (entity) => context.writesOf(entity),
    patternIndex: (id) => context.patternIndex(id),
    readsTouching: (entity) => context.readsTouching(entity),
    copiesOf(container, type) {
      read(keyOf("K", container, type));
      return context.copiesOf(container, type);
    },
    embeddersOf(entity) {
      read(keyOf("M", entity));
      return context.embeddersOf(entity);
    },
    counterHoldersOf(entity) {
      read(keyOf("N", entity));
      return context.counterHoldersOf(entity);
    },
    copyHoldersOf(entity) {
      read(keyOf("Y", entity));
      return context.copyHoldersOf(entity);
    },
    tombstone(container, type) {
      read(keyOf("T", container, type));
      return context.tombstone(container, type);
    },
    deletes() {
      read(DELETES);
      return context.deletes();
    },
  };
}
