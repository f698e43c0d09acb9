/**
 * The step-by-step forms of search (issue 31): how a read finds its items (a query, a
 * nearest-neighbour search, a full-text search or both), the attributes it searches, its k,
 * recall and terms; and a vector's dimensions, data type and distance or a text's language, one
 * prompt each. Every answer is checked by the one-line parsers (`interview-search-lines.ts`), so
 * the forms and the lines accept the same values and say the same when they do not.
 */
import type { Change } from "../../session/changes.js";
import { ATTRIBUTE_TYPES, isValidName, type DraftEntity, type DraftSearch } from "../../session/draft.js";
import { SUGGESTED_SEARCH } from "../../session/ask-search.js";
import {
  FULL_TEXT_LANGUAGES,
  VECTOR_DATA_TYPES,
  VECTOR_DISTANCE_FUNCTIONS,
  type FullTextLanguage,
} from "../../cosmos/vector-search.js";
import { DEFAULT_SEARCH_TERMS } from "../../workload/load-workload.js";
import type { Prompter } from "./interview-prompter.js";
import {
  parseSearchSetting,
  parseVectorDimensions,
  searchProblems,
  type SearchSetting,
  type TypedAttribute,
} from "./interview-search-lines.js";

/** What a search compares: a vector, a text searched by full text, or both (hybrid). */
export type SearchKind = "nearest" | "fullText" | "hybrid";

/** What the search part of the pattern form answered: the `search:` and the attributes it declares. */
export interface SearchAnswer {
  readonly search: DraftSearch;
  /** `set-attribute` of each searched attribute the entity did not have. */
  readonly attributes: readonly Extract<Change, { kind: "set-attribute" }>[];
}

/** The choice that starts a search read in the form's "Read or write?". */
export const SEARCH_CHOICE = {
  value: "search",
  name: "search (nearest neighbours of a vector, full text, or both)",
} as const;

/** Asks what a search compares. */
export function askSearchKind(prompter: Prompter): Promise<SearchKind> {
  return prompter.choose<SearchKind>("What does it search?", [
    { value: "nearest", name: "nearest neighbours of a query vector (vector search)" },
    { value: "fullText", name: "a text attribute by full text (BM25 rank)" },
    { value: "hybrid", name: "both, fused by rank (hybrid search)" },
  ]);
}

/**
 * The search of a read, one prompt at a time: the vector and/or text attribute (one of the
 * entity's, or a new one with its type asked step by step), k, the recall of a vector search and
 * the terms of a full-text one (suggested answers taken with Enter).
 */
export async function searchForm(
  prompter: Prompter,
  entity: DraftEntity,
  kind: SearchKind,
): Promise<SearchAnswer> {
  const attributes: Extract<Change, { kind: "set-attribute" }>[] = [];
  const search: Record<string, string | number> = {};
  for (const field of ["nearest", "fullText"] as const) {
    if (kind !== "hybrid" && kind !== field) continue;
    const chosen = await searchedAttribute(prompter, entity, field);
    search[field] = chosen.name;
    if (chosen.declared !== undefined)
      attributes.push({ kind: "set-attribute", entity: entity.name, name: chosen.name, ...chosen.declared });
  }
  search.k = await searchSetting(prompter, "k", `How many results (k) does one search return?`, {
    default: String(SUGGESTED_SEARCH.k),
  });
  if (search.nearest !== undefined)
    search.recall = await searchSetting(
      prompter,
      "recall",
      `What share of the true nearest neighbours must it return (recall, more than 0 and at most 1; 1 = exact)?`,
      { default: String(SUGGESTED_SEARCH.recall) },
    );
  if (search.fullText !== undefined) {
    const terms = await searchSetting(
      prompter,
      "terms",
      `At most how many terms does one search send? (blank for ${DEFAULT_SEARCH_TERMS})`,
      { optional: true },
    );
    if (terms !== undefined) search.terms = terms;
  }
  return { search: search as DraftSearch, attributes };
}

/** One setting of a search, checked as `k 10` / `recall 0.9` / `terms 3` in a line. */
async function searchSetting(
  prompter: Prompter,
  field: SearchSetting,
  message: string,
  options: { readonly default: string },
): Promise<number>;
async function searchSetting(
  prompter: Prompter,
  field: SearchSetting,
  message: string,
  options: { readonly optional: true },
): Promise<number | undefined>;
async function searchSetting(
  prompter: Prompter,
  field: SearchSetting,
  message: string,
  options: { readonly default?: string; readonly optional?: true },
): Promise<number | undefined> {
  const text = await prompter.text(message, {
    ...(options.default === undefined ? {} : { default: options.default }),
    validate: (value) => {
      if (value.trim() === "" && options.optional === true) return true;
      const parsed = parseSearchSetting(field, value);
      return parsed.ok ? true : parsed.problems.join("; ");
    },
  });
  if (text.trim() === "") return undefined;
  const parsed = parseSearchSetting(field, text);
  return parsed.ok ? parsed.value : undefined;
}

const NEW_ATTRIBUTE = "\u0000new";

/**
 * The attribute a search compares: one of the entity's vector (or full-text) attributes, or a
 * new one named here and typed step by step. A name the entity has for something else is refused
 * with the one-line form's message.
 */
async function searchedAttribute(
  prompter: Prompter,
  entity: DraftEntity,
  field: "nearest" | "fullText",
): Promise<{ readonly name: string; readonly declared?: TypedAttribute }> {
  const wanted = field === "nearest" ? "vector" : "fullText";
  const what = field === "nearest" ? "vector" : "text searched by full text";
  const fitting = entity.attributes.filter((a) => a[wanted] !== undefined);
  const picked =
    fitting.length === 0
      ? NEW_ATTRIBUTE
      : await prompter.choose(
          field === "nearest" ? "Which vector does it compare?" : "Which text does it search?",
          [
            ...fitting.map((a) => ({ value: a.name, name: a.name })),
            { value: NEW_ATTRIBUTE, name: `another attribute of ${entity.name} (a new ${what})` },
          ],
        );
  if (picked !== NEW_ATTRIBUTE) return { name: picked };
  const typed = await prompter.text(
    `Name of the ${entity.name} attribute that holds the ${field === "nearest" ? "vector (the embedding)" : "text"}`,
    {
      validate: (value) => {
        const name = value.trim();
        if (!isValidName(name)) return "letters, digits, _ and $, not starting with a digit";
        const problems = searchProblems(entity, { search: { [field]: name } });
        return problems.length === 0 ? true : problems.join("; ");
      },
    },
  );
  const name = typed.trim();
  // an existing vector (or text) typed by name is used as it is
  if (entity.attributes.some((a) => a.name === name)) return { name };
  const declared =
    field === "nearest"
      ? await vectorForm(prompter, `${entity.name}.${name}`)
      : await fullTextForm(prompter, `${entity.name}.${name}`);
  return { name, declared };
}

/**
 * A vector attribute's settings, one prompt each: dimensions (1 to the most a vector index
 * takes), data type and distance function; the current ones (or 1,536 float32 cosine, OpenAI's
 * text-embedding-3-small) are the defaults.
 */
export async function vectorForm(
  prompter: Prompter,
  label: string,
  current?: TypedAttribute["vector"] | DraftEntity["attributes"][number]["vector"],
): Promise<TypedAttribute> {
  const text = await prompter.text(`${label}: how many dimensions does the vector have?`, {
    default: String(current?.dimensions ?? 1536),
    validate: (value) => {
      const parsed = parseVectorDimensions(value);
      return parsed.ok ? true : parsed.problems.join("; ");
    },
  });
  const parsed = parseVectorDimensions(text);
  const dataType = await prompter.choose(
    `${label}: data type of its elements`,
    VECTOR_DATA_TYPES.map((type) => ({ value: type, name: type })),
    current?.dataType ?? "float32",
  );
  const distance = await prompter.choose(
    `${label}: distance function its searches compare by`,
    VECTOR_DISTANCE_FUNCTIONS.map((fn) => ({ value: fn, name: fn })),
    current?.distance ?? "cosine",
  );
  return {
    type: "array",
    vector: { dimensions: parsed.ok ? parsed.value : 1536, dataType, distance },
  };
}

/** A text attribute searched by full text: its language (the current one, or en-US, the default). */
export async function fullTextForm(
  prompter: Prompter,
  label: string,
  current?: FullTextLanguage,
): Promise<TypedAttribute> {
  const language = await prompter.choose(
    `${label}: language of the text`,
    FULL_TEXT_LANGUAGES.map((value) => ({ value, name: value })),
    current ?? "en-US",
  );
  return { type: "string", fullText: { language } };
}

/** The types an attribute can be given step by step: the workload's, a vector, a full-text text. */
export const STEP_ATTRIBUTE_TYPES = [
  ...ATTRIBUTE_TYPES.map((type) => ({ value: type, name: type })),
  { value: "vector", name: "vector (an embedding: dimensions, data type, distance)" },
  { value: "text", name: "text searched by full text (its language)" },
] as const;

/** An attribute's type chosen step by step, with a vector's or a full-text text's settings. */
export async function attributeTypeForm(
  prompter: Prompter,
  label: string,
  current?: DraftEntity["attributes"][number],
): Promise<TypedAttribute> {
  const now =
    current?.vector !== undefined ? "vector" : current?.fullText !== undefined ? "text" : current?.type;
  const type = await prompter.choose<(typeof STEP_ATTRIBUTE_TYPES)[number]["value"]>(
    `${label}: type`,
    STEP_ATTRIBUTE_TYPES,
    now,
  );
  if (type === "vector") return vectorForm(prompter, label, current?.vector);
  if (type === "text") return fullTextForm(prompter, label, current?.fullText?.language);
  return { type };
}
