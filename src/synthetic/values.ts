/**
 * Realistic values for one attribute of a synthetic record, chosen from the attribute's type,
 * its name (email, title, price, status, ...), its cardinality (`distinct`), its skew and whether
 * it is unique. Pure and deterministic: the value of record `index` depends only on the random
 * source handed in.
 */
import type { Attribute, Entity } from "../workload/types.js";
import { pickOne, randomInt, zipfSampler, type Rng } from "./random.js";
import {
  CITIES,
  COUNTRIES,
  FIRST_NAMES,
  KNOWN_VALUES,
  LAST_NAMES,
  TITLE_WORDS,
  WORDS,
} from "./vocabulary.js";

export interface ValueContext {
  readonly entity: Entity;
  readonly attribute: Attribute;
  /** Records generated for the entity. */
  readonly count: number;
  /** Wanted JSON size of the value (strings, objects, arrays); absent = the natural size. */
  readonly targetBytes?: number;
  /** Start of the timeline of datetimes, ms since the epoch. */
  readonly timelineStart: number;
  /** Length of the timeline, ms: record i is dated about start + i/count x span. */
  readonly timelineSpan: number;
  /** The entity's first datetime attribute: later datetimes of a record follow it. */
  readonly firstDatetime?: string;
}

/** Produces the value of record `index`; `record` holds the attributes generated before it. */
export type ValueGenerator = (index: number, rng: Rng, record: Readonly<Record<string, unknown>>) => unknown;

const TEXT_NAMES =
  /^(content|body|description|text|bio|about|comment|message|notes?|summary|details|payload|excerpt|review)$/i;

/** True when the attribute is an identifier or a reference: `id`, `userId`, `parent_id`. */
export function isIdLike(name: string): boolean {
  return name === "id" || /(?:Id|ID|_id)$/.test(name);
}

/** True for free-text attributes that can be made longer to reach the entity's size. */
export function isTextLike(name: string): boolean {
  return TEXT_NAMES.test(name);
}

/** `userId` -> `user`, `parentCategoryId` -> `parent-category`, `id` of Post -> `post`. */
export function idStem(name: string, entity: string): string {
  const stem = name === "id" ? entity : name.replace(/(?:Id|ID|_id)$/, "");
  return kebab(stem === "" ? entity : stem);
}

function kebab(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .toLowerCase();
}

/** `user-000123`: the identifier of rank `index` with the given stem. */
export function formatId(stem: string, index: number): string {
  return `${stem}-${String(index).padStart(6, "0")}`;
}

/** Values of a low-cardinality string attribute: a known vocabulary, else `name-1`, `name-2`, ... */
export function categoricalValues(name: string, distinct: number): readonly string[] {
  const known = KNOWN_VALUES[name.toLowerCase()];
  if (known !== undefined && distinct <= known.length) return known.slice(0, distinct);
  if (isIdLike(name))
    return Array.from({ length: distinct }, (_, rank) => formatId(idStem(name, name), rank + 1));
  return Array.from({ length: distinct }, (_, rank) => `${kebab(name)}-${rank + 1}`);
}

/** Words up to about `bytes` characters, as a sentence. */
function sentence(rng: Rng, bytes: number): string {
  const words: string[] = [];
  let length = 0;
  while (length < bytes) {
    const word = pickOne(rng, WORDS);
    words.push(word);
    length += word.length + 1;
  }
  const text = words.join(" ").slice(0, Math.max(1, bytes));
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * An embedding: a unit-length Gaussian vector in float32 (as an embedding model returns one), or
 * evenly drawn integers of the int8 / uint8 range.
 */
function embedding(dimensions: number, dataType: "float32" | "int8" | "uint8", rng: Rng): number[] {
  if (dataType === "int8") return Array.from({ length: dimensions }, () => Math.floor(rng() * 256) - 128);
  if (dataType === "uint8") return Array.from({ length: dimensions }, () => Math.floor(rng() * 256));
  const raw = Array.from(
    { length: dimensions },
    () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng()),
  );
  const norm = Math.sqrt(raw.reduce((sum, x) => sum + x * x, 0)) || 1;
  return raw.map((x) => Math.fround(x / norm));
}

/** A value size near `target` (within +-20%), or `fallback` when no target is given. */
function sizeNear(rng: Rng, target: number | undefined, fallback: number): number {
  if (target === undefined) return fallback;
  return Math.max(1, Math.round(target * (0.8 + 0.4 * rng())));
}

function person(index: number): { first: string; last: string } {
  const first = FIRST_NAMES[index % FIRST_NAMES.length] ?? "Ada";
  const last = LAST_NAMES[Math.floor(index / FIRST_NAMES.length) % LAST_NAMES.length] ?? "Berg";
  return { first, last };
}

const PERSON_ENTITY = /user|customer|account|person|member|employee|author|contact|profile|owner/i;

/**
 * The value generator of an attribute. The key attribute is unique by construction
 * (`post-000001`, or 1, 2, ... for a number key); references to other entities are filled by the
 * record generator, not here.
 */
export function valueGenerator(context: ValueContext, isKey: boolean): ValueGenerator {
  const { attribute } = context;
  const vector = attribute.vector;
  if (vector !== undefined) return (_index, rng) => embedding(vector.dimensions, vector.dataType, rng);
  const lower = attribute.name.toLowerCase();
  const unique = attribute.unique || isKey;
  // More distinct values than records cannot show: sample among as many values as records.
  const distinct =
    unique || attribute.distinct === undefined
      ? undefined
      : Math.max(1, Math.min(attribute.distinct, context.count));
  const rank = distinct === undefined ? undefined : zipfSampler(distinct, attribute.skew);
  switch (attribute.type) {
    case "string":
      return stringGenerator(context, isKey, unique, distinct, rank);
    case "number":
      return (index, rng) => {
        if (unique) return index + 1;
        if (rank !== undefined) return rank(rng) + 1;
        return numberByName(lower, rng);
      };
    case "boolean":
      return (_index, rng) => (rank !== undefined && distinct === 1 ? true : rng() < 0.5);
    case "datetime":
      return (index, rng, record) => {
        const first = context.firstDatetime === undefined ? undefined : record[context.firstDatetime];
        if (typeof first === "string" && context.firstDatetime !== attribute.name) {
          // A later event of the same record: 1 minute to 7 days after the first datetime.
          return new Date(Date.parse(first) + randomInt(rng, 60, 7 * 86_400) * 1000).toISOString();
        }
        const step = context.timelineSpan / Math.max(1, context.count);
        return new Date(Math.round(context.timelineStart + (index + rng() * 0.9) * step)).toISOString();
      };
    case "object":
      return (index, rng) => objectByName(lower, index, rng, context.targetBytes);
    case "array":
      return (_index, rng) => arrayByName(lower, rng, context.targetBytes, distinct);
    default:
      return attribute.type satisfies never;
  }
}

function stringGenerator(
  context: ValueContext,
  isKey: boolean,
  unique: boolean,
  distinct: number | undefined,
  rank: ((rng: Rng) => number) | undefined,
): ValueGenerator {
  const { attribute, entity, targetBytes } = context;
  const name = attribute.name;
  const lower = name.toLowerCase();
  if (isKey || isIdLike(name)) {
    const stem = idStem(name, entity.name);
    if (isKey || unique) return (index) => formatId(stem, index + 1);
    if (rank !== undefined) return (_index, rng) => formatId(stem, rank(rng) + 1);
    return (_index, rng) => formatId(stem, randomInt(rng, 1, Math.max(1, context.count)));
  }
  if (rank !== undefined) {
    const values = categoricalValues(name, distinct ?? 1);
    return (_index, rng) => values[rank(rng)] ?? values[0];
  }
  const suffix = (index: number, value: string): string => (unique ? `${value}-${index + 1}` : value);
  const known = KNOWN_VALUES[lower];
  if (known !== undefined) return (index, rng) => suffix(index, pickOne(rng, known));
  if (lower === "useragent") {
    return (_index, rng) =>
      `Mozilla/5.0 (${pickOne(rng, ["Windows NT 10.0; Win64; x64", "Macintosh; Intel Mac OS X 14_5", "X11; Linux x86_64", "iPhone; CPU iPhone OS 17_5 like Mac OS X"])}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${randomInt(rng, 118, 131)}.0.0.0 Safari/537.36`;
  }
  if (lower.includes("email")) {
    return (index) => {
      const { first, last } = person(index);
      return `${first}.${last}${index + 1}@example.com`.toLowerCase();
    };
  }
  if (lower === "username" || lower === "login" || lower === "handle") {
    return (index) => {
      const { first, last } = person(index);
      return `${first}${last}${index + 1}`.toLowerCase();
    };
  }
  if (/(^|[a-z])(display)?name$/i.test(name) || lower === "fullname") {
    if (PERSON_ENTITY.test(entity.name) || lower.includes("display") || lower.includes("full")) {
      return (index) => {
        const { first, last } = person(index);
        return suffix(index, `${first} ${last}`);
      };
    }
    return (index, rng) =>
      suffix(index, `${capitalize(pickOne(rng, WORDS))} ${capitalize(pickOne(rng, WORDS))}`);
  }
  if (lower.endsWith("url") || lower === "avatar" || lower === "image") {
    return (index, rng) =>
      `https://example.com/${kebab(name)}/${index + 1}-${randomInt(rng, 1000, 9999)}.jpg`;
  }
  if (lower.includes("phone"))
    return (_index, rng) => `+1-555-${String(randomInt(rng, 0, 9999)).padStart(4, "0")}`;
  if (lower.startsWith("ip")) {
    return (_index, rng) =>
      `10.${randomInt(rng, 0, 255)}.${randomInt(rng, 0, 255)}.${randomInt(rng, 1, 254)}`;
  }
  if (/hash|token|secret|signature/.test(lower)) return (_index, rng) => hex(rng, 64);
  if (lower.includes("postal") || lower.includes("zip")) {
    return (_index, rng) => String(randomInt(rng, 10000, 99999));
  }
  if (lower === "city") return (_index, rng) => pickOne(rng, CITIES);
  if (lower === "country") return (_index, rng) => pickOne(rng, COUNTRIES);
  if (lower.includes("version"))
    return (_index, rng) => `${randomInt(rng, 1, 4)}.${randomInt(rng, 0, 12)}.${randomInt(rng, 0, 30)}`;
  if (/^(line\d|street|address)/.test(lower)) {
    return (_index, rng) => `${randomInt(rng, 1, 999)} ${capitalize(pickOne(rng, WORDS))} Street`;
  }
  if (lower === "title" || lower === "subject" || lower === "headline") {
    return (index, rng) => {
      const base = `${pickOne(rng, TITLE_WORDS)} on ${pickOne(rng, WORDS)} and ${pickOne(rng, WORDS)}`;
      const text =
        targetBytes === undefined ? base : `${base} ${sentence(rng, sizeNear(rng, targetBytes, 40))}`;
      return suffix(
        index,
        targetBytes === undefined ? text : text.slice(0, Math.max(base.length, targetBytes)),
      );
    };
  }
  if (isTextLike(name))
    return (index, rng) => suffix(index, sentence(rng, sizeNear(rng, stringBytes(targetBytes), 120)));
  return (index, rng) => suffix(index, sentence(rng, sizeNear(rng, stringBytes(targetBytes), 16)));
}

/** Characters of a string whose JSON is `bytes` long (minus the two quotes). */
function stringBytes(bytes: number | undefined): number | undefined {
  return bytes === undefined ? undefined : Math.max(1, bytes - 2);
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function hex(rng: Rng, length: number): string {
  let text = "";
  while (text.length < length) text += Math.floor(rng() * 16).toString(16);
  return text;
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

function numberByName(lower: string, rng: Rng): number {
  if (/price|amount|total|cost|balance|fee/.test(lower)) return round(5 + rng() * 495, 2);
  if (/quantity|qty/.test(lower)) return randomInt(rng, 1, 5);
  if (/count$/.test(lower)) return randomInt(rng, 0, 200);
  if (/rating|stars|score/.test(lower)) return randomInt(rng, 1, 5);
  if (/stock|inventory/.test(lower)) return randomInt(rng, 0, 500);
  if (lower.includes("temperature")) return round(-10 + rng() * 50, 1);
  if (/humidity|battery|percent/.test(lower)) return round(rng() * 100, 1);
  if (lower.includes("pressure")) return round(950 + rng() * 100, 1);
  if (lower.includes("vibration")) return round(rng() * 10, 2);
  if (lower === "age") return randomInt(rng, 18, 80);
  if (/^lat/.test(lower)) return round(-60 + rng() * 120, 5);
  if (/^(lon|lng)/.test(lower)) return round(-180 + rng() * 360, 5);
  return randomInt(rng, 0, 1000);
}

function objectByName(lower: string, index: number, rng: Rng, targetBytes: number | undefined): object {
  let value: Record<string, unknown>;
  if (lower.includes("address")) {
    value = {
      line1: `${randomInt(rng, 1, 999)} ${capitalize(pickOne(rng, WORDS))} Street`,
      city: pickOne(rng, CITIES),
      postalCode: String(randomInt(rng, 10000, 99999)),
      country: pickOne(rng, COUNTRIES),
    };
  } else if (lower.includes("location")) {
    value = {
      latitude: round(-60 + rng() * 120, 5),
      longitude: round(-180 + rng() * 360, 5),
      floor: randomInt(rng, 0, 9),
    };
  } else if (/settings|preferences|config/.test(lower)) {
    value = {
      theme: pickOne(rng, ["light", "dark"]),
      locale: pickOne(rng, ["en-US", "pt-BR", "ja-JP"]),
      notifications: rng() < 0.5,
    };
  } else if (lower.includes("threshold")) {
    value = {
      temperatureMax: randomInt(rng, 30, 60),
      humidityMax: randomInt(rng, 60, 95),
      batteryMin: randomInt(rng, 5, 20),
    };
  } else if (lower.includes("reading")) {
    value = {
      temperature: round(-10 + rng() * 50, 1),
      humidity: round(rng() * 100, 1),
      battery: round(rng() * 100, 1),
    };
  } else {
    value = { label: pickOne(rng, WORDS), value: randomInt(rng, 0, 1000), sequence: index + 1 };
  }
  if (targetBytes !== undefined) {
    const missing = targetBytes - JSON.stringify(value).length - 10;
    if (missing > 0) value = { ...value, note: sentence(rng, missing) };
  }
  return value;
}

function arrayByName(
  lower: string,
  rng: Rng,
  targetBytes: number | undefined,
  distinct: number | undefined,
): unknown[] {
  const size = targetBytes === undefined ? randomInt(rng, 1, 4) : Math.max(1, Math.round(targetBytes / 12));
  if (lower.endsWith("urls") || lower.endsWith("images")) {
    return Array.from({ length: size }, () => `https://example.com/media/${hex(rng, 12)}.jpg`);
  }
  // A small vocabulary, so that `contains` predicates find several matches.
  const vocabulary = WORDS.slice(0, Math.min(WORDS.length, distinct ?? 20));
  return Array.from({ length: size }, () => pickOne(rng, vocabulary));
}
