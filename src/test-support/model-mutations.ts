/**
 * Deterministic mutations of a valid (workload, model) pair for the differential bench
 * (src/bench/differential.ts): each changes one thing of the model file (or of the workload
 * file), on the parsed YAML document, and writes it back; the judge (differential.ts) loads the
 * result through the real loaders, so a mutation that makes either file invalid is judged too
 * (its load errors count as reported).
 *
 * Kinds (`MUTATION_KINDS`):
 * - `select.dropAttribute`: an item type stores one attribute less that a read filters, sorts or
 *   selects on (its `select` loses it, or a `select` of every other attribute is added);
 * - `id.changeTemplate`: an attribute of an id template dropped (when it has several) or replaced
 *   by another attribute of the entity (a key on `/id` follows);
 * - `partitionKey.changeTemplate`: an attribute of a partition key template replaced by another
 *   attribute of the entity (the path renamed when the rule "a path that is an attribute is that
 *   attribute" would refuse it);
 * - `relationship.swapVia` (workload): a relationship's `via` moved to another attribute of the
 *   child of the same type;
 * - `boundedSet.shrink`: a `keepLatest.count` or `embeds[].latest` one below what a read needs;
 * - `relationship.remove` (workload): a relationship removed;
 * - `attribute.renameInWorkload` (workload): an attribute another entity also has renamed on one
 *   entity (its patterns and `with` entries follow), the model unchanged;
 * - `attribute.renameConsistently` (workload and model): the same rename carried into that
 *   entity's item types, copies and indexes: an equivalent pair, which both views must accept
 *   (names are not identities, STYLE.md rule 20);
 * - `derived.drop`: a copy, counter or embed removed from an item type;
 * - `container.changeKeyPath`: a container's first partition key path changed to another
 *   attribute of the entities it stores (their templates follow).
 */
import type { Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import {
  addressingAttributes,
  documentText,
  entityNamed,
  itemDocument,
  listAt,
  mappingAt,
  parseMapping,
  readAttributes,
  readsOf,
  renamePlaceholder,
  reservedPlaceholders,
  scalarAttributes,
  templateAttributes,
  type Mapping,
} from "./mutation-documents.js";
import { relationshipMutations, renameMutations } from "./workload-mutations.js";

export const MUTATION_KINDS = [
  "select.dropAttribute",
  "id.changeTemplate",
  "partitionKey.changeTemplate",
  "relationship.swapVia",
  "boundedSet.shrink",
  "relationship.remove",
  "attribute.renameInWorkload",
  "attribute.renameConsistently",
  "derived.drop",
  "container.changeKeyPath",
] as const;

export type MutationKind = (typeof MUTATION_KINDS)[number];

/** A valid pair to mutate: the workload file's document and loaded form, the model's text and form. */
export interface MutationSubject {
  readonly workloadDocument: Mapping;
  readonly workload: Workload;
  readonly modelText: string;
  readonly model: Model;
}

/** One mutated pair: the model text, and the workload text when the workload changed. */
export interface Mutation {
  readonly kind: MutationKind;
  readonly description: string;
  readonly modelText: string;
  readonly workloadText?: string;
}

/** Replacement attributes tried per template attribute (the first ones of the entity). */
const REPLACEMENTS = 2;

/**
 * Every mutation of the pair, kind by kind in `MUTATION_KINDS` order, each kind in the model's
 * (or the workload's) order; the same subject always gives the same list.
 * @example mutationsOf(subject).filter((m) => m.kind === "derived.drop")
 */
export function mutationsOf(subject: MutationSubject): Mutation[] {
  const all: Mutation[] = [
    ...selectMutations(subject),
    ...idMutations(subject),
    ...partitionKeyMutations(subject),
    ...relationshipMutations(subject, "relationship.swapVia"),
    ...boundedSetMutations(subject),
    ...relationshipMutations(subject, "relationship.remove"),
    ...renameMutations(subject, "attribute.renameInWorkload"),
    ...renameMutations(subject, "attribute.renameConsistently"),
    ...derivedMutations(subject),
    ...keyPathMutations(subject),
  ];
  const seen = new Set<string>();
  return all.filter((mutation) => {
    const key = `${mutation.modelText}\u0000${mutation.workloadText ?? ""}`;
    const changed = mutation.workloadText !== undefined || mutation.modelText !== subject.modelText;
    if (!changed || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Calls `edit` on each item type with a fresh copy of the model document to change. */
function eachItem(
  subject: MutationSubject,
  edit: (
    item: Model["containers"][number]["items"][number],
    where: { container: Model["containers"][number]; containerIndex: number; itemIndex: number },
  ) => Mutation[],
): Mutation[] {
  return subject.model.containers.flatMap((container, containerIndex) =>
    container.items.flatMap((item, itemIndex) => edit(item, { container, containerIndex, itemIndex })),
  );
}

/** A model mutation: `change` edits a copy of the model document. */
function modelMutation(
  subject: MutationSubject,
  kind: MutationKind,
  description: string,
  change: (model: Mapping) => void,
): Mutation {
  const model = parseMapping(subject.modelText);
  change(model);
  return { kind, description, modelText: documentText(model) };
}

function selectMutations(subject: MutationSubject): Mutation[] {
  return eachItem(subject, (item, { container, containerIndex, itemIndex }) => {
    const entity = entityNamed(subject.workload, item.entity);
    const addressing = addressingAttributes(item);
    const stored = item.select ?? entity.attributes.map((a) => a.name);
    return [...readAttributes(subject.workload, item.entity)]
      .filter(([name]) => stored.includes(name) && !addressing.has(name))
      .map(([name, reader]) =>
        modelMutation(
          subject,
          "select.dropAttribute",
          `${container.name}/${item.type}: select without ${name} (${reader} reads it)${item.select === undefined ? ", added" : ""}`,
          (model) => {
            itemDocument(model, containerIndex, itemIndex)["select"] = stored.filter((a) => a !== name);
          },
        ),
      );
  });
}

function idMutations(subject: MutationSubject): Mutation[] {
  return eachItem(subject, (item, { container, containerIndex, itemIndex }) => {
    const names = templateAttributes(item.id);
    const entity = entityNamed(subject.workload, item.entity);
    const others = scalarAttributes(entity).filter((a) => !names.includes(a.name));
    const keyOnId = container.partitionKey.indexOf("/id");
    const templates = names.flatMap((name) => [
      ...(names.length > 1 ? [dropPlaceholder(item.id, name)] : []),
      ...others.slice(0, REPLACEMENTS).map((other) => renamePlaceholder(item.id, name, other.name)),
    ]);
    return templates.map((template) =>
      modelMutation(
        subject,
        "id.changeTemplate",
        `${container.name}/${item.type}: id ${item.id} -> ${template}`,
        (model) => {
          const document = itemDocument(model, containerIndex, itemIndex);
          document["id"] = template;
          if (keyOnId >= 0) {
            const keys = [...listAt(document, "partitionKey")];
            keys[keyOnId] = template;
            document["partitionKey"] = keys;
          }
        },
      ),
    );
  });
}

/** `template` without `{name}` and the separator beside it. */
function dropPlaceholder(template: string, name: string): string {
  return template.replace(new RegExp(`[-_:]?\\{${name.replace(/\$/g, "\\$")}\\}`), "").replace(/^[-_:]/, "");
}

function partitionKeyMutations(subject: MutationSubject): Mutation[] {
  return eachItem(subject, (item, { container, containerIndex, itemIndex }) => {
    const entity = entityNamed(subject.workload, item.entity);
    return container.partitionKey.flatMap((path, level) => {
      const template = item.partitionKey[level] ?? "";
      const [first] = templateAttributes(template);
      if (path === "/id" || path === "/type" || first === undefined) return [];
      const names = templateAttributes(template);
      const pathIsAttribute = entity.attributes.some((a) => `/${a.name}` === path);
      const renamedPath = pathIsAttribute ? freePath(subject, container, `${path}Key`) : undefined;
      return scalarAttributes(entity)
        .filter((a) => !names.includes(a.name))
        .slice(0, REPLACEMENTS)
        .map((other) => {
          const changed = renamePlaceholder(template, first, other.name);
          return modelMutation(
            subject,
            "partitionKey.changeTemplate",
            `${container.name}/${item.type}: partition key ${template} -> ${changed}${renamedPath === undefined ? "" : ` (path ${path} renamed ${renamedPath})`}`,
            (model) => {
              const document = itemDocument(model, containerIndex, itemIndex);
              const keys = [...listAt(document, "partitionKey")];
              keys[level] = changed;
              document["partitionKey"] = keys;
              if (renamedPath !== undefined) {
                const containerDocument = mappingAt(listAt(model, "containers"), containerIndex);
                const paths = [...listAt(containerDocument, "partitionKey")];
                paths[level] = renamedPath;
                containerDocument["partitionKey"] = paths;
              }
            },
          );
        });
    });
  });
}

/** `path`, or `path2`, `path3`...: the first that is no attribute of an entity the container stores. */
function freePath(subject: MutationSubject, container: Model["containers"][number], path: string): string {
  const taken = new Set(
    container.items.flatMap((item) =>
      entityNamed(subject.workload, item.entity).attributes.map((a) => `/${a.name}`),
    ),
  );
  for (let suffix = 1; ; suffix++) {
    const candidate = suffix === 1 ? path : `${path}${suffix}`;
    if (!taken.has(candidate) && !container.partitionKey.includes(candidate)) return candidate;
  }
}

function boundedSetMutations(subject: MutationSubject): Mutation[] {
  return eachItem(subject, (item, { container, containerIndex, itemIndex }) => {
    const out: Mutation[] = [];
    const reads = readsOf(subject.workload, item.entity);
    if (item.keepLatest !== undefined) {
      const limits = reads.flatMap((r) => (r.limit === undefined ? [] : [{ id: r.id, limit: r.limit }]));
      const widest = limits.reduce<{ id: string; limit: number } | undefined>(
        (best, r) => (best === undefined || r.limit > best.limit ? r : best),
        undefined,
      );
      const count = Math.min(item.keepLatest.count, widest?.limit ?? item.keepLatest.count) - 1;
      if (count >= 1) {
        out.push(
          modelMutation(
            subject,
            "boundedSet.shrink",
            `${container.name}/${item.type}: keepLatest.count ${item.keepLatest.count} -> ${count}${widest === undefined ? "" : ` (${widest.id} reads ${widest.limit})`}`,
            (model) => {
              const document = itemDocument(model, containerIndex, itemIndex);
              document["keepLatest"] = { ...mappingAt(document, "keepLatest"), count };
            },
          ),
        );
      }
    }
    item.embeds.forEach((embed, embedIndex) => {
      if (embed.latest === undefined) return;
      const needs = reads.flatMap((r) =>
        r.with.flatMap((w) => (w.kind === "latest" && w.entity === embed.entity ? [w.n] : [])),
      );
      const latest = Math.min(embed.latest, Math.max(0, ...needs) || embed.latest) - 1;
      if (latest < 1) return;
      out.push(
        modelMutation(
          subject,
          "boundedSet.shrink",
          `${container.name}/${item.type}: embeds ${embed.as} latest ${embed.latest} -> ${latest}`,
          (model) => {
            const embeds = listAt(itemDocument(model, containerIndex, itemIndex), "embeds");
            embeds[embedIndex] = { ...mappingAt(embeds, embedIndex), latest };
          },
        ),
      );
    });
    return out;
  });
}

function derivedMutations(subject: MutationSubject): Mutation[] {
  return eachItem(subject, (item, { container, containerIndex, itemIndex }) => {
    const derived = [
      ...item.copies.map((c) => ({
        field: "copies",
        text: `copy ${c.as} of ${c.from.entity}.${c.from.attribute}`,
      })),
      ...item.counts.map((c) => ({ field: "counts", text: `counter ${c.as} of ${c.of}` })),
      ...item.embeds.map((e) => ({ field: "embeds", text: `embed ${e.as} of ${e.entity}` })),
    ];
    const positions = new Map<string, number>();
    return derived.map(({ field, text }) => {
      const index = positions.get(field) ?? 0;
      positions.set(field, index + 1);
      return modelMutation(
        subject,
        "derived.drop",
        `${container.name}/${item.type}: without the ${text}`,
        (model) => {
          const document = itemDocument(model, containerIndex, itemIndex);
          const kept = listAt(document, field).filter((_, i) => i !== index);
          // An empty list is what the file's default is: written out, it loads the same.
          document[field] = kept;
        },
      );
    });
  });
}

function keyPathMutations(subject: MutationSubject): Mutation[] {
  return subject.model.containers.flatMap((container, containerIndex) => {
    const [path] = container.partitionKey;
    if (path === undefined || path === "/id" || path === "/type") return [];
    const names = new Set<string>();
    for (const item of container.items) {
      for (const attribute of scalarAttributes(entityNamed(subject.workload, item.entity))) {
        if (`/${attribute.name}` !== path) names.add(attribute.name);
      }
    }
    return [...names].slice(0, REPLACEMENTS).map((name) => {
      const keyed = container.items.filter((item) =>
        entityNamed(subject.workload, item.entity).attributes.some((a) => a.name === name),
      );
      return modelMutation(
        subject,
        "container.changeKeyPath",
        `${container.name}: partition key ${path} -> /${name} (${keyed.map((i) => i.type).join(", ")} keyed {${name}})`,
        (model) => {
          const document = mappingAt(listAt(model, "containers"), containerIndex);
          document["partitionKey"] = [`/${name}`, ...container.partitionKey.slice(1)];
          container.items.forEach((item, itemIndex) => {
            if (!keyed.includes(item)) return;
            const reserved = reservedPlaceholders(item.partitionKey[0] ?? "");
            const itemDoc = itemDocument(model, containerIndex, itemIndex);
            itemDoc["partitionKey"] = [
              [`{${name}}`, ...reserved.map((r) => `{${r}}`)].join("-"),
              ...item.partitionKey.slice(1),
            ];
          });
        },
      );
    });
  });
}

/** One picked mutation: the index of its subject, and the mutation. */
export interface PickedMutation {
  readonly subject: number;
  readonly mutation: Mutation;
}

/**
 * `total` mutations of `candidates` (each subject's `mutationsOf`) spread over the kinds and the
 * subjects: the kinds get equal shares (a kind with too few candidates passes its share on), and
 * each kind's share is taken evenly over the subjects that have one (one per subject, in turn,
 * before any subject gives a second). Deterministic.
 * @example spreadMutations(subjects.map(mutationsOf), 300)
 */
export function spreadMutations(
  candidates: readonly (readonly Mutation[])[],
  total: number,
): PickedMutation[] {
  const lists = MUTATION_KINDS.map((kind) => {
    const perSubject = candidates.map((mutations) => mutations.filter((m) => m.kind === kind));
    const rounds = Math.max(0, ...perSubject.map((m) => m.length));
    const interleaved: PickedMutation[] = [];
    for (let round = 0; round < rounds; round++) {
      perSubject.forEach((mutations, subject) => {
        const mutation = mutations[round];
        if (mutation !== undefined) interleaved.push({ subject, mutation });
      });
    }
    return { interleaved, subjects: perSubject.filter((m) => m.length > 0).length };
  });
  const quotas = lists.map(() => 0);
  let remaining = Math.max(0, Math.floor(total));
  for (let progress = true; remaining > 0 && progress;) {
    progress = false;
    lists.forEach((list, kind) => {
      if (remaining > 0 && (quotas[kind] ?? 0) < list.interleaved.length) {
        quotas[kind] = (quotas[kind] ?? 0) + 1;
        remaining--;
        progress = true;
      }
    });
  }
  return lists.flatMap((list, kind) => {
    const quota = quotas[kind] ?? 0;
    const pool = list.interleaved.slice(0, Math.max(quota, list.subjects));
    return Array.from({ length: quota }, (_, j) => pool[Math.floor((j * pool.length) / quota)]).filter(
      (picked): picked is PickedMutation => picked !== undefined,
    );
  });
}
