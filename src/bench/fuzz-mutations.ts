/**
 * Structure-aware mutations of workload and model documents for the CLI fuzzer: extreme numbers,
 * wrong types, unknown fields, deep nesting, control characters, long names, huge lists, broken
 * references and deleted fields, at any path of the document, and a few text-level breakages
 * (truncation, stray bytes, alias bombs, empty documents). Every choice comes from a seeded
 * generator, so a case is reproduced from its seed and number.
 */
import { parse, stringify } from "yaml";

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export type Random = () => number;

/** mulberry32: small, fast, and good enough to pick mutations. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** What `pick` throws on an empty list: the mutation has nothing to work on. */
class NothingToPick extends Error {}

/** `mutate()`, or undefined when it had nothing to work on. */
function nothingToMutate<T>(mutate: () => T): T | undefined {
  try {
    return mutate();
  } catch (error) {
    if (error instanceof NothingToPick) return undefined;
    throw error;
  }
}

export const pick = <T>(random: Random, values: readonly T[]): T => {
  const value = values[Math.floor(random() * values.length)];
  if (value === undefined) throw new NothingToPick("pick from an empty list");
  return value;
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = readonly (string | number)[];

/** Numbers at and around every bound the formats and the service have, and beyond any. */
const EXTREME_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  0.5,
  1e-300,
  1,
  2,
  24,
  100,
  101,
  1_000,
  1_000_000,
  2_097_152,
  2_147_483_647,
  2_147_483_648,
  42_949_673,
  42_949_674,
  1e9,
  1e12,
  1e13,
  1e15,
  2 ** 53 - 1,
  2 ** 53,
  1e20,
  Number.MAX_VALUE,
  Infinity,
  -Infinity,
  NaN,
];

const WRONG_TYPES: readonly Json[] = [null, true, "text", "", [], {}, [1, 2], { a: 1 }, "1e999", "0x10"];

const CONTROL_TEXT = [
  "a\u0000b",
  "\u001b[2J\u001b]0;owned\u0007",
  "x\u202eevil\u202c",
  "line\nbreak",
  "tab\there",
  "\u0085\u2028\u2029",
  "\ud800",
];

/** Paths are collected this deep at most (a deeply nested value is one path, not thousands). */
const MAX_PATH_DEPTH = 32;

/** Every path to a value inside `value` (the root included), down to {@link MAX_PATH_DEPTH}. */
function pathsOf(value: Json, prefix: Path = []): Path[] {
  const here: Path[] = [prefix];
  if (prefix.length >= MAX_PATH_DEPTH) return here;
  if (Array.isArray(value)) return [...here, ...value.flatMap((entry, i) => pathsOf(entry, [...prefix, i]))];
  if (value !== null && typeof value === "object")
    return [...here, ...Object.entries(value).flatMap(([key, entry]) => pathsOf(entry, [...prefix, key]))];
  return here;
}

function valueAt(value: Json, path: Path): Json | undefined {
  let current: Json | undefined = value;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = Array.isArray(current) ? current[segment as number] : current[segment as string];
  }
  return current;
}

/** A copy of `root` with the value at `path` replaced (or removed when `replacement` is undefined). */
function replaceAt(root: Json, path: Path, replacement: Json | undefined): Json {
  const [head, ...rest] = path;
  if (head === undefined) return replacement ?? null;
  if (Array.isArray(root)) {
    const copy = [...root];
    if (rest.length === 0 && replacement === undefined) copy.splice(head as number, 1);
    else copy[head as number] = replaceAt(copy[head as number] ?? null, rest, replacement);
    return copy;
  }
  if (root !== null && typeof root === "object") {
    if (rest.length === 0 && replacement === undefined)
      return Object.fromEntries(Object.entries(root).filter(([key]) => key !== head));
    return { ...root, [head]: replaceAt(root[head as string] ?? null, rest, replacement) };
  }
  return root;
}

/** The mapping at `path` with its key `from` renamed to `to` (order kept). */
function renameKey(root: Json, path: Path, from: string, to: string): Json {
  const mapping = valueAt(root, path);
  if (mapping === null || typeof mapping !== "object" || Array.isArray(mapping)) return root;
  const renamed = Object.fromEntries(
    Object.entries(mapping).map(([key, entry]) => [key === from ? to : key, entry]),
  );
  return replaceAt(root, path, renamed);
}

function nested(depth: number, list: boolean): Json {
  let value: Json = 1;
  for (let i = 0; i < depth; i++) value = list ? [value] : { a: value };
  return value;
}

/** A name one edit away from `name` (a likely typo). */
function nearMiss(random: Random, name: string): string {
  if (name.length === 0) return "x";
  const at = Math.floor(random() * name.length);
  const edits = [
    () => name.slice(0, at) + name.slice(at + 1),
    () =>
      name.slice(0, at) +
      (name[at] === name[at]?.toUpperCase() ? name[at]?.toLowerCase() : name[at]?.toUpperCase()) +
      name.slice(at + 1),
    () => `${name}s`,
  ];
  return pick(random, edits)();
}

/** One structural mutation: the document changed, and what was done (for the report). */
interface Mutated {
  readonly document: Json;
  readonly description: string;
}

type Mutation = (random: Random, document: Json, paths: readonly Path[]) => Mutated;

const show = (path: Path): string => (path.length === 0 ? "(root)" : path.join("."));

const MUTATIONS: readonly (readonly [string, number, Mutation])[] = [
  [
    "extreme number",
    6,
    (random, document, paths) => {
      const numeric = paths.filter((path) => typeof valueAt(document, path) === "number");
      const path = pick(random, numeric.length > 0 ? numeric : paths);
      const value = pick(random, EXTREME_NUMBERS);
      return { document: replaceAt(document, path, value), description: `${show(path)} = ${value}` };
    },
  ],
  [
    "wrong type",
    3,
    (random, document, paths) => {
      const path = pick(random, paths);
      const value = pick(random, WRONG_TYPES);
      return {
        document: replaceAt(document, path, value),
        description: `${show(path)} = ${JSON.stringify(value)}`,
      };
    },
  ],
  [
    "deleted field",
    2,
    (random, document, paths) => {
      const path = pick(
        random,
        paths.filter((p) => p.length > 0),
      );
      return { document: replaceAt(document, path, undefined), description: `delete ${show(path)}` };
    },
  ],
  [
    "unknown field",
    2,
    (random, document, paths) => {
      const mappings = paths.filter((path) => {
        const value = valueAt(document, path);
        return value !== null && typeof value === "object" && !Array.isArray(value);
      });
      const path = pick(random, mappings);
      const keys = Object.keys(valueAt(document, path) as object);
      const key = keys.length > 0 && random() < 0.7 ? nearMiss(random, pick(random, keys)) : "bogus";
      return { document: replaceAt(document, [...path, key], 1), description: `add ${show([...path, key])}` };
    },
  ],
  [
    "deep nesting",
    1,
    (random, document, paths) => {
      const path = pick(random, paths);
      const depth = pick(random, [20, 200, 1_000]);
      const list = random() < 0.5;
      return {
        document: replaceAt(document, path, nested(depth, list)),
        description: `${show(path)} = ${depth} nested ${list ? "lists" : "mappings"}`,
      };
    },
  ],
  [
    "control characters",
    2,
    (random, document, paths) => {
      const text = pick(random, CONTROL_TEXT);
      const keyed = paths.filter((path) => typeof path.at(-1) === "string");
      if (keyed.length > 0 && random() < 0.4) {
        const path = pick(random, keyed);
        const key = String(path.at(-1));
        return {
          document: renameKey(document, path.slice(0, -1), key, `${key}${text}`),
          description: `rename ${show(path)} with ${JSON.stringify(text)}`,
        };
      }
      const strings = paths.filter((path) => typeof valueAt(document, path) === "string");
      const path = pick(random, strings.length > 0 ? strings : paths);
      return {
        document: replaceAt(document, path, `v${text}`),
        description: `${show(path)} = ${JSON.stringify(text)}`,
      };
    },
  ],
  [
    "long name",
    2,
    (random, document, paths) => {
      const length = pick(random, [129, 300, 20_000, 1_000_000]);
      const long = `N${"n".repeat(length - 1)}`;
      const keyed = paths.filter((path) => typeof path.at(-1) === "string");
      if (keyed.length > 0 && random() < 0.5) {
        const path = pick(random, keyed);
        return {
          document: renameKey(document, path.slice(0, -1), String(path.at(-1)), long),
          description: `rename ${show(path)} to ${length} characters`,
        };
      }
      const path = pick(random, paths);
      return {
        document: replaceAt(document, path, long),
        description: `${show(path)} = ${length} characters`,
      };
    },
  ],
  [
    "huge list",
    1,
    (random, document, paths) => {
      const lists = paths.filter((path) => {
        const value = valueAt(document, path);
        return Array.isArray(value) && value.length > 0;
      });
      const path = pick(random, lists.length > 0 ? lists : paths);
      const value = valueAt(document, path);
      const entry = Array.isArray(value) && value.length > 0 ? pick(random, value) : 1;
      const count = pick(random, [100, 1_000, 3_000]);
      return {
        document: replaceAt(
          document,
          path,
          Array.from({ length: count }, () => entry),
        ),
        description: `${show(path)} = ${count} copies of one entry`,
      };
    },
  ],
  [
    "broken reference",
    3,
    (random, document, paths) => {
      const references = paths.filter((path) => {
        const last = path.at(-1);
        return (
          typeof valueAt(document, path) === "string" &&
          (["entity", "parent", "child", "via", "key", "source", "from", "of", "by", "shardBy"].includes(
            String(last),
          ) ||
            path.includes("with") ||
            path.includes("partitionKey") ||
            path.includes("atomicWith"))
        );
      });
      if (references.length === 0 || random() < 0.3) {
        // Rename an entity (or a container): everything that names it now points nowhere.
        const named = paths.filter((path) => path.length === 2 && path[0] === "entities");
        if (named.length > 0) {
          const path = pick(random, named);
          const name = String(path[1]);
          return {
            document: renameKey(document, ["entities"], name, nearMiss(random, name)),
            description: `rename entity ${name}`,
          };
        }
      }
      const path = pick(random, references.length > 0 ? references : paths);
      const value = valueAt(document, path);
      const broken = typeof value === "string" ? nearMiss(random, value) : "Nowhere";
      return {
        document: replaceAt(document, path, broken),
        description: `${show(path)} = ${JSON.stringify(broken)}`,
      };
    },
  ],
  [
    "duplicated entry",
    1,
    (random, document, paths) => {
      const lists = paths.filter((path) => {
        const value = valueAt(document, path);
        return Array.isArray(value) && value.length > 0;
      });
      if (lists.length === 0) return { document, description: "no list to duplicate in" };
      const path = pick(random, lists);
      const value = valueAt(document, path) as Json[];
      return {
        document: replaceAt(document, path, [...value, pick(random, value)]),
        description: `duplicate an entry of ${show(path)}`,
      };
    },
  ],
];

/**
 * A number scaled by a power of ten, or set to the largest number the formats accept: mostly
 * valid documents with extreme counts, sizes, rates and partitions (what must get an answer).
 */
const scaleNumber: Mutation = (random, document, paths) => {
  const numeric = paths.filter((path) => {
    const value = valueAt(document, path);
    return typeof value === "number" && value > 0 && path[0] !== "version";
  });
  if (numeric.length === 0) return { document, description: "no number to scale" };
  const path = pick(random, numeric);
  const value = valueAt(document, path) as number;
  const factor = pick(random, [10, 1e3, 1e6, 1e9, 1e12, 0]);
  const scaled =
    factor === 0 ? 2 ** 53 - 1 : Number.isInteger(value) ? Math.round(value * factor) : value * factor;
  return { document: replaceAt(document, path, scaled), description: `${show(path)} = ${scaled}` };
};

const TOTAL_WEIGHT = MUTATIONS.reduce((sum, [, weight]) => sum + weight, 0);

function pickMutation(random: Random): readonly [string, number, Mutation] {
  let roll = random() * TOTAL_WEIGHT;
  for (const entry of MUTATIONS) {
    roll -= entry[1];
    if (roll < 0) return entry;
  }
  return MUTATIONS[0] as readonly [string, number, Mutation];
}

/** Text-level breakages: what no structural change produces. */
const TEXT_MUTATIONS: readonly (readonly [string, (random: Random, text: string) => string])[] = [
  ["truncated", (random, text) => text.slice(0, Math.floor(random() * text.length))],
  [
    "stray bytes",
    (random, text) => {
      const at = Math.floor(random() * text.length);
      return `${text.slice(0, at)}${pick(random, ["\u0000", "\t", ": :", "- - ", "{", "]", "\ufffd", "&a *a", "!!binary x"])}${text.slice(at)}`;
    },
  ],
  [
    "alias bomb",
    () =>
      `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n`,
  ],
  ["empty", (random) => pick(random, ["", "\n", "null", "[]", "42", "---\n---\n", "# only a comment\n"])],
  ["duplicate key", (_, text) => text.replace(/^version: 1$/m, "version: 1\nversion: 1")],
  [
    "deep nesting in the text",
    (random, text) => {
      const depth = pick(random, [5_000, 50_000]);
      return `${text}\ndeep: ${"[".repeat(depth)}1${"]".repeat(depth)}\n`;
    },
  ],
];

/** A mutated document: its text and what was done. */
export interface MutatedText {
  readonly text: string;
  readonly mutations: readonly string[];
}

/**
 * Applies 1 to 3 mutations to the YAML `text` and returns the new text (YAML or JSON) with their
 * descriptions: four times in ten numbers scaled up (extreme but mostly valid), else structural
 * mutations of every kind, or (one time in ten of those) a text-level breakage.
 */
export function mutateDocument(random: Random, text: string): MutatedText {
  if (random() < 0.4) {
    // Extreme but mostly valid: only numbers scaled up.
    let document = parse(text) as Json;
    const mutations: string[] = [];
    const count = 1 + Math.floor(random() * 3);
    for (let i = 0; i < count; i++) {
      const mutated = scaleNumber(random, document, pathsOf(document));
      document = mutated.document;
      mutations.push(`scaled number: ${mutated.description}`);
    }
    return { text: serialize(random, document), mutations };
  }
  if (random() < 0.1) {
    const [name, mutate] = pick(random, TEXT_MUTATIONS);
    return { text: mutate(random, text), mutations: [`text: ${name}`] };
  }
  let document = parse(text) as Json;
  const mutations: string[] = [];
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) {
    // A small document may leave a mutation nothing to work on (no field left to delete): it is
    // drawn again, a few times at most.
    for (let attempt = 0; attempt < 5; attempt++) {
      const [name, , mutate] = pickMutation(random);
      const mutated = nothingToMutate(() => mutate(random, document, pathsOf(document)));
      if (mutated === undefined) continue;
      document = mutated.document;
      mutations.push(`${name}: ${mutated.description}`);
      break;
    }
  }
  return { text: serialize(random, document), mutations };
}

/**
 * The document as YAML or, one time in five, as JSON (a YAML subset the loaders accept too);
 * JSON when the YAML writer cannot (nesting deeper than its stack), YAML when JSON cannot (NaN
 * and infinities).
 */
function serialize(random: Random, document: Json): string {
  const json = JSON.stringify(document);
  const jsonHoldsIt =
    json ===
    JSON.stringify(document, (_, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? null : v));
  if (jsonHoldsIt && random() < 0.2) return json;
  try {
    return stringify(document, { lineWidth: 0, aliasDuplicateObjects: false });
  } catch (error) {
    if (error instanceof RangeError) return json;
    throw error;
  }
}
