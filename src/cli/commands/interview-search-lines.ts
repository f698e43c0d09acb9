/**
 * The search parts of the interview's one-line answers (issue 31), pure like the rest of
 * `interview-lines.ts`: attribute types with their embedding or full-text search (`vector(1536)`,
 * `text(en-US)`), a read's search clauses (`nearest embedding`, `k 10`, `recall 0.9`, `terms
 * 3`) and what is wrong with a search as a whole. The step-by-step forms and the one-value edits
 * check their answers with these same functions, so every way of typing a search says the same.
 */
import type { Change } from "../../session/changes.js";
import { ATTRIBUTE_TYPES, isValidName, type DraftWorkload } from "../../session/draft.js";
import {
  DEFAULT_VECTOR_SEARCH_FACTS,
  FULL_TEXT_LANGUAGES,
  VECTOR_DATA_TYPES,
  VECTOR_DISTANCE_FUNCTIONS,
  type FullTextLanguage,
  type VectorDataType,
  type VectorDistanceFunction,
} from "../../cosmos/vector-search.js";
import { MAX_SEARCH_TERMS } from "../../workload/raw-schema.js";
import type { LineResult } from "./interview-lines.js";

/** The most dimensions a vector may have: the largest any vector index type takes (diskANN, quantizedFlat). */
export const MAX_VECTOR_DIMENSIONS = Math.max(
  ...Object.values(DEFAULT_VECTOR_SEARCH_FACTS.indexes).map((index) => index.maxDimensions),
);

/**
 * The dimensions of a vector: a whole number from 1 to the most any vector index takes
 * (`MAX_VECTOR_DIMENSIONS`, from the facts in cosmos/vector-search.ts).
 * @example parseVectorDimensions("768") // ok: 768
 */
export function parseVectorDimensions(text: string): LineResult<number> {
  const typed = text.trim();
  const dimensions = Number(typed);
  return /^\d+$/.test(typed) && dimensions >= 1 && dimensions <= MAX_VECTOR_DIMENSIONS
    ? { ok: true, value: dimensions }
    : {
        ok: false,
        problems: [
          `"${typed}": the dimensions of a vector are a whole number from 1 to ${MAX_VECTOR_DIMENSIONS} (e.g. vector(1536))`,
        ],
      };
}

/** An attribute's type as typed: a workload type, with its embedding or full-text search when given. */
export interface TypedAttribute {
  readonly type: (typeof ATTRIBUTE_TYPES)[number];
  readonly vector?: {
    readonly dimensions: number;
    readonly dataType: VectorDataType;
    readonly distance: VectorDistanceFunction;
  };
  readonly fullText?: { readonly language: FullTextLanguage };
}

/** The attribute types a prompt lists: the workload's, then the search forms. */
export const ATTRIBUTE_TYPE_FORMS = `${ATTRIBUTE_TYPES.join(", ")}, vector(<dimensions>[, ${VECTOR_DATA_TYPES.join("|")}][, ${VECTOR_DISTANCE_FUNCTIONS.join("|")}]), text(<language>)`;

/** How a typed attribute is written back (`vector(1536, float32, cosine)`, `text(en-US)`, `string`). */
export function attributeTypeText(attribute: TypedAttribute): string {
  if (attribute.vector !== undefined)
    return `vector(${attribute.vector.dimensions}, ${attribute.vector.dataType}, ${attribute.vector.distance})`;
  if (attribute.fullText !== undefined) return `text(${attribute.fullText.language})`;
  return attribute.type;
}

/**
 * An attribute type: `string`, `number`, ... (the workload's types), `vector(1536)` (an embedding:
 * float32 and cosine unless given, `vector(768, int8, euclidean)`) or `text(en-US)` (a string
 * searched by full text; `text` alone is en-US).
 * @example parseAttributeType("vector(1536)") // ok: { type: "array", vector: { dimensions: 1536, dataType: "float32", distance: "cosine" } }
 */
export function parseAttributeType(text: string): LineResult<TypedAttribute> {
  const typed = text.trim();
  const fail = (problem: string): LineResult<TypedAttribute> => ({ ok: false, problems: [problem] });
  const plain = ATTRIBUTE_TYPES.find((type) => type === typed.toLowerCase());
  if (plain !== undefined) return { ok: true, value: { type: plain } };
  const vector = /^vector\s*\((.*)\)$/i.exec(typed);
  if (vector !== null) {
    const [dimensionsText = "", ...options] = (vector[1] ?? "")
      .split(/\s*[,;]\s*|\s+/)
      .filter((p) => p !== "");
    const parsedDimensions = parseVectorDimensions(dimensionsText);
    const dimensions = parsedDimensions.ok ? parsedDimensions.value : 0;
    const problems: string[] = parsedDimensions.ok ? [] : [...parsedDimensions.problems];
    let dataType: VectorDataType = "float32";
    let distance: VectorDistanceFunction = "cosine";
    const said = new Set<string>();
    for (const option of options) {
      const lower = option.toLowerCase();
      const asType = VECTOR_DATA_TYPES.find((candidate) => candidate === lower);
      const asDistance = VECTOR_DISTANCE_FUNCTIONS.find((candidate) => candidate === lower);
      if (asType !== undefined && !said.has("dataType")) {
        dataType = asType;
        said.add("dataType");
      } else if (asDistance !== undefined && !said.has("distance")) {
        distance = asDistance;
        said.add("distance");
      } else
        problems.push(
          `"${option}" is not a vector data type (${VECTOR_DATA_TYPES.join(", ")}) or distance function (${VECTOR_DISTANCE_FUNCTIONS.join(", ")}), each said once`,
        );
    }
    return problems.length > 0
      ? { ok: false, problems }
      : { ok: true, value: { type: "array", vector: { dimensions, dataType, distance } } };
  }
  const fullText = /^(?:full-?)?text(?:\s*\((.*)\))?$/i.exec(typed);
  if (fullText !== null) {
    const said = (fullText[1] ?? "").trim();
    const language =
      said === ""
        ? "en-US"
        : FULL_TEXT_LANGUAGES.find((candidate) => candidate.toLowerCase() === said.toLowerCase());
    return language === undefined
      ? fail(`"${said}" is not a full-text language (${FULL_TEXT_LANGUAGES.join(", ")})`)
      : { ok: true, value: { type: "string", fullText: { language } } };
  }
  return fail(`"${typed}" is not a type (${ATTRIBUTE_TYPE_FORMS})`);
}

/** The attributes a line's search names (nearest first). */
export function searchAttributes(fields: Record<string, unknown>): readonly string[] {
  const search = fields.search as { nearest?: string; fullText?: string } | undefined;
  return [search?.nearest, search?.fullText].filter((name) => name !== undefined);
}

/**
 * What is wrong with a line's search: `k`, `recall` or `terms` without what they apply to, a
 * sort or limit beside it, or an attribute the entity has that is not a vector (or not searched
 * by full text). An attribute the entity does not have yet is declared with the pattern.
 */
export function searchProblems(
  entity: DraftWorkload["entities"][number],
  fields: Record<string, unknown>,
): readonly string[] {
  const search = fields.search as
    { nearest?: string; fullText?: string; k?: number; recall?: number; terms?: number } | undefined;
  if (search === undefined) return [];
  const problems: string[] = [];
  const listed = (kind: "vector" | "fullText"): string => {
    const names = entity.attributes.filter((a) => a[kind] !== undefined).map((a) => a.name);
    return names.length === 0
      ? ""
      : ` (${kind === "vector" ? "vector" : "full-text"} attributes: ${names.join(", ")})`;
  };
  if (search.nearest === undefined && search.fullText === undefined)
    problems.push(
      "say what the search compares: nearest <vector attribute>, text <text attribute>, or both joined by and",
    );
  const nearest = entity.attributes.find((a) => a.name === search.nearest);
  if (nearest !== undefined && nearest.vector === undefined)
    problems.push(
      `${entity.name}.${nearest.name} is a ${nearest.type}, not a vector: nearest searches a vector attribute${listed("vector")}; declare one as vector(<dimensions>) (Entity.attribute type vector(1536))`,
    );
  const text = entity.attributes.find((a) => a.name === search.fullText);
  if (text !== undefined && text.fullText === undefined)
    problems.push(
      `${entity.name}.${text.name} is not searched by full text: text searches an attribute of type text(<language>)${listed("fullText")}`,
    );
  if (search.recall !== undefined && search.nearest === undefined)
    problems.push("recall applies to a vector search (nearest)");
  if (search.terms !== undefined && search.fullText === undefined)
    problems.push("terms apply to a full-text search (text)");
  if (fields.orderBy !== undefined || fields.limit !== undefined)
    problems.push(
      "a search returns its k results by distance or rank: no sorted by and no limit (k is its limit)",
    );
  const returned = (fields.returns as { avg?: number } | undefined)?.avg;
  if (search.k !== undefined && returned !== undefined && returned > search.k)
    problems.push(
      `a search returns at most its k (${search.k}) results: returns ${returned} on average is more (lower it, or raise k)`,
    );
  return problems;
}

/**
 * The search clauses of a read: `nearest embedding` (a vector search), `text content` (full
 * text), `nearest embedding and text content` (hybrid), `k 10`, `recall 0.9`, `terms 3`.
 * Returns false when the clause is none of them.
 */
export function readSearchClause(
  clause: string,
  type: "read" | "write",
  fields: Record<string, unknown>,
): string | false | undefined {
  const search: Record<string, unknown> = {
    ...((fields.search as Record<string, unknown> | undefined) ?? {}),
  };
  const targets = /^(nearest|(?:full-?)?text)\s+(\S+)(?:\s+and\s+(nearest|(?:full-?)?text)\s+(\S+))?$/i.exec(
    clause,
  );
  const setting = /^(k|recall|terms)\s+(\S+)$/i.exec(clause);
  if (targets === null && setting === null) return false;
  if (type === "write") return `"${clause}": a write does not search`;
  if (targets !== null) {
    const pairs = [
      [targets[1], targets[2]],
      [targets[3], targets[4]],
    ] as const;
    for (const [word, attribute] of pairs) {
      if (word === undefined || attribute === undefined) continue;
      if (!isValidName(attribute)) return `"${attribute}" is not an attribute name`;
      const field = word.toLowerCase() === "nearest" ? "nearest" : "fullText";
      if (search[field] !== undefined)
        return `"${clause}": one ${field === "nearest" ? "nearest" : "text"} attribute per search`;
      search[field] = attribute;
    }
    fields.search = search;
    return undefined;
  }
  const field = (setting?.[1] ?? "").toLowerCase() as SearchSetting;
  const parsed = parseSearchSetting(field, setting?.[2] ?? "");
  if (!parsed.ok) return parsed.problems.join("; ");
  search[field] = parsed.value;
  fields.search = search;
  return undefined;
}

/** The settings of a search read: its results, the recall of a vector search, the terms of a full-text one. */
export const SEARCH_SETTINGS = ["k", "recall", "terms"] as const;
export type SearchSetting = (typeof SEARCH_SETTINGS)[number];

/**
 * One setting of a search, as the workload format takes it: `k` a whole number of at least 1
 * (the TOP of the query), `recall` more than 0 and at most 1, `terms` a whole number from 1 to
 * `MAX_SEARCH_TERMS`.
 * @example parseSearchSetting("recall", "0.95") // ok: 0.95
 */
export function parseSearchSetting(field: SearchSetting, text: string): LineResult<number> {
  const raw = text.trim();
  const value = Number(raw);
  const fail = (problem: string): LineResult<number> => ({ ok: false, problems: [problem] });
  switch (field) {
    case "recall":
      return /^\d*\.?\d+$/.test(raw) && value > 0 && value <= 1
        ? { ok: true, value }
        : fail(
            `"${raw}": recall is the share of the true nearest neighbours, more than 0 and at most 1 (e.g. 0.9; 1 = exact)`,
          );
    case "terms":
      return /^\d+$/.test(raw) && value >= 1 && value <= MAX_SEARCH_TERMS
        ? { ok: true, value }
        : fail(`"${raw}": terms is a whole number from 1 to ${MAX_SEARCH_TERMS}`);
    case "k":
      return /^\d+$/.test(raw) && value >= 1 && Number.isSafeInteger(value)
        ? { ok: true, value }
        : fail(`"${raw}": k (the results a search returns) is a whole number of at least 1`);
    default:
      field satisfies never;
      return fail(`"${String(field)}" is not a search setting (${SEARCH_SETTINGS.join(", ")})`);
  }
}

/** The settings of a vector or full-text attribute that one edit changes, as typed (lower case). */
const SEARCH_ATTRIBUTE_FIELDS: Readonly<Record<string, "dimensions" | "dataType" | "distance" | "language">> =
  {
    dimensions: "dimensions",
    dims: "dimensions",
    datatype: "dataType",
    "data-type": "dataType",
    distance: "distance",
    language: "language",
  };

/** The field names a vector or full-text attribute edit takes, for messages. */
export const SEARCH_ATTRIBUTE_FIELD_NAMES = "dimensions, dataType, distance (a vector), language (full text)";

/**
 * One setting of a vector or full-text attribute changed, the others kept: `dimensions 768`,
 * `dataType int8`, `distance euclidean` of a vector, `language de-DE` of a text searched by full
 * text; checked as the attribute type `vector(...)` / `text(...)` is. Undefined when `field` is no
 * such setting.
 * @example searchAttributeEdit(chunk, "embedding", "dimensions", "768") // ok: set-attribute with vector.dimensions 768
 */
export function searchAttributeEdit(
  entity: DraftWorkload["entities"][number],
  name: string,
  field: string,
  value: string,
): LineResult<Change> | undefined {
  const setting = SEARCH_ATTRIBUTE_FIELDS[field.toLowerCase()];
  if (setting === undefined) return undefined;
  const fail = (problem: string): LineResult<Change> => ({ ok: false, problems: [problem] });
  const wanted = setting === "language" ? "fullText" : "vector";
  const fitting = entity.attributes.filter((a) => a[wanted] !== undefined).map((a) => a.name);
  const listed =
    fitting.length === 0
      ? `${entity.name} has no ${wanted === "vector" ? "vector" : "full-text"} attribute yet`
      : `${entity.name}'s ${wanted === "vector" ? "vectors" : "full-text attributes"}: ${fitting.join(", ")}`;
  const attribute = entity.attributes.find((a) => a.name === name);
  if (attribute === undefined) return fail(`${entity.name} has no attribute "${name}" (${listed})`);
  const said = value.trim();
  const base = { kind: "set-attribute", entity: entity.name, name } as const;
  if (setting === "language") {
    if (attribute.fullText === undefined)
      return fail(
        `${entity.name}.${name} is a ${attribute.type} not searched by full text: a language belongs to a text attribute (${listed}); make it one with ${entity.name}.${name} type text(en-US)`,
      );
    const language = FULL_TEXT_LANGUAGES.find((candidate) => candidate.toLowerCase() === said.toLowerCase());
    return language === undefined
      ? fail(`"${said}" is not a full-text language (${FULL_TEXT_LANGUAGES.join(", ")})`)
      : { ok: true, value: { ...base, fullText: { ...attribute.fullText, language } } };
  }
  const vector = attribute.vector;
  if (vector === undefined)
    return fail(
      `${entity.name}.${name} is a ${attribute.type}, not a vector: ${setting} is a setting of a vector attribute (${listed}); make it one with ${entity.name}.${name} type vector(1536)`,
    );
  switch (setting) {
    case "dimensions": {
      const dimensions = parseVectorDimensions(said);
      return dimensions.ok
        ? { ok: true, value: { ...base, vector: { ...vector, dimensions: dimensions.value } } }
        : dimensions;
    }
    case "dataType": {
      const dataType = VECTOR_DATA_TYPES.find((candidate) => candidate === said.toLowerCase());
      return dataType === undefined
        ? fail(`"${said}" is not a vector data type (${VECTOR_DATA_TYPES.join(", ")})`)
        : { ok: true, value: { ...base, vector: { ...vector, dataType } } };
    }
    case "distance": {
      const distance = VECTOR_DISTANCE_FUNCTIONS.find((candidate) => candidate === said.toLowerCase());
      return distance === undefined
        ? fail(`"${said}" is not a distance function (${VECTOR_DISTANCE_FUNCTIONS.join(", ")})`)
        : { ok: true, value: { ...base, vector: { ...vector, distance } } };
    }
    default:
      setting satisfies never;
      return undefined;
  }
}
