/**
 * Checks of a normalized model that need no workload: names, templates, partition keys,
 * references between item types, and the options of each item type (source, keepLatest,
 * bucket, shards, replicas, ttl).
 */
import type { Container, ItemType, Model } from "./types.js";
import type { IssuePath, IssueSink } from "../common/issues.js";
import { describeValue } from "../source/schema-issues.js";
import { checkTtl } from "./normalize-model.js";
import { parseTemplate, templateAttributes, templateProblem, type TemplatePart } from "./templates.js";
import { didYouMean } from "../source/suggest.js";
import { checkServiceLimits } from "./check-service-limits.js";
import { checkSearchPolicies } from "./check-search-policies.js";
import { FORBIDDEN_ID_CHARACTERS, MAX_RESOURCE_NAME_LENGTH, SYSTEM_PROPERTIES } from "../cosmos/limits.js";

/** Runs every workload-independent check of the model. */
export function checkModel(model: Model, issues: IssueSink): void {
  checkTombstoneProperty(model, issues);
  checkServiceLimits(model, issues);
  if (model.leases !== undefined) checkResourceName(model.leases, ["leases"], issues);
  const names = new Set<string>();
  model.containers.forEach((container, containerIndex) => {
    const path: IssuePath = ["containers", containerIndex];
    if (names.has(container.name)) {
      issues.error(
        "model.duplicateContainer",
        [...path, "name"],
        `a container named "${container.name}" is defined twice`,
      );
    }
    names.add(container.name);
    checkResourceName(container.name, [...path, "name"], issues);
    checkSearchPolicies(container, path, issues);
    if (container.name === model.leases) {
      issues.error(
        "model.duplicateContainer",
        [...path, "name"],
        `"${container.name}" is the lease container of the change-feed processors (leases), which holds only leases`,
        `name the lease container apart: leases: ${container.name}-leases`,
      );
    }
    const types = new Set<string>();
    container.items.forEach((item, itemIndex) => {
      const itemPath: IssuePath = [...path, "items", itemIndex];
      if (types.has(item.type)) {
        issues.error(
          "model.duplicateItemType",
          [...itemPath, "type"],
          `container "${container.name}" already has an item type "${item.type}"; the type property must tell item types apart`,
        );
      }
      types.add(item.type);
      checkItem(model, container, item, itemPath, issues);
    });
  });
}

/**
 * A soft delete's tombstone property cannot be a property Cosmos DB or the model already gives
 * items: id, type, ttl, a system property, a partition key property, or an `as` of an item type.
 */
function checkTombstoneProperty(model: Model, issues: IssueSink): void {
  if (model.deletes?.mode !== "softDelete") return;
  const property = model.deletes.property;
  const taken = new Set<string>(["id", "type", "ttl", ...SYSTEM_PROPERTIES]);
  for (const container of model.containers) {
    for (const path of container.partitionKey) taken.add(path.slice(1).split("/")[0] ?? "");
    for (const item of container.items) {
      for (const named of [...item.copies, ...item.counts, ...item.embeds]) taken.add(named.as);
      if (item.ancestors !== undefined) taken.add(item.ancestors.as);
    }
  }
  if (!taken.has(property)) return;
  issues.error(
    "model.duplicateProperty",
    ["deletes", "property"],
    `the tombstone property "${property}" is already a property of the model's items (id, type, ttl, a system or partition key property, or an \`as\`)`,
    `name another property, e.g. property: deleted`,
  );
}

function checkResourceName(name: string, path: IssuePath, issues: IssueSink): void {
  const bad = FORBIDDEN_ID_CHARACTERS.find((char) => name.includes(char));
  if (bad !== undefined || name.length > MAX_RESOURCE_NAME_LENGTH || name.endsWith(" ")) {
    issues.error(
      "model.invalidValue",
      path,
      `a container name has 1 to ${MAX_RESOURCE_NAME_LENGTH} characters, none of / \\ ? #, and no trailing space; got ${describeValue(name)}`,
    );
  }
}

function checkItem(
  model: Model,
  container: Container,
  item: ItemType,
  path: IssuePath,
  issues: IssueSink,
): void {
  const idParts = checkTemplate(item.id, [...path, "id"], issues);
  if (idParts !== undefined) checkIdTemplate(idParts, [...path, "id"], issues);
  if (item.partitionKey.length !== container.partitionKey.length) {
    issues.error(
      "model.badPartitionKey",
      [...path, "partitionKey"],
      `container "${container.name}" has ${container.partitionKey.length} partition key path(s) (${container.partitionKey.join(", ")}), so the item needs ${container.partitionKey.length} template(s), got ${item.partitionKey.length}`,
    );
  }
  const keyParts = item.partitionKey.map((template, index) =>
    checkTemplate(template, [...path, "partitionKey", index], issues),
  );
  checkKeyProperties(container, item, path, issues);
  const all = [idParts, ...keyParts].filter((parts) => parts !== undefined);
  const keyOnly = keyParts.filter((parts) => parts !== undefined);
  checkPlaceholder(all, keyOnly, "shard", item.shards, path, issues);
  checkPlaceholder(all, keyOnly, "replica", item.replicas, path, issues);
  checkBucketPlaceholder(all, item, path, issues);
  if (
    item.shards !== undefined &&
    item.shardBy === undefined &&
    idParts?.some((part) => part.kind === "shard")
  ) {
    issues.error(
      "model.badShards",
      [...path, "shardBy"],
      `the shard is hashed from the item id by default, but the id template uses {shard}; set shardBy to the attribute that picks the shard`,
    );
  }
  if (item.shardBy !== undefined && item.shards === undefined) {
    issues.error(
      "model.badShards",
      [...path, "shardBy"],
      `"shardBy" needs "shards" (the number of write shards)`,
    );
  }
  if (
    item.keepLatest !== undefined &&
    (!Number.isInteger(item.keepLatest.count) || item.keepLatest.count < 1)
  ) {
    issues.error(
      "model.badKeepLatest",
      [...path, "keepLatest", "count"],
      `expected a positive integer, got ${describeValue(item.keepLatest.count)}`,
    );
  }
  checkProjection(item, path, issues);
  if (item.ttl !== undefined) {
    checkTtl(item.ttl, [...path, "ttl"], issues);
    if (container.defaultTtl === undefined) {
      issues.warning(
        "model.ttlIgnored",
        [...path, "ttl"],
        `an item's ttl only takes effect when its container has defaultTtl; container "${container.name}" has none`,
        "set defaultTtl: -1 on the container (no default expiry, items expire with their own ttl)",
      );
    }
  }
  if (item.source !== undefined) checkSource(model, container, item, [...path, "source"], issues);
  checkPropertyNames(container, item, path, issues);
}

function checkTemplate(
  template: string,
  path: IssuePath,
  issues: IssueSink,
): readonly TemplatePart[] | undefined {
  if (template === "") {
    issues.error(
      "model.badTemplate",
      path,
      `a template cannot be empty; use e.g. "{postId}", "{postId}-{shard}" or a literal such as "post"`,
    );
    return undefined;
  }
  const problem = templateProblem(template);
  if (problem !== undefined) {
    issues.error("model.badTemplate", path, `template ${describeValue(template)}: ${problem}`);
    return undefined;
  }
  return parseTemplate(template);
}

function checkIdTemplate(parts: readonly TemplatePart[], path: IssuePath, issues: IssueSink): void {
  for (const part of parts) {
    if (part.kind !== "literal") continue;
    const bad = FORBIDDEN_ID_CHARACTERS.find((char) => part.text.includes(char));
    if (bad !== undefined) {
      issues.error(
        "model.badTemplate",
        path,
        `an item id cannot contain "${bad}" (Cosmos DB forbids / \\ ? # in ids)`,
      );
    }
  }
}

/** A partition key on /id or /type must hold the same value as the id or the type property. */
function checkKeyProperties(container: Container, item: ItemType, path: IssuePath, issues: IssueSink): void {
  container.partitionKey.forEach((keyPath, index) => {
    const template = item.partitionKey[index];
    if (template === undefined) return;
    if (keyPath === "/id" && template !== item.id) {
      issues.error(
        "model.badPartitionKey",
        [...path, "partitionKey", index],
        `the partition key path /id is the item id, so its template must be the id template "${item.id}", got "${template}"`,
      );
    }
    if (keyPath === "/type" && template !== item.type) {
      issues.error(
        "model.badPartitionKey",
        [...path, "partitionKey", index],
        `the partition key path /type is the item's type property, so its template must be the literal "${item.type}", got "${template}"`,
      );
    }
  });
}

function checkPlaceholder(
  all: readonly (readonly TemplatePart[])[],
  keyTemplates: readonly (readonly TemplatePart[])[],
  kind: "shard" | "replica",
  count: number | undefined,
  path: IssuePath,
  issues: IssueSink,
): void {
  const field = kind === "shard" ? "shards" : "replicas";
  const code = kind === "shard" ? "model.badShards" : "model.badReplicas";
  const used = all.some((parts) => parts.some((part) => part.kind === kind));
  if (count === undefined) {
    if (used)
      issues.error(
        code,
        path,
        `the templates use {${kind}} but the item type has no "${field}"; add ${field}: N (N >= 2) or remove {${kind}}`,
      );
    return;
  }
  if (!Number.isInteger(count) || count < 2) {
    issues.error(code, [...path, field], `expected an integer of at least 2, got ${describeValue(count)}`);
  }
  if (!keyTemplates.some((parts) => parts.some((part) => part.kind === kind))) {
    issues.error(
      code,
      [...path, "partitionKey"],
      `with ${field}: ${count} a partition key template must use {${kind}} (e.g. "${kind === "shard" ? "{postId}-{shard}" : "post-{replica}"}"), or the items land in one logical partition`,
    );
  }
}

function checkBucketPlaceholder(
  all: readonly (readonly TemplatePart[])[],
  item: ItemType,
  path: IssuePath,
  issues: IssueSink,
): void {
  const used = all.some((parts) => parts.some((part) => part.kind === "bucket"));
  if (item.bucket === undefined && used) {
    issues.error(
      "model.badBucket",
      path,
      `the templates use {bucket} but the item type has no "bucket"; add bucket: { records: N } or { by: attribute, window: 1m }`,
    );
  }
  if (item.bucket !== undefined && !used) {
    issues.error(
      "model.badBucket",
      [...path, "id"],
      `a bucketed item type needs {bucket} in its id or partition key (e.g. "{deviceId}-{bucket}"), or all buckets would share one item`,
    );
  }
}

function checkSource(
  model: Model,
  container: Container,
  item: ItemType,
  path: IssuePath,
  issues: IssueSink,
): void {
  const source = item.source;
  if (source === undefined || source.type === "") return;
  const sourceContainer = model.containers.find((candidate) => candidate.name === source.container);
  if (sourceContainer === undefined) {
    const names = model.containers.map((candidate) => candidate.name);
    issues.error(
      "model.unknownSource",
      path,
      `no container named "${source.container}"`,
      didYouMean(source.container, names),
    );
    return;
  }
  const sourceItem = sourceContainer.items.find((candidate) => candidate.type === source.type);
  if (sourceItem === undefined) {
    const types = sourceContainer.items.map((candidate) => candidate.type);
    issues.error(
      "model.unknownSource",
      path,
      `container "${source.container}" has no item type "${source.type}"`,
      didYouMean(source.type, types),
    );
    return;
  }
  if (sourceContainer.name === container.name && sourceItem.type === item.type) {
    issues.error(
      "model.unknownSource",
      path,
      `an item type cannot be its own source; name another container's item type`,
    );
    return;
  }
  if (sourceItem.entity !== item.entity) {
    issues.error(
      "model.badSource",
      path,
      `the source "${source.container}/${source.type}" holds entity ${sourceItem.entity}, this item type holds ${item.entity}; a copy holds the same entity`,
    );
  }
  // The change feed delivers the source's items: the copy's address is computed from what they
  // hold (a source `select` that leaves out an attribute of the copy's templates: no address).
  const held = sourceItem.select;
  if (held !== undefined) {
    const missing = [
      ...new Set(
        [item.id, ...item.partitionKey]
          .filter((template) => templateProblem(template) === undefined)
          .flatMap((template) => templateAttributes(template)),
      ),
    ].filter((name) => !held.includes(name));
    if (missing.length > 0)
      issues.error(
        "model.badSource",
        path,
        `the copy's id and partition key use ${missing.map((name) => `{${name}}`).join(", ")}, which its source "${source.container}/${source.type}" does not hold (its select leaves ${missing.length === 1 ? "it" : "them"} out): the change feed delivers the source's items, so the copy's address cannot be computed`,
        `add ${missing.join(", ")} to the select of ${source.container}/${source.type}`,
      );
  }
  // Follow the chain of sources: a cycle would never be written by anything.
  const seen = new Set([`${container.name}/${item.type}`]);
  let next: ItemType | undefined = sourceItem;
  let nextName = `${sourceContainer.name}/${sourceItem.type}`;
  while (next?.source !== undefined) {
    if (seen.has(nextName)) {
      issues.error(
        "model.badSource",
        path,
        `the sources form a cycle through "${nextName}"; one item type must be written directly`,
      );
      return;
    }
    seen.add(nextName);
    const { container: name, type }: { container: string; type: string } = next.source;
    next = model.containers
      .find((candidate) => candidate.name === name)
      ?.items.find((candidate) => candidate.type === type);
    nextName = `${name}/${type}`;
  }
}

/** Derived properties (`as`) must not collide with each other, with id/type/ttl or the key properties. */
function checkPropertyNames(container: Container, item: ItemType, path: IssuePath, issues: IssueSink): void {
  const reserved = new Map<string, string>([
    ["id", "the item id"],
    ["type", "the type property"],
    ["ttl", "the item ttl"],
  ]);
  for (const keyPath of container.partitionKey)
    reserved.set(keyPath.slice(1).split("/")[0] ?? "", "a partition key property");
  const seen = new Map<string, string>();
  const derived: [string, IssuePath][] = [
    ...item.embeds.map((embed, index): [string, IssuePath] => [embed.as, [...path, "embeds", index, "as"]]),
    ...item.copies.map((copy, index): [string, IssuePath] => [copy.as, [...path, "copies", index, "as"]]),
    ...item.counts.map((counter, index): [string, IssuePath] => [
      counter.as,
      [...path, "counts", index, "as"],
    ]),
    ...(item.ancestors === undefined
      ? []
      : [[item.ancestors.as, [...path, "ancestors", "as"]] as [string, IssuePath]]),
  ];
  for (const [name, namePath] of derived) {
    const clash =
      reserved.get(name) ??
      seen.get(name) ??
      ((SYSTEM_PROPERTIES as readonly string[]).includes(name) ? "a Cosmos DB system property" : undefined);
    if (clash !== undefined) {
      issues.error(
        "model.duplicateProperty",
        namePath,
        `the property "${name}" is already ${clash}; choose another name`,
      );
    }
    seen.set(name, "used by another embed, copy, count or ancestors property of this item type");
  }
}

/** With `select`, the attribute keepLatest orders by must be stored, and truncating an attribute that is not stored does nothing. */
function checkProjection(item: ItemType, path: IssuePath, issues: IssueSink): void {
  const select = item.select;
  if (select === undefined) return;
  if (item.keepLatest !== undefined && !select.includes(item.keepLatest.by)) {
    issues.error(
      "model.badKeepLatest",
      [...path, "keepLatest", "by"],
      `keepLatest orders by "${item.keepLatest.by}", which select does not store; add it to select`,
    );
  }
  for (const { attribute } of item.truncate) {
    if (!select.includes(attribute)) {
      issues.warning(
        "model.truncateUnselected",
        [...path, "truncate", attribute],
        `"${attribute}" is not in select, so it is not stored and truncating it has no effect`,
      );
    }
  }
}
