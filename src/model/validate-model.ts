/**
 * Checks of a model against its workload: every entity and attribute a model names exists, and
 * every copy, counter and embed follows a relationship of the workload.
 */
import { recencyAttribute } from "../workload/recency.js";
import { createIssueSink, type Issue, type IssuePath, type IssueSink } from "../common/issues.js";
import type { Entity, Relationship, Workload, WritePattern } from "../workload/types.js";
import type { Container, ItemType, Model } from "./types.js";
import { parseTemplate, templateProblem } from "./templates.js";
import { movedBy, rewritesRecords, unmovableReason } from "./key-changes.js";
import { didYouMean } from "../source/suggest.js";
import { deleteCarriersOf, deletePropagationOf, untraceableDeletes } from "./deletes.js";
import { cacheIneligibility } from "../workload/cacheable.js";

/** Every pattern the integrated cache lists exists once and may be cached (workload/cacheable.ts). */
function checkIntegratedCache(model: Model, workload: Workload, issues: IssueSink): void {
  const seen = new Set<string>();
  model.integratedCache?.patterns.forEach((id, index) => {
    const path: IssuePath = ["integratedCache", "patterns", index];
    const pattern = workload.accessPatterns.find((p) => p.id === id);
    if (pattern === undefined) {
      issues.error(
        { code: "model.uncacheablePattern", pattern: id, reason: "unknownPattern" },
        path,
        `the workload has no access pattern "${id}"`,
        didYouMean(
          id,
          workload.accessPatterns.map((p) => p.id),
        ),
      );
      return;
    }
    if (seen.has(id)) {
      issues.error(
        { code: "model.uncacheablePattern", pattern: id, reason: "duplicate" },
        path,
        `${id} is listed twice`,
        "list each pattern once",
      );
      return;
    }
    seen.add(id);
    const why = cacheIneligibility(workload, pattern);
    if (why !== undefined)
      issues.error(
        { code: "model.uncacheablePattern", pattern: id, reason: why.reason },
        path,
        why.message,
        why.reason === "consistency"
          ? `read ${id} at session or eventual consistency, or remove it from integratedCache.patterns`
          : why.reason === "mustBeFresh"
            ? `give ${id} a maxStalenessSeconds above 0 in the workload, or remove it from integratedCache.patterns`
            : `remove ${id} from integratedCache.patterns`,
      );
  });
}

/**
 * Every problem of `model` with respect to `workload`, as issues whose paths are those of the
 * model file (`containers[1].items[0].copies[0].from`); `lineOf` adds the line when known.
 * @example validateModelAgainstWorkload(model, workload) // [] when every reference resolves
 */
export function validateModelAgainstWorkload(
  model: Model,
  workload: Workload,
  lineOf?: (path: IssuePath) => number | undefined,
): readonly Issue[] {
  const issues = createIssueSink(lineOf === undefined ? {} : { lineOf });
  collectWorkloadIssues(model, workload, issues);
  return issues.issues();
}

/** Like `validateModelAgainstWorkload`, into a sink (used by the loader). */
export function collectWorkloadIssues(model: Model, workload: Workload, issues: IssueSink): void {
  const entities = new Map(workload.entities.map((entity) => [entity.name, entity]));
  const context: Context = { workload, model, entities, issues, names: [...entities.keys()] };
  const stored = new Set<string>();
  model.containers.forEach((container, containerIndex) => {
    container.items.forEach((item, itemIndex) => {
      const path: IssuePath = ["containers", containerIndex, "items", itemIndex];
      const entity = entities.get(item.entity);
      if (entity === undefined) {
        issues.error(
          { code: "model.unknownEntity", entity: item.entity },
          [...path, "entity"],
          `the workload has no entity "${item.entity}"`,
          didYouMean(item.entity, context.names),
        );
      } else {
        stored.add(entity.name);
        checkItemAgainstEntity(context, container, item, entity, path);
      }
      for (const embed of item.embeds) stored.add(embed.entity);
    });
  });
  if (!issues.hasErrors()) checkDeletes(model, workload, issues);
  checkIntegratedCache(model, workload, issues);
  const warned = new Set<string>();
  workload.accessPatterns.forEach((pattern) => {
    if (stored.has(pattern.entity) || warned.has(pattern.entity) || !entities.has(pattern.entity)) return;
    warned.add(pattern.entity);
    issues.warning(
      { code: "model.unstoredEntity", entity: pattern.entity },
      [],
      `access pattern ${pattern.id} uses entity ${pattern.entity}, which no item type of the model stores`,
      `add an item type with entity: ${pattern.entity}, or embed it in its parent`,
    );
  });
}

/**
 * An attribute an id or partition key template renders must have a value in every record an item
 * type of complete records holds (a copy or a lookup may be sparse, holding only the records that
 * have it), of a
 * kind a key holds: a record without it (`presence` below 1) has no address, and an object or an
 * array is no id or partition key value (the generated code refuses both; a mutation of
 * arbitrary seed 39 keyed accounts by a payload half the records lack).
 */
function addressProblem(
  entity: Entity,
  item: ItemType,
  name: string,
  template: string,
  path: IssuePath,
  issues: IssueSink,
): void {
  const found = entity.attributes.find((a) => a.name === name);
  if (found === undefined) return;
  // A copy kept from the change feed or a lookup item (a projection) may be sparse: it holds
  // only the records that have it. An item type of complete records holds every record.
  if (found.presence < 1 && item.source === undefined && item.select === undefined)
    issues.error(
      "model.badTemplate",
      path,
      `the template "${template}" uses {${name}}, which only ${Math.round(found.presence * 100)}% of ${entity.name} records have (presence ${found.presence}): the others would have no id or partition key`,
      `address the item by attributes every record has (its key), or make ${name} present in every record`,
    );
  if (found.type === "object" || found.type === "array")
    issues.error(
      "model.badTemplate",
      path,
      `the template "${template}" uses {${name}}, an ${found.type}: an id or partition key value is a string, a number or a boolean`,
      `address the item by its key or another scalar attribute`,
    );
}

interface Context {
  readonly workload: Workload;
  readonly model: Model;
  readonly entities: ReadonlyMap<string, Entity>;
  readonly issues: IssueSink;
  readonly names: readonly string[];
}

function checkItemAgainstEntity(
  context: Context,
  container: Container,
  item: ItemType,
  entity: Entity,
  path: IssuePath,
): void {
  const { issues } = context;
  const attribute = (name: string, namePath: IssuePath, what: string): void => {
    checkAttribute(context, entity, name, namePath, what);
  };
  const templates: [string, IssuePath][] = [
    [item.id, [...path, "id"]],
    ...item.partitionKey.map((template, index): [string, IssuePath] => [
      template,
      [...path, "partitionKey", index],
    ]),
  ];
  for (const [template, templatePath] of templates) {
    if (templateProblem(template) !== undefined) continue; // reported by checkModel
    for (const part of parseTemplate(template)) {
      if (part.kind !== "attribute") continue;
      attribute(part.name, templatePath, `the template "${template}" uses {${part.name}}`);
      addressProblem(entity, item, part.name, template, templatePath, issues);
    }
  }
  // The item's `id` property is the record's own `id` attribute when it has one: another
  // template would overwrite the attribute with the rendered id.
  if (entity.attributes.some((a) => a.name === "id") && item.id !== "{id}" && item.bucket === undefined) {
    issues.error(
      "model.badTemplate",
      [...path, "id"],
      `${entity.name} has an attribute named id, which is the item's id property: the id template must be "{id}", not "${item.id}" (the rendered id would replace the record's id)`,
      `id: "{id}", or rename the attribute in the workload`,
    );
  }
  item.select?.forEach((name, index) => attribute(name, [...path, "select", index], "select names it"));
  for (const { attribute: name } of item.truncate) {
    attribute(name, [...path, "truncate", name], "truncate names it");
    const type = entity.attributes.find((candidate) => candidate.name === name)?.type;
    if (type !== undefined && type !== "string") {
      issues.error(
        "model.invalidValue",
        [...path, "truncate", name],
        `only strings can be truncated; ${entity.name}.${name} is a ${type}`,
      );
    }
  }
  if (item.keepLatest !== undefined)
    attribute(item.keepLatest.by, [...path, "keepLatest", "by"], "keepLatest orders by it");
  if (item.shardBy !== undefined) attribute(item.shardBy, [...path, "shardBy"], "shardBy hashes it");
  const bucket = item.bucket;
  if (bucket?.kind === "window") {
    attribute(bucket.by, [...path, "bucket", "by"], "the bucket window is taken from it");
    const type = entity.attributes.find((candidate) => candidate.name === bucket.by)?.type;
    if (type !== undefined && type !== "datetime" && type !== "number") {
      issues.error(
        "model.badBucket",
        [...path, "bucket", "by"],
        `a time window needs a datetime or number attribute; ${entity.name}.${bucket.by} is a ${type}`,
      );
    }
  }
  checkKeyChanges(context, item, entity, path);
  checkAppendOnlyBucket(context, item, entity, path);
  item.copies.forEach((copy, index) =>
    checkCopy(context, entity, copy.from, [...path, "copies", index, "from"]),
  );
  item.counts.forEach((counter, index) => {
    const counted = knownEntity(context, counter.of, [...path, "counts", index, "of"]);
    if (counted !== undefined && findChild(context.workload, entity.name, counted.name) === undefined) {
      issues.error(
        "model.noRelationship",
        [...path, "counts", index, "of"],
        `no relationship has parent ${entity.name} and child ${counted.name}, so there is nothing to count`,
        childrenHint(context.workload, entity.name),
      );
    }
  });
  item.embeds.forEach((embed, index) => {
    const embedded = knownEntity(context, embed.entity, [...path, "embeds", index, "entity"]);
    if (embedded === undefined) return;
    const oneToOne = context.workload.relationships.some(
      (relationship) =>
        relationship.kind === "one-to-one" &&
        relationship.parent === embedded.name &&
        relationship.child === entity.name,
    );
    if (findChild(context.workload, entity.name, embedded.name) === undefined && !oneToOne) {
      issues.error(
        "model.noRelationship",
        [...path, "embeds", index, "entity"],
        `no relationship has parent ${entity.name} and child ${embedded.name} (or is one-to-one between them), so ${embedded.name} cannot be embedded in ${entity.name}`,
        childrenHint(context.workload, entity.name),
      );
    }
    // The newest N are those with the latest time (workload/recency.ts), as latest(X, N) asks.
    if (embed.latest !== undefined && recencyAttribute(embedded) === undefined) {
      issues.error(
        "model.invalidValue",
        [...path, "embeds", index, "latest"],
        `keeps the newest ${embed.latest} ${embedded.name} records, but ${embedded.name} has no datetime attribute to tell the newest`,
        `add a datetime attribute to ${embedded.name} in the workload (e.g. createdAt: datetime), or remove latest to embed every ${embedded.name}`,
      );
    }
  });
  checkNameClashes(container, item, entity, path, issues);
}

function checkAttribute(context: Context, entity: Entity, name: string, path: IssuePath, what: string): void {
  if (entity.attributes.length === 0) return; // attributes not listed: nothing to check against
  if (entity.attributes.some((candidate) => candidate.name === name)) return;
  const names = entity.attributes.map((candidate) => candidate.name);
  context.issues.error(
    { code: "model.unknownAttribute", entity: entity.name, attribute: name },
    path,
    // The path names the attribute when it ends with it (truncate.x): not again in the message.
    path.at(-1) === name
      ? `${what}, but entity ${entity.name} has no such attribute`
      : `${what}, but entity ${entity.name} has no attribute "${name}"`,
    didYouMean(name, names),
  );
}

function knownEntity(context: Context, name: string, path: IssuePath): Entity | undefined {
  const entity = context.entities.get(name);
  if (entity === undefined) {
    context.issues.error(
      { code: "model.unknownEntity", entity: name },
      path,
      `the workload has no entity "${name}"`,
      didYouMean(name, context.names),
    );
  }
  return entity;
}

function checkCopy(
  context: Context,
  holder: Entity,
  from: { entity: string; attribute: string },
  path: IssuePath,
): void {
  if (from.attribute === "") return; // malformed, reported by the normalizer
  const source = knownEntity(context, from.entity, path);
  if (source === undefined) return;
  checkAttribute(context, source, from.attribute, path, `the copy reads ${from.entity}.${from.attribute}`);
  if (source.name === holder.name) {
    context.issues.error(
      "model.noRelationship",
      path,
      `a copy comes from a related entity; ${holder.name} cannot copy its own attribute`,
    );
    return;
  }
  const related = context.workload.relationships.some(
    (relationship) =>
      (relationship.parent === source.name && relationship.child === holder.name) ||
      (relationship.parent === holder.name && relationship.child === source.name),
  );
  if (!related) {
    context.issues.error(
      "model.noRelationship",
      path,
      `no relationship links ${holder.name} and ${source.name}, so the item cannot know which ${source.name} to copy from`,
      `add a relationship { parent: ${source.name}, child: ${holder.name}, via: ... } to the workload`,
    );
  }
}

function findChild(workload: Workload, parent: string, child: string): Relationship | undefined {
  return workload.relationships.find(
    (relationship) => relationship.parent === parent && relationship.child === child,
  );
}

function childrenHint(workload: Workload, parent: string): string {
  const children = workload.relationships
    .filter((relationship) => relationship.parent === parent)
    .map((relationship) => relationship.child);
  return children.length === 0
    ? `${parent} has no children in the workload's relationships`
    : `children of ${parent}: ${children.join(", ")}`;
}

/**
 * A derived property (`as`) named like an attribute of the entity would overwrite it; a
 * partition key property named like an attribute must hold that attribute's value.
 */
function checkNameClashes(
  container: Container,
  item: ItemType,
  entity: Entity,
  path: IssuePath,
  issues: IssueSink,
): void {
  const attributes = new Set(entity.attributes.map((attribute) => attribute.name));
  const derived: [string, IssuePath][] = [
    ...item.embeds.map((embed, index): [string, IssuePath] => [embed.as, [...path, "embeds", index, "as"]]),
    ...item.copies.map((copy, index): [string, IssuePath] => [copy.as, [...path, "copies", index, "as"]]),
    ...item.counts.map((counter, index): [string, IssuePath] => [
      counter.as,
      [...path, "counts", index, "as"],
    ]),
  ];
  for (const [name, namePath] of derived) {
    if (attributes.has(name)) {
      issues.error(
        "model.duplicateProperty",
        namePath,
        `entity ${entity.name} already has an attribute "${name}"; choose another name`,
      );
    }
  }
  container.partitionKey.forEach((keyPath, index) => {
    const property = keyPath.slice(1);
    const template = item.partitionKey[index];
    if (template === undefined || property.includes("/") || !attributes.has(property)) return;
    if (template !== `{${property}}`) {
      issues.error(
        "model.badPartitionKey",
        [...path, "partitionKey", index],
        `the partition key property "${property}" is also an attribute of ${entity.name}, so its template must be "{${property}}", got "${template}"`,
        `use a partition key path that is not an attribute (e.g. "/${property}Key") for a synthetic key`,
      );
    }
  });
}

/**
 * The model's `deletes` against the workload: a tombstone property that an entity whose deletes
 * are soft already has as an attribute; with all versions and deletes, every counter and copy a
 * delete event cannot address (`src/model/deletes.ts`).
 */
function checkDeletes(model: Model, workload: Workload, issues: IssueSink): void {
  const deletes = deletePropagationOf(model);
  if (deletes.mode === "softDelete") {
    for (const carrier of deleteCarriersOf(workload, model)) {
      const entity = workload.entities.find((e) => e.name === carrier.entity);
      if (entity?.attributes.some((a) => a.name === deletes.property) !== true) continue;
      issues.error(
        "model.duplicateProperty",
        model.deletes === undefined ? [] : ["deletes", "property"],
        `soft deletes of ${carrier.container}/${carrier.itemType} set the tombstone property "${deletes.property}", which is also an attribute of ${carrier.entity}`,
        `name another tombstone property: deletes: { mode: softDelete, property: ${deletes.property}Tombstone }`,
      );
    }
    return;
  }
  for (const problem of untraceableDeletes(workload, model)) {
    const target = `${problem.target.container}/${problem.target.itemType}`;
    issues.error(
      {
        code: "model.deleteNotTraceable",
        container: problem.container,
        itemType: problem.itemType,
        target,
        missing: problem.missing,
      },
      ["deletes", "mode"],
      `a delete of ${problem.container}/${problem.itemType} reaches the all-versions-and-deletes change feed with its id and partition key only, which do not give ${problem.missing.join(", ")}: the ${problem.target.kind === "counter" ? `counter ${problem.target.property} on` : "copy"} ${target} cannot be found`,
      `use deletes: { mode: softDelete } (the tombstone keeps the whole item), or key ${problem.container}/${problem.itemType} so that its id or partition key is exactly {${problem.missing[0] ?? ""}}`,
    );
  }
}

/**
 * A bucket item holds its records append-only (the data-access code appends each record with a
 * patch): a write that replaces, patches or deletes one record would append a second copy of it,
 * or delete every record of its bucket. A write that moves the record is reported by
 * `checkKeyChanges` instead.
 */
function checkAppendOnlyBucket(context: Context, item: ItemType, entity: Entity, path: IssuePath): void {
  if (item.bucket === undefined || item.source !== undefined) return;
  const rewriters = context.workload.accessPatterns.filter(
    (pattern): pattern is WritePattern =>
      pattern.type === "write" &&
      pattern.entity === entity.name &&
      rewritesRecords(pattern) &&
      movedBy(entity, item, pattern).length === 0,
  );
  if (rewriters.length === 0) return;
  context.issues.error(
    "model.badBucket",
    [...path, "bucket"],
    `${rewriters.map((pattern) => `${pattern.id} (${pattern.operation})`).join(", ")} ${rewriters.length > 1 ? "rewrite or delete" : "rewrites or deletes"} single ${entity.name} records, but a bucket item holds its records append-only: the write would add a second copy of the record to its bucket, or delete the whole bucket`,
    `do not bin ${entity.name} records (one item per record), or bin only records that are created and never changed or deleted one by one`,
  );
}

/**
 * A write that changes an attribute of the item's id or partition key moves the item (a create
 * and a delete: a key value cannot be patched in place); an item type that cannot be moved (a
 * bucket holding many records) would be patched in place: an error at the template it uses.
 */
function checkKeyChanges(context: Context, item: ItemType, entity: Entity, path: IssuePath): void {
  if (item.source !== undefined) return; // a copy follows its source from the change feed
  // A malformed template is reported as model.badTemplate; its attributes are unknown.
  if ([item.id, ...item.partitionKey].some((template) => templateProblem(template) !== undefined)) return;
  const reason = unmovableReason(item, context);
  if (reason === undefined) return;
  for (const pattern of context.workload.accessPatterns) {
    if (pattern.type !== "write") continue;
    const moved = movedBy(entity, item, pattern);
    if (moved.length === 0) continue;
    const at =
      item.bucket?.kind === "window" && moved.includes(item.bucket.by)
        ? [...path, "bucket", "by"]
        : ([
            ...item.partitionKey.map((template, index) => ({ template, at: ["partitionKey", index] })),
            { template: item.id, at: ["id"] },
          ]
            .filter(({ template }) => moved.some((name) => template.includes(`{${name}}`)))
            .map(({ at: where }) => [...path, ...where])[0] ?? path);
    context.issues.error(
      { code: "model.keyChangedInPlace", pattern: pattern.id, attributes: moved },
      at,
      `write pattern ${pattern.id} changes ${moved.join(", ")}, which places ${item.type} items; ${reason}`,
      item.bucket === undefined
        ? `key ${item.type} by attributes that writes do not change (its entity key), so it never moves`
        : `key ${item.type} by attributes that writes do not change, or do not bin ${entity.name} records`,
    );
  }
}
