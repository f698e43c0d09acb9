/**
 * Key templates of item types: `{postId}`, `{postId}-{shard}`, `post-{replica}`,
 * `{deviceId}-{bucket}`, or a literal such as `post`. Text outside braces is literal; `{name}`
 * is an attribute of the entity, except the three reserved names `shard`, `replica` and `bucket`,
 * which stand for the write shard, the read replica and the bucket of the item.
 */
import { DataAccessError } from "./errors.js";
import { FORBIDDEN_ID_CHARACTERS, idProblem, partitionKeyProblem, shownValue } from "./key-limits.js";

export type TemplatePart =
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "attribute"; readonly name: string }
  | { readonly kind: "shard" }
  | { readonly kind: "replica" }
  | { readonly kind: "bucket" };

/** Values substituted into a template. */
export interface TemplateValues {
  /** The entity record: attribute name -> value. */
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly shard?: number;
  readonly replica?: number;
  readonly bucket?: string | number;
}

/** A key value as Cosmos DB stores it in a partition key property. */
export type KeyValue = string | number | boolean;

const PLACEHOLDER_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * What is wrong with a template (unbalanced or empty braces, a name that is not an identifier),
 * or undefined when it is well formed.
 * @example templateProblem("{postId") // "unclosed \"{\" at position 0"
 */
export function templateProblem(template: string): string | undefined {
  let open = -1;
  for (let index = 0; index < template.length; index++) {
    const char = template[index];
    if (char === "{") {
      if (open >= 0) return `"{" at position ${index} inside another "{...}"`;
      open = index;
    } else if (char === "}") {
      if (open < 0) return `"}" at position ${index} without a matching "{"`;
      const name = template.slice(open + 1, index);
      if (name === "") return `empty "{}" at position ${open}`;
      if (!PLACEHOLDER_NAME.test(name)) {
        return `"{${name}}" is not an attribute name (letters, digits, "_" and "$", not starting with a digit)`;
      }
      open = -1;
    }
  }
  if (open >= 0) return `unclosed "{" at position ${open}`;
  return undefined;
}

const parsed = new Map<string, readonly TemplatePart[]>();

/**
 * Splits a template into literal text and placeholders (remembered: templates come from the model).
 * Throws `badTemplate` for a malformed template.
 * @example parseTemplate("{postId}-{shard}") // [{kind:"attribute",name:"postId"},{kind:"literal",text:"-"},{kind:"shard"}]
 */
export function parseTemplate(template: string): readonly TemplatePart[] {
  const known = parsed.get(template);
  if (known !== undefined) return known;
  const problem = templateProblem(template);
  if (problem !== undefined) {
    throw new DataAccessError("badTemplate", `template "${template}": ${problem}`, { context: { template } });
  }
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of template.matchAll(/\{([^{}]+)\}/g)) {
    if (match.index > last) parts.push({ kind: "literal", text: template.slice(last, match.index) });
    parts.push(placeholderPart(match[1] ?? ""));
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push({ kind: "literal", text: template.slice(last) });
  if (parsed.size < 10_000) parsed.set(template, parts);
  return parts;
}

function placeholderPart(name: string): TemplatePart {
  if (name === "shard") return { kind: "shard" };
  if (name === "replica") return { kind: "replica" };
  if (name === "bucket") return { kind: "bucket" };
  return { kind: "attribute", name };
}

/** The entity attributes a template uses, in order, without duplicates. */
export function templateAttributes(template: string): readonly string[] {
  const names: string[] = [];
  for (const part of parseTemplate(template)) {
    if (part.kind === "attribute" && !names.includes(part.name)) names.push(part.name);
  }
  return names;
}

/** True when the template uses the given placeholder kind (`shard`, `replica` or `bucket`). */
export function templateUses(template: string, kind: "shard" | "replica" | "bucket"): boolean {
  return parseTemplate(template).some((part) => part.kind === kind);
}

/** True when the template has no placeholder at all (a constant such as `post`). */
export function isLiteralTemplate(template: string): boolean {
  return parseTemplate(template).every((part) => part.kind === "literal");
}

/**
 * Renders a template to a string. Attribute values are written with `String(value)`; a missing
 * (undefined or null) or non-scalar value throws `missingTemplateValue`.
 * @example renderTemplate("post-{replica}", { attributes: {}, replica: 3 }) // "post-3"
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  return parseTemplate(template)
    .map((part) => String(partValue(template, part, values)))
    .join("");
}

/**
 * Renders the id of an item, and checks that Cosmos DB can store and address it: an id holding
 * `/ \ # ?`, ending in a space, empty or longer than 1,023 bytes throws `badKey` naming the
 * attribute whose value made it so, before any request. Writes and reads both render ids with
 * this rule, so a read never misses what a write stored: a value that cannot be part of an id is
 * refused on both sides (ids are not escaped: an escaped id would no longer equal its partition
 * key value in containers keyed by /id, nor what queries compare it with).
 * @example renderItemId("post-{postId}", { attributes: { postId: "a/b" } }) // throws badKey naming postId
 */
export function renderItemId(template: string, values: TemplateValues): string {
  const id = renderTemplate(template, values);
  const problem = idProblem(id);
  if (problem === undefined) return id;
  const parts = parseTemplate(template).filter((part) => part.kind !== "literal");
  const rendered = parts.map((part) => ({ part, value: String(partValue(template, part, values)) }));
  const culprit =
    rendered.find(({ value }) => FORBIDDEN_ID_CHARACTERS.some((char) => value.includes(char))) ??
    (id.endsWith(" ") ? [...rendered].reverse().find(({ value }) => value !== "") : undefined) ??
    rendered.find(({ value }) => value === "" && id === "");
  const name =
    culprit === undefined
      ? undefined
      : culprit.part.kind === "attribute"
        ? culprit.part.name
        : culprit.part.kind;
  const by =
    culprit === undefined || name === undefined ? "" : ` ({${name}} is ${shownValue(culprit.value)})`;
  throw new DataAccessError("badKey", `the id ${shownValue(id)} of template "${template}" ${problem}${by}`, {
    context: { template, id, ...(name === undefined ? {} : { attribute: name, value: culprit?.value }) },
  });
}

/**
 * Renders a partition key value (`renderKeyValue`) and checks its length: more than 2,048 bytes
 * throws `badKey` naming the template, before any request.
 */
export function renderPartitionKeyValue(template: string, values: TemplateValues): KeyValue {
  const value = renderKeyValue(template, values);
  const problem = partitionKeyProblem(value);
  if (problem === undefined) return value;
  throw new DataAccessError(
    "badKey",
    `the partition key value ${shownValue(value)} of template "${template}" ${problem}`,
    { context: { template, templateAttributes: templateAttributes(template) } },
  );
}

/**
 * Renders a template as a key value: a template that is exactly one placeholder keeps the value's
 * type (a number stays a number, as in the entity record); anything else is the rendered string.
 * @example renderKeyValue("{tenantId}", { attributes: { tenantId: 7 } }) // 7
 */
export function renderKeyValue(template: string, values: TemplateValues): KeyValue {
  const parts = parseTemplate(template);
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only !== undefined && only.kind !== "literal") return partValue(template, only, values);
  return renderTemplate(template, values);
}

function partValue(template: string, part: TemplatePart, values: TemplateValues): KeyValue {
  switch (part.kind) {
    case "literal":
      return part.text;
    case "attribute":
      return scalar(template, part.name, values.attributes[part.name]);
    case "shard":
      return scalar(template, "shard", values.shard);
    case "replica":
      return scalar(template, "replica", values.replica);
    case "bucket":
      return scalar(template, "bucket", values.bucket);
    default:
      return part satisfies never;
  }
}

function scalar(template: string, name: string, value: unknown): KeyValue {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  const got = value === undefined || value === null ? "no value" : `a value of type ${typeof value}`;
  throw new DataAccessError(
    "missingTemplateValue",
    `template "${template}" needs a string, number or boolean for {${name}}, got ${got}`,
    { context: { template, name } },
  );
}

/**
 * Reads a rendered key back into the values of its template, when that is unambiguous: at most one
 * attribute placeholder, the write shard and read replica as digits, no bucket. A key that is the
 * whole attribute keeps its type; otherwise the attribute is the text between the literals.
 * Undefined when the template cannot be read back or the key does not match it.
 * @example unrenderTemplate("{postId}-{shard}", "p-1-7") // { attributes: { postId: "p-1" }, shard: 7 }
 */
export function unrenderTemplate(
  template: string,
  value: KeyValue,
):
  | {
      readonly attributes: Readonly<Record<string, KeyValue>>;
      readonly shard?: number;
      readonly replica?: number;
    }
  | undefined {
  const parts = parseTemplate(template);
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only?.kind === "attribute") return { attributes: { [only.name]: value } };
  if (
    parts.some((part) => part.kind === "bucket") ||
    parts.filter((part) => part.kind === "attribute").length > 1
  ) {
    return undefined;
  }
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = parts
    .map((part) =>
      part.kind === "literal" ? escape(part.text) : part.kind === "attribute" ? "(.*)" : "(\\d+)",
    )
    .join("");
  const match = new RegExp(`^${pattern}$`, "s").exec(String(value));
  if (match === null) return undefined;
  const attributes: Record<string, KeyValue> = {};
  let shard: number | undefined;
  let replica: number | undefined;
  let group = 1;
  for (const part of parts) {
    if (part.kind === "literal") continue;
    const text = match[group++] ?? "";
    if (part.kind === "attribute") attributes[part.name] = text;
    else if (part.kind === "shard") shard = Number(text);
    else if (part.kind === "replica") replica = Number(text);
  }
  return {
    attributes,
    ...(shard === undefined ? {} : { shard }),
    ...(replica === undefined ? {} : { replica }),
  };
}
