/**
 * Answers typed the way people write them, one line each, for the terminal interview (issue 27:
 * a person finishes the interview of a small application in about 25 prompts):
 *
 * - entities with their keys: `Member (memberId), Book (bookId), Loan (memberId, bookId)`;
 * - an access pattern: `A member's loans: list Loan by memberId, sorted by dueAt desc, limit 20,
 *   12/s peak 40/s`, or a write: `create Loan, 2/s peak 10/s`;
 * - several numbers of one question: `50k, 1 KB, 500, 90 d` (a comma then a space, or `;`,
 *   separates them, so `1,000` stays one number).
 *
 * Pure: each parser returns the structured answer or every problem of the line at once.
 */
import type { Change } from "../../session/changes.js";
import type { WRITE_OPERATIONS } from "../../session/draft.js";
import {
  CONSISTENCY_LEVELS,
  PREDICATE_OPERATORS,
  isValidEntityName,
  isValidName,
  type DraftWorkload,
} from "../../session/draft.js";
import { parseQuantity, type QuantityUnit } from "../../session/quantity.js";
import { RANGES, rangeProblem, type NumberRange } from "../../session/value-ranges.js";
import {
  SEARCH_ATTRIBUTE_FIELD_NAMES,
  parseAttributeType,
  parseSearchSetting,
  readSearchClause,
  searchAttributeEdit,
  searchAttributes,
  searchProblems,
  type SearchSetting,
} from "./interview-search-lines.js";

/** The outcome of parsing a line: the value, or what is wrong (every problem, in order). */
export type LineResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: readonly string[] };

/** Splits at commas (and semicolons) outside parentheses. */
export function splitTopLevel(text: string): readonly string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if (char === "(") depth += 1;
    if (char === ")") depth = Math.max(0, depth - 1);
    if ((char === "," || char === ";") && depth === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

/** One entity of an entity line: its name and, when given in parentheses, its key attributes. */
export interface TypedEntity {
  readonly name: string;
  readonly key?: readonly string[];
}

/**
 * `Member (memberId), Book, Loan (memberId, bookId)`: entities, each with its key when given in
 * parentheses (several attributes for a composite key).
 * @example parseEntityLine("Member (memberId), Book") // ok: [{ name: "Member", key: ["memberId"] }, { name: "Book" }]
 */
export function parseEntityLine(text: string): LineResult<readonly TypedEntity[]> {
  const problems: string[] = [];
  const entities: TypedEntity[] = [];
  for (const part of splitTopLevel(text)) {
    const match = /^([^()\s]+)\s*(?:\(([^()]*)\))?$/.exec(part);
    if (match === null) {
      problems.push(
        `"${part}": expected a name, with its key in parentheses if you know it (Member (memberId))`,
      );
      continue;
    }
    const name = match[1] ?? "";
    if (!isValidEntityName(name)) {
      problems.push(`"${name}": an entity name is letters, digits and _, not starting with a digit`);
      continue;
    }
    if (entities.some((entity) => entity.name === name)) {
      problems.push(`${name} is named twice`);
      continue;
    }
    const key = (match[2] ?? "")
      .split(/[,;\s]+/)
      .map((attribute) => attribute.trim())
      .filter((attribute) => attribute !== "");
    const wrong = key.filter((attribute) => !isValidName(attribute));
    if (wrong.length > 0) {
      problems.push(
        `${name}: ${wrong.map((w) => `"${w}"`).join(", ")} is not an attribute name (letters, digits, _ and $)`,
      );
      continue;
    }
    if (new Set(key).size !== key.length) {
      problems.push(`${name}: each key attribute once`);
      continue;
    }
    entities.push(key.length === 0 ? { name } : { name, key });
  }
  if (entities.length === 0 && problems.length === 0) problems.push("name at least one entity");
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: entities };
}

/** One part of a line of several numbers: its unit, range and the words it accepts instead. */
export interface NumberPart {
  readonly label: string;
  readonly unit: QuantityUnit;
  readonly range: NumberRange;
  /** Blank (or `-`) allowed: the part is skipped. */
  readonly optional: boolean;
  /** Words accepted instead of a number (`unbounded`, `?`). */
  readonly words?: readonly string[];
}

/** A part's answer: a number, one of its words, or blank. */
export type NumberPartAnswer = number | string | undefined;

/** Splits a line of several answers: at `;`, or at a comma followed by a space (`1,000` is one number). */
export function splitNumbers(text: string): readonly string[] {
  return text.trim() === "" ? [] : text.split(/\s*;\s*|,\s+/).map((part) => part.trim());
}

/**
 * Several numbers typed on one line, one per part, in order: `50k, 1 KB, 500, 90 d`. Missing
 * trailing parts and `-` are blank. Every part is checked against its unit and range.
 * @example parseNumberLine("12, 40", [avg, peak]) // ok: [12, 40]
 */
export function parseNumberLine(
  text: string,
  parts: readonly NumberPart[],
): LineResult<readonly NumberPartAnswer[]> {
  const typed = splitNumbers(text);
  const problems: string[] = [];
  if (typed.length > parts.length)
    problems.push(`${typed.length} answers for ${parts.length} questions (separate them with ", " or ";")`);
  const values = parts.map((part, index): NumberPartAnswer => {
    const raw = (typed[index] ?? "").trim();
    const lower = raw.toLowerCase();
    if (raw === "" || raw === "-") {
      if (!part.optional) problems.push(`${index + 1} (${part.label}) is needed`);
      return undefined;
    }
    if ((part.words ?? []).map((w) => w.toLowerCase()).includes(lower)) return lower;
    const parsed = parseQuantity(raw, part.unit);
    const or =
      (part.words ?? []).length === 0 ? "" : `, or ${(part.words ?? []).map((w) => `"${w}"`).join(" or ")}`;
    if (!parsed.ok) {
      problems.push(`${index + 1} (${part.label}): ${parsed.message}${or}`);
      return undefined;
    }
    const outside = rangeProblem(parsed.value, part.range);
    if (outside !== undefined) problems.push(`${index + 1} (${part.label}): ${outside}${or}`);
    return parsed.value;
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: values };
}

const READ_VERBS = new Set([
  "read",
  "get",
  "list",
  "find",
  "search",
  "show",
  "fetch",
  "query",
  "load",
  "view",
]);
const WRITE_VERBS: Readonly<Record<string, (typeof WRITE_OPERATIONS)[number]>> = {
  create: "create",
  insert: "create",
  add: "create",
  register: "create",
  record: "create",
  replace: "replace",
  update: "patch",
  edit: "patch",
  change: "patch",
  modify: "patch",
  patch: "patch",
  set: "patch",
  upsert: "upsert",
  save: "upsert",
  put: "upsert",
  delete: "delete",
  remove: "delete",
};
const ARTICLES = new Set(["a", "an", "the", "one", "all", "every", "some"]);
const OPERATOR_WORDS: Readonly<Record<string, (typeof PREDICATE_OPERATORS)[number]>> = {
  eq: "eq",
  "=": "eq",
  equals: "eq",
  is: "eq",
  range: "range",
  between: "range",
  after: "range",
  before: "range",
  since: "range",
  ">": "range",
  "<": "range",
  in: "in",
  contains: "contains",
  prefix: "prefix",
  "starts-with": "prefix",
};
const RATE_UNIT = /\s*(\/\s*s(ec(ond)?)?|rps|per\s+second|requests?\/s)$/i;

/** What a pattern line says: the change adding the pattern, and the attributes it names. */
export interface TypedPattern {
  readonly change: Extract<Change, { kind: "add-access-pattern" }>;
  /** Attributes the pattern filters or sorts on that its entity does not declare yet. */
  readonly newAttributes: readonly string[];
}

/** The example shown with the one-line pattern prompt. */
export const PATTERN_LINE_EXAMPLE =
  "A member's loans: list Loan by memberId, sorted by dueAt desc, limit 20, 12/s peak 40/s";

/**
 * One access pattern on one line: `[description:] verb Entity[, clause]...`. Reads (read, get,
 * list, find, search...) take `by`/`where` filters (`by memberId and status in`, `by name
 * prefix`, `by createdAt range`), `sorted by A desc`, `limit N`, `returns N` (the average result
 * size) and `with X and Y` (related data); writes (create, update, replace, upsert, delete) take
 * `changes A and B`. Both take a rate: `12/s peak 40/s` (`peak` alone is allowed). Without a
 * description, the line itself (without the rate) names the pattern.
 * @example parsePatternLine("get Book by bookId, 50/s peak 200/s", workload)
 */
export function parsePatternLine(text: string, workload: DraftWorkload): LineResult<TypedPattern> {
  const problems: string[] = [];
  const line = text.trim();
  const named = /^(.+?):\s+(\S+)\s+(.*)$/.exec(line);
  const described =
    named !== null && isVerb(named[2] ?? "")
      ? { name: (named[1] ?? "").trim(), rest: `${named[2]} ${named[3]}` }
      : undefined;
  const body = described?.rest ?? line;
  const [head = "", ...clauses] = splitTopLevel(body);
  const words = head.split(/\s+/).filter((word) => word !== "");
  const verb = (words[0] ?? "").toLowerCase();
  if (!isVerb(verb)) {
    return {
      ok: false,
      problems: [
        `start with what it does: a read (${[...READ_VERBS].slice(0, 4).join(", ")}...) or a write (create, update, delete...), then the entity: ${PATTERN_LINE_EXAMPLE}`,
      ],
    };
  }
  const type: "read" | "write" = READ_VERBS.has(verb) ? "read" : "write";
  let rest = words.slice(1);
  if (ARTICLES.has((rest[0] ?? "").toLowerCase())) rest = rest.slice(1);
  const entityWord = rest[0] ?? "";
  const entity = findEntity(entityWord, workload);
  if (entity === undefined) {
    problems.push(
      entityWord === ""
        ? `name the entity after "${verb}" (${entityNames(workload)})`
        : `no entity is named "${entityWord}" (${entityNames(workload)})`,
    );
  }
  // what follows the entity in the head is a first clause (`get Book by bookId`)
  const trailing = rest.slice(1).join(" ");
  const allClauses = trailing === "" ? clauses : [trailing, ...clauses];
  const fields: Record<string, unknown> = {};
  const nameParts: string[] = [head];
  for (const clause of allClauses) {
    const problem = readClause(clause, type, fields);
    if (problem !== undefined) problems.push(problem);
    // the head names the pattern with its first clause already
    else if (clause !== trailing && !isRateClause(clause)) nameParts.push(clause);
  }
  if (type === "write") fields.operation = WRITE_VERBS[verb];
  if (entity !== undefined) problems.push(...searchProblems(entity, fields));
  if (problems.length > 0 || entity === undefined) return { ok: false, problems };
  const name = (described?.name ?? capitalize(nameParts.join(", "))).slice(0, 200);
  const declared = new Set(entity.attributes.map((attribute) => attribute.name));
  const namedAttributes = [
    ...Object.keys((fields.where as Record<string, unknown> | undefined) ?? {}),
    ...Object.keys((fields.orderBy as Record<string, unknown> | undefined) ?? {}),
    ...((fields.changes as string[] | undefined) ?? []),
    ...searchAttributes(fields),
  ];
  const newAttributes = [...new Set(namedAttributes)].filter((attribute) => !declared.has(attribute));
  const change = {
    kind: "add-access-pattern",
    type,
    entity: entity.name,
    name,
    ...fields,
  } as TypedPattern["change"];
  return { ok: true, value: { change, newAttributes } };
}

function isVerb(word: string): boolean {
  const lower = word.toLowerCase();
  return READ_VERBS.has(lower) || lower in WRITE_VERBS;
}

function entityNames(workload: DraftWorkload): string {
  return workload.entities.length === 0
    ? "no entity is defined yet"
    : `the entities are ${workload.entities.map((e) => e.name).join(", ")}`;
}

/** The entity a word names: exactly, ignoring case, or its plural (`Loans`, `Categories`). */
function findEntity(word: string, workload: DraftWorkload): DraftWorkload["entities"][number] | undefined {
  const lower = word.toLowerCase();
  const singulars = [lower, lower.replace(/ies$/, "y"), lower.replace(/es$/, ""), lower.replace(/s$/, "")];
  for (const candidate of singulars) {
    const found = workload.entities.find((e) => e.name.toLowerCase() === candidate);
    if (found !== undefined) return found;
  }
  return undefined;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function isRateClause(clause: string): boolean {
  return /^(avg\s+|average\s+)?[\d.,_]+\s*[kmb]?\b.*$/i.test(clause) || /^peak\b/i.test(clause);
}

/** Reads one clause into `fields`; returns what is wrong with it. */
function readClause(
  clause: string,
  type: "read" | "write",
  fields: Record<string, unknown>,
): string | undefined {
  if (isRateClause(clause)) return readRate(clause, fields);
  const sort = /^(?:sort(?:ed)?|order(?:ed)?)(?:\s+by)?\s+(\S+)(?:\s+(.+))?$/i.exec(clause);
  if (sort !== null) {
    if (type === "write") return `"${clause}": a write has no sort order`;
    return readSort(sort[1] ?? "", sort[2], fields);
  }
  const filter = /^(?:by|where|filtered\s+by)\s+(.+)$/i.exec(clause);
  if (filter !== null) {
    if (type === "write") return `"${clause}": a write is located by the item it writes, not a filter`;
    return readFilters(filter[1] ?? "", fields);
  }
  const limit = /^(?:limit|top|first|at\s+most)\s+(\S+)(?:\s+items?)?$/i.exec(clause);
  if (limit !== null) return readPositiveInteger(limit[1] ?? "", "limit", fields);
  const returns = /^(?:returns?|about)\s+(\S+)(?:\s+items?)?(?:\s+on\s+average)?$/i.exec(clause);
  if (returns !== null) {
    const parsed = parseQuantity(returns[1] ?? "", "count");
    if (!parsed.ok || parsed.value < 0) return `"${clause}": the average result size is a number of items`;
    fields.returns = { avg: parsed.value };
    return undefined;
  }
  const search = readSearchClause(clause, type, fields);
  if (search !== false) return search;
  const related = /^with\s+(.+)$/i.exec(clause);
  if (related !== null) {
    if (type === "write") return `"${clause}": related data is returned by reads`;
    fields.with = [...((fields.with as string[] | undefined) ?? []), ...splitAnd(related[1] ?? "")];
    return undefined;
  }
  const changes = /^(?:changes?|changing|sets?)\s+(.+)$/i.exec(clause);
  if (changes !== null) {
    if (type === "read") return `"${clause}": a read changes nothing`;
    const names = splitAnd(changes[1] ?? "");
    const wrong = names.filter((name) => !isValidName(name));
    if (wrong.length > 0) return `"${wrong.join(", ")}" is not an attribute name`;
    fields.changes = names;
    return undefined;
  }
  return `"${clause}" is not understood: a clause starts with ${type === "read" ? "by, where, sorted by, limit, returns, with, nearest, text, k, recall, terms" : "changes"}, or is a rate (12/s peak 40/s)`;
}

function splitAnd(text: string): string[] {
  return text
    .split(/\s+and\s+|\s*&\s*/i)
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

function readFilters(text: string, fields: Record<string, unknown>): string | undefined {
  const where: Record<string, string> = { ...((fields.where as Record<string, string> | undefined) ?? {}) };
  for (const part of splitAnd(text)) {
    const [name = "", ...operatorWords] = part.split(/\s*:\s*|\s+/).filter((w) => w !== "");
    const operatorText = operatorWords.join("-").toLowerCase();
    const operator = operatorText === "" ? "eq" : OPERATOR_WORDS[operatorText];
    if (!isValidName(name)) return `"${name}" is not an attribute name`;
    if (operator === undefined)
      return `"${operatorWords.join(" ")}" is not a filter: ${PREDICATE_OPERATORS.join(", ")} (eq when left out)`;
    where[name] = operator;
  }
  fields.where = where;
  return undefined;
}

function readSort(
  name: string,
  direction: string | undefined,
  fields: Record<string, unknown>,
): string | undefined {
  const [attribute = "", inline] = name.split(":");
  if (!isValidName(attribute)) return `"${attribute}" is not an attribute name`;
  const said = (inline ?? direction ?? "asc").toLowerCase().trim();
  const order = /^(asc|ascending|oldest first|lowest first|a-z)$/.test(said)
    ? "asc"
    : /^(desc|descending|newest first|latest first|highest first|z-a)$/.test(said)
      ? "desc"
      : undefined;
  if (order === undefined) return `"${said}" is not a direction: asc or desc`;
  fields.orderBy = { ...((fields.orderBy as Record<string, string> | undefined) ?? {}), [attribute]: order };
  return undefined;
}

function readPositiveInteger(
  text: string,
  field: string,
  fields: Record<string, unknown>,
): string | undefined {
  const parsed = parseQuantity(text, "count");
  if (!parsed.ok || !Number.isInteger(parsed.value) || parsed.value < 1)
    return `"${text}": ${field} is a whole number of at least 1`;
  fields[field] = parsed.value;
  return undefined;
}

/** `12/s`, `12/s peak 40/s`, `avg 12 peak 40`, `peak 40/s`. */
function readRate(clause: string, fields: Record<string, unknown>): string | undefined {
  const trimmed = clause.trim();
  const parts = /^peak\s+(.+)$/i.exec(trimmed);
  const both = /^(?:(?:avg|average)\s+)?(.+?)(?:\s+peak\s+(.+))?$/i.exec(trimmed);
  const avgText = parts === null ? both?.[1] : undefined;
  const peakText = parts === null ? both?.[2] : parts[1];
  const rate: Record<string, number> = { ...((fields.rps as Record<string, number> | undefined) ?? {}) };
  for (const [field, raw] of [
    ["avg", avgText],
    ["peak", peakText],
  ] as const) {
    if (raw === undefined) continue;
    const parsed = parseQuantity(raw.replace(RATE_UNIT, ""), "requests/s");
    if (!parsed.ok || parsed.value < 0)
      return `"${clause}": a rate is requests per second, e.g. 12/s peak 40/s`;
    rate[field] = parsed.value;
  }
  if (rate.avg !== undefined && rate.peak !== undefined && rate.peak < rate.avg)
    return `"${clause}": the peak (${rate.peak}/s) is below the average (${rate.avg}/s)`;
  fields.rps = rate;
  return undefined;
}

/** The example shown with the one-line edit. */
export const EDIT_LINE_EXAMPLE = "Q1 peak 60/s, Loan count 2M, Loan.status distinct 5, regions 3";

/**
 * The one-line edit's examples for this workload: `EDIT_LINE_EXAMPLE`, then, when the workload
 * has them, a search read's settings (`Q2 k 20`, with its recall or terms) and a vector's or a
 * full-text attribute's (`Chunk.embedding dimensions 768`, `Chunk.content language de-DE`).
 */
export function editLineExample(workload: DraftWorkload): string {
  const search = workload.accessPatterns.find((p) => p.search !== undefined);
  const attributeOf = (kind: "vector" | "fullText"): string | undefined => {
    for (const entity of workload.entities) {
      const found = entity.attributes.find((a) => a[kind] !== undefined);
      if (found !== undefined) return `${entity.name}.${found.name}`;
    }
    return undefined;
  };
  const vector = attributeOf("vector");
  const text = attributeOf("fullText");
  return [
    EDIT_LINE_EXAMPLE,
    ...(search === undefined
      ? []
      : [
          `${search.id} k 20`,
          search.search?.nearest === undefined ? `${search.id} terms 5` : `${search.id} recall 0.95`,
        ]),
    ...(vector === undefined ? [] : [`${vector} dimensions 768`]),
    ...(text === undefined ? [] : [`${text} language de-DE`]),
  ].join(", ");
}

const ENTITY_EDITS: Readonly<Record<string, { field: string; unit: QuantityUnit; range: NumberRange }>> = {
  count: { field: "count", unit: "count", range: RANGES.positive },
  items: { field: "count", unit: "count", range: RANGES.positive },
  size: { field: "avgBytes", unit: "bytes", range: RANGES.positive },
  avgbytes: { field: "avgBytes", unit: "bytes", range: RANGES.positive },
  largest: { field: "maxBytes", unit: "bytes", range: RANGES.positive },
  maxbytes: { field: "maxBytes", unit: "bytes", range: RANGES.positive },
  growth: { field: "growthPerMonth", unit: "count", range: RANGES.nonNegative },
  kept: { field: "ttlSeconds", unit: "seconds", range: RANGES.ttlSeconds },
  ttl: { field: "ttlSeconds", unit: "seconds", range: RANGES.ttlSeconds },
};

/**
 * One value changed in one line: `Q1 peak 60/s` (or `Q1 12/s peak 40/s`, `Q1 limit 50`, `Q1
 * returns 10`, `Q1 by memberId and status`, `Q1 sorted by dueAt desc`), `Loan count 2M` (count,
 * size, largest, growth, kept, key), `Loan.status distinct 5` (distinct, type, skew, unique),
 * `regions 3`, `consistency strong`, `horizon 36`, `multi-region writes yes`; a search read's
 * settings (`Q2 k 20`, `Q2 recall 0.95`, `Q2 terms 5`) and a vector's or a full-text attribute's
 * (`Chunk.embedding dimensions 768`, `dataType int8`, `distance euclidean`, `Chunk.content
 * language de-DE`), each checked as the one-line pattern form and the workload format check it.
 * @example parseEditLine("Q1 peak 60/s", workload) // ok: { kind: "set-rate", pattern: "Q1", peak: 60 }
 */
export function parseEditLine(text: string, workload: DraftWorkload): LineResult<Change> {
  const line = text.trim();
  const [subject = "", ...restWords] = line.split(/\s+/);
  const rest = restWords.join(" ");
  const fail = (problem: string): LineResult<Change> => ({ ok: false, problems: [problem] });
  const lower = subject.toLowerCase();
  if (lower === "regions" || lower === "horizon") {
    const parsed = parseQuantity(rest, "count");
    if (!parsed.ok || !Number.isInteger(parsed.value) || parsed.value < 1)
      return fail(`${lower} is a whole number of at least 1`);
    return {
      ok: true,
      value: {
        kind: "set-scale",
        ...(lower === "regions" ? { regions: parsed.value } : { horizonMonths: parsed.value }),
      },
    };
  }
  if (lower === "consistency") {
    const level = rest
      .toLowerCase()
      .replace(/\s+/g, "-")
      .replace(/^bounded-staleness$/, "bounded");
    const found = CONSISTENCY_LEVELS.find((candidate) => candidate === level);
    return found === undefined
      ? fail(`"${rest}" is not a consistency level (${CONSISTENCY_LEVELS.join(", ")})`)
      : { ok: true, value: { kind: "set-scale", consistency: found } };
  }
  const multi = /^multi-?region\s+writes\s+(yes|no|true|false|on|off)$/i.exec(line);
  if (multi !== null)
    return {
      ok: true,
      value: { kind: "set-scale", multiRegionWrites: /^(yes|true|on)$/i.test(multi[1] ?? "") },
    };
  const pattern = workload.accessPatterns.find((p) => p.id.toLowerCase() === lower);
  if (pattern !== undefined) return patternEdit(workload, pattern, rest);
  const [entityName = "", attribute] = subject.split(".");
  const entity = workload.entities.find((e) => e.name.toLowerCase() === entityName.toLowerCase());
  if (entity === undefined)
    return fail(
      `"${subject}" is no access pattern id, entity, Entity.attribute or scale setting (regions, consistency, horizon, multi-region writes): e.g. ${EDIT_LINE_EXAMPLE}`,
    );
  const [field = "", ...valueWords] = restWords;
  const value = valueWords.join(" ");
  if (attribute !== undefined)
    return (
      searchAttributeEdit(entity, attribute, field, value) ??
      attributeEdit(entity.name, attribute, field.toLowerCase(), value)
    );
  if (field.toLowerCase() === "key") {
    const key = value.split(/[,\s]+/).filter((k) => k !== "");
    if (key.length === 0 || key.some((k) => !isValidName(k)))
      return fail(`"${value}" is not a key: attribute names`);
    return {
      ok: true,
      value: { kind: "update-entity", name: entity.name, key: key.length === 1 ? (key[0] as string) : key },
    };
  }
  const edit = ENTITY_EDITS[field.toLowerCase()];
  if (edit === undefined)
    return fail(
      `"${field}" is not a field of ${entity.name}: ${[...Object.keys(ENTITY_EDITS), "key"].join(", ")}`,
    );
  const parsed = parseQuantity(value, edit.unit);
  if (!parsed.ok) return fail(`${entity.name} ${field}: ${parsed.message}`);
  const outside = rangeProblem(parsed.value, edit.range);
  if (outside !== undefined) return fail(`${entity.name} ${field}: ${outside}`);
  return {
    ok: true,
    value: { kind: "update-entity", name: entity.name, [edit.field]: parsed.value } as Change,
  };
}

/**
 * One setting of a search read changed, as a step-by-step form asks it: checked as `Q2 k 20` in
 * the one-line edit (the value, then the search it leaves).
 * @example searchSettingEdit(workload, "Q2", "k", "20") // ok: update-access-pattern with search.k 20
 */
export function searchSettingEdit(
  workload: DraftWorkload,
  id: string,
  field: SearchSetting,
  value: string,
): LineResult<Change> {
  const pattern = workload.accessPatterns.find((p) => p.id === id);
  if (pattern === undefined) return { ok: false, problems: [`there is no access pattern ${id}`] };
  const parsed = parseSearchSetting(field, value);
  return parsed.ok ? patternEdit(workload, pattern, `${field} ${parsed.value}`) : parsed;
}

function patternEdit(
  workload: DraftWorkload,
  pattern: DraftWorkload["accessPatterns"][number],
  rest: string,
): LineResult<Change> {
  const fields: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const clause of splitTopLevel(rest)) {
    const problem = readClause(clause, pattern.type, fields);
    if (problem !== undefined) problems.push(problem);
  }
  if (problems.length > 0) return { ok: false, problems };
  // `Q1 k 20` changes one setting of the search it has
  if (fields.search !== undefined) {
    const search = fields.search as Record<string, unknown>;
    const settings = Object.keys(search);
    if (pattern.search === undefined && search.nearest === undefined && search.fullText === undefined)
      return {
        ok: false,
        problems: [
          `${pattern.id} does not search: ${settings.join(" and ")} ${settings.length === 1 ? "is a setting" : "are settings"} of a search read (say what it searches too: ${pattern.id} nearest <vector attribute>, or text <text attribute>)`,
        ],
      };
    fields.search = { ...pattern.search, ...search };
  }
  // the pattern as the edit leaves it is checked as a typed search line is
  const entity = workload.entities.find((e) => e.name === pattern.entity);
  const after = entity === undefined ? [] : searchProblems(entity, { ...pattern, ...fields });
  if (after.length > 0) return { ok: false, problems: after.map((problem) => `${pattern.id}: ${problem}`) };
  if (Object.keys(fields).length === 0)
    return { ok: false, problems: [`say what changes in ${pattern.id}: e.g. ${pattern.id} peak 60/s`] };
  const { rps, ...others } = fields as { rps?: { avg?: number; peak?: number } };
  if (Object.keys(others).length === 0 && rps !== undefined)
    return { ok: true, value: { kind: "set-rate", pattern: pattern.id, ...rps } };
  return { ok: true, value: { kind: "update-access-pattern", id: pattern.id, ...fields } as Change };
}

function attributeEdit(entity: string, attribute: string, field: string, value: string): LineResult<Change> {
  const fail = (problem: string): LineResult<Change> => ({ ok: false, problems: [problem] });
  if (!isValidName(attribute)) return fail(`"${attribute}" is not an attribute name`);
  const base = { kind: "set-attribute", entity, name: attribute } as const;
  switch (field) {
    case "distinct": {
      const parsed = parseQuantity(value, "count");
      return parsed.ok && Number.isInteger(parsed.value) && parsed.value >= 1
        ? { ok: true, value: { ...base, distinct: parsed.value } }
        : fail(`distinct is a whole number of at least 1`);
    }
    case "skew": {
      const parsed = parseQuantity(value, "count");
      return parsed.ok && parsed.value >= 0
        ? { ok: true, value: { ...base, skew: parsed.value } }
        : fail("skew is a number of at least 0");
    }
    case "type": {
      const typed = parseAttributeType(value);
      return typed.ok ? { ok: true, value: { ...base, ...typed.value } } : typed;
    }
    case "unique":
      return /^(yes|no|true|false)$/i.test(value)
        ? { ok: true, value: { ...base, unique: /^(yes|true)$/i.test(value) } }
        : fail("unique is yes or no");
    default:
      return fail(
        `"${field}" is not a field of an attribute: distinct, type, skew, unique; ${SEARCH_ATTRIBUTE_FIELD_NAMES}`,
      );
  }
}
