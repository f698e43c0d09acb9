/**
 * TypeScript interfaces of the stored items, one per item type, from its shape and the workload's
 * attribute types: what the read functions return instead of `Record<string, unknown>`.
 */
import { isKeyAttribute } from "../../workload/keys.js";
import type { ItemTypeShape } from "../../runtime/items.js";
import type { Workload, WritePattern } from "../../workload/types.js";
import type { WriteInput } from "../../model/write-inputs.js";
import type { WritePlan } from "../../planner/types.js";
import { attributeTsType } from "./emit-read.js";
import { commentText, propertyKey, stringLiteral } from "./identifiers.js";
import { entityNamed } from "./model-data.js";

/** The TypeScript type of an entity's attribute (`KeyValue`-like when the workload does not type it). */
function attributeType(workload: Workload, entity: string, attribute: string): string {
  return attributeTsType(entityNamed(workload, entity)?.attributes.find((a) => a.name === attribute)?.type);
}

/** The stored record of an entity (its attributes, after `select`), as an inline object type. */
function recordType(workload: Workload, entity: string, select: readonly string[] | undefined): string {
  const found = entityNamed(workload, entity);
  const names = (found?.attributes.map((a) => a.name) ?? []).filter(
    (name) => select === undefined || select.includes(name),
  );
  if (names.length === 0) return "Readonly<Record<string, unknown>>";
  const members = names.map((name) => {
    const optional = found !== undefined && isKeyAttribute(found, name) ? "" : "?";
    return `readonly ${propertyKey(name)}${optional}: ${attributeType(workload, entity, name)}`;
  });
  return `{ ${members.join("; ")} }`;
}

/**
 * `export interface PostsPostItem { ... }` for one item type: id, key properties, type, the
 * entity's attributes (optional but the key), copies, counters, embeds, ancestors, ttl, the
 * records of a bucket, and Cosmos DB's system properties. Properties the change-feed handlers
 * maintain (counter marks and flags) are reachable through the index signature.
 */
export function itemInterface(workload: Workload, shape: ItemTypeShape, name: string): string {
  const members = new Map<string, string>();
  const entity = entityNamed(workload, shape.entity);
  members.set("id", "readonly id: string;");
  shape.keyPaths.forEach((path, index) => {
    const segments = path.slice(1).split("/");
    const property = segments[0] ?? "";
    // A key rendered from one attribute keeps its type; any other template renders a string.
    const whole = /^\{([A-Za-z_$][A-Za-z0-9_$]*)\}$/.exec(shape.partitionKey[index] ?? "")?.[1];
    const leaf =
      whole === undefined
        ? "string"
        : ["shard", "replica", "bucket"].includes(whole)
          ? "string | number"
          : attributeType(workload, shape.entity, whole);
    const type = segments.length > 1 ? "Readonly<Record<string, unknown>>" : leaf;
    members.set(property, `readonly ${propertyKey(property)}: ${type};`);
  });
  members.set("type", `readonly type: ${stringLiteral(shape.type)};`);
  if (shape.bucket === undefined) {
    for (const attribute of entity?.attributes ?? []) {
      if (shape.select !== undefined && !shape.select.includes(attribute.name)) continue;
      if (members.has(attribute.name)) continue;
      const optional = entity !== undefined && isKeyAttribute(entity, attribute.name) ? "" : "?";
      members.set(
        attribute.name,
        `readonly ${propertyKey(attribute.name)}${optional}: ${attributeTsType(attribute.type)};`,
      );
    }
  } else {
    if (shape.bucket.kind === "window")
      members.set(shape.bucket.by, `readonly ${propertyKey(shape.bucket.by)}: string | number;`);
    members.set(
      "records",
      `readonly records: readonly ${recordType(workload, shape.entity, shape.select)}[];`,
    );
  }
  for (const copy of shape.copies) {
    const value = `${attributeType(workload, copy.from.entity, copy.from.attribute)} | null`;
    // Across a many-to-many relationship: one { key..., attribute } element per linked record.
    const keyMembers = (copy.key ?? []).map(
      (name) => `readonly ${propertyKey(name)}: ${attributeType(workload, copy.from.entity, name)} | null; `,
    );
    const element =
      copy.key === undefined
        ? undefined
        : `{ ${keyMembers.join("")}readonly ${propertyKey(copy.from.attribute)}: ${value} }`;
    members.set(
      copy.as,
      `readonly ${propertyKey(copy.as)}: ${element === undefined ? value : `readonly ${element}[]`};`,
    );
  }
  for (const counter of shape.counts) members.set(counter.as, `readonly ${propertyKey(counter.as)}: number;`);
  for (const embed of shape.embeds) {
    const child = recordType(workload, embed.entity, undefined);
    const oneToOne = workload.relationships.some(
      (r) => r.parent === shape.entity && r.child === embed.entity && r.kind === "one-to-one",
    );
    members.set(
      embed.as,
      `readonly ${propertyKey(embed.as)}: ${oneToOne ? `${child} | null` : `readonly ${child}[]`};`,
    );
  }
  if (shape.ancestors !== undefined) {
    members.set(
      shape.ancestors.as,
      `readonly ${propertyKey(shape.ancestors.as)}: readonly (string | number | boolean)[];`,
    );
  }
  if (shape.ttl !== undefined || shape.softDelete !== undefined) members.set("ttl", "readonly ttl?: number;");
  members.set("_etag", "readonly _etag?: string;");
  members.set("_ts", "readonly _ts?: number;");
  return [
    `/** An item of ${commentText(shape.container)}/${commentText(shape.type)} (${commentText(shape.entity)}) as stored. */`,
    `export interface ${name} {`,
    ...[...members.values()].map((member) => `  ${member}`),
    "  readonly [maintained: string]: unknown;",
    "}",
  ].join("\n");
}

/**
 * The input of a patch or a delete (`src/model/write-inputs.ts`): the key and address attributes,
 * then the attributes a patch may change (optional; a number may be an `Increment`). An entity
 * without listed attributes takes any other attribute too.
 * @example writeInputType(workload, stockUpdate, input) // "{ readonly productId: string; readonly stock?: number | Increment; }"
 */
export function writeInputType(
  workload: Workload,
  pattern: WritePattern,
  input: Extract<WriteInput, { kind: "partial" }>,
): string {
  const entity = entityNamed(workload, pattern.entity);
  const declared = (name: string) => entity?.attributes.find((a) => a.name === name)?.type;
  const members = [
    ...input.required.map((name) => `readonly ${propertyKey(name)}: ${attributeTsType(declared(name))};`),
    ...input.optional.map((name) => {
      const type = attributeTsType(declared(name));
      const value =
        pattern.operation === "patch" && declared(name) === "number" ? `${type} | Increment` : type;
      return `readonly ${propertyKey(name)}?: ${value};`;
    }),
    ...((entity?.attributes.length ?? 0) === 0 ? ["readonly [attribute: string]: unknown;"] : []),
  ];
  return `{ ${members.join(" ")} }`;
}

/** One sentence on what a write function takes, for its doc comment. */
export function writeInputSentence(
  workload: Workload,
  pattern: WritePattern,
  input: WriteInput,
  writtenWithParent: WritePlan["writtenWithParent"],
): string {
  if (writtenWithParent !== undefined) {
    return `Refused (DataAccessError "writtenWithParent"): ${pattern.entity} records live in ${writtenWithParent.itemType}.${writtenWithParent.as} and are written with their ${writtenWithParent.parent}: pass them to the ${writtenWithParent.parent}'s create as related.embeds.${pattern.entity}.`;
  }
  if (input.kind === "record") return `Takes the whole ${pattern.entity} record.`;
  const entity = entityNamed(workload, pattern.entity);
  const key = input.required.filter((name) => entity?.key.includes(name) ?? true);
  const address = input.required.filter((name) => !key.includes(name));
  const identity = `the ${pattern.entity}'s key (${key.join(", ")})${address.length === 0 ? "" : ` and address (${address.join(", ")})`}`;
  if (pattern.operation === "delete") return `Takes ${identity} only.`;
  const numbers = input.optional.some(
    (name) => entity?.attributes.find((a) => a.name === name)?.type === "number",
  );
  return `Takes ${identity} and the attributes it changes, each optional (${input.optional.join(", ") || "none"})${numbers ? "; a number may be an increment { incr, min, max }" : ""}.`;
}
