/**
 * PostgreSQL's vector and full-text search -> the workload's `vector:` and `fullText:` attributes
 * (issue 31). Reads only types, operator classes, operators and index definitions, never column
 * names: a pgvector `vector(n)` column is an embedding of n float32 values whose distance is its
 * index's operator class (`vector_cosine_ops` -> cosine, `vector_l2_ops` -> euclidean,
 * `vector_ip_ops` -> dotproduct, pgvector's README); the columns a `to_tsvector(config, ...)`
 * index or generated column reads are searched by full text in the configuration's language.
 * Pure: every decision comes back as a note for the import record.
 */
import type { FullTextLanguage, VectorDistanceFunction } from "../cosmos/vector-search.js";
import { tableLabel, type ColumnInfo, type SqlDialect, type TableInfo } from "./snapshot/snapshot.js";

/** pgvector's distance operators (ORDER BY embedding <=> $1) -> Cosmos DB distance functions. */
export const DISTANCE_OF_OPERATOR: Readonly<Record<string, VectorDistanceFunction>> = {
  "<=>": "cosine",
  "<->": "euclidean",
  "<#>": "dotproduct",
};

/** pgvector's operator classes (`vector_cosine_ops`, `halfvec_l2_ops`) by their distance. */
const DISTANCE_OF_CLASS: Readonly<Record<string, VectorDistanceFunction>> = {
  cosine: "cosine",
  l2: "euclidean",
  ip: "dotproduct",
};

/** PostgreSQL text search configurations -> Cosmos DB full-text languages. */
const LANGUAGE_OF_CONFIG: Readonly<Record<string, FullTextLanguage>> = {
  english: "en-US",
  german: "de-DE",
  spanish: "es-ES",
  french: "fr-FR",
  italian: "it-IT",
  portuguese: "pt-PT",
};

/** `vector(1536)` / `halfvec(768)`: pgvector's dense vectors with their dimensions. */
const DENSE_VECTOR = /^(?:[a-z_][a-z0-9_]*\.)?(vector|halfvec)(?:\s*\(\s*(\d+)\s*\))?$/i;
const SPARSE_VECTOR = /^(?:[a-z_][a-z0-9_]*\.)?sparsevec\b/i;

export interface SearchMapping {
  readonly vector?: {
    readonly dimensions: number;
    readonly dataType: "float32";
    readonly distance: VectorDistanceFunction;
  };
  readonly fullText?: { readonly language?: FullTextLanguage };
  /** Facts of the mapping: the field under the attribute, its value and where it came from. */
  readonly facts: readonly {
    readonly field: readonly string[];
    readonly value: number | string;
    readonly source: string;
  }[];
  /** Every decision in words, for the import record's notes. */
  readonly notes: readonly string[];
}

/** The distance an index's operator class names, or why it names none Cosmos DB has. */
function distanceOfClass(operatorClass: string | undefined): VectorDistanceFunction | string {
  // hnsw and ivfflat default to the l2 operator class when the index names none
  const name = (operatorClass ?? "vector_l2_ops").toLowerCase();
  const match = /^(?:vector|halfvec)_(cosine|l2|ip|l1)_ops$/.exec(name);
  const distance = match?.[1] === undefined ? undefined : DISTANCE_OF_CLASS[match[1]];
  if (distance !== undefined) return distance;
  return match?.[1] === "l1"
    ? `${name} (L1, taxicab distance) has no Cosmos DB distance function`
    : `${name} is not one of pgvector's vector operator classes`;
}

/**
 * MySQL 9's and SQL Server 2025's `VECTOR(n)` (SQL Server's also `VECTOR(n, float16)`): float32
 * elements unless said; MySQL's n defaults to 2048 ("The default length is 2048; the maximum is
 * 16383 entries": https://dev.mysql.com/doc/refman/9.0/en/vector.html, the same in 9.6, checked
 * 2026-11-29). MySQL's n is the most entries a value holds; an embedding column holds the model's
 * own count, taken as its dimensions.
 */
const DIALECT_VECTOR = /^vector(?:\s*\(\s*(\d+)\s*(?:,\s*(\w+)\s*)?\))?$/i;
const MYSQL_DEFAULT_DIMENSIONS = 2048;

/**
 * The vector and full-text search a column of `table` takes part in, with its notes; `dialect`
 * is the database's (pgvector's types for PostgreSQL, `VECTOR(n)` for MySQL and SQL Server).
 */
export function mapSearchColumn(
  table: TableInfo,
  column: ColumnInfo,
  dialect: SqlDialect = "postgresql",
): SearchMapping | undefined {
  const label = `${tableLabel(table)}.${column.name}`;
  const type = column.sqlType.trim();
  if (dialect !== "postgresql") {
    const vector = DIALECT_VECTOR.exec(type);
    return vector === null ? undefined : mapDialectVector(label, type, dialect, vector[1], vector[2]);
  }
  if (SPARSE_VECTOR.test(type))
    return {
      facts: [],
      notes: [
        `${label} ${type}: a sparse vector (pgvector sparsevec) is not a Cosmos DB vector (dense float32, int8 or uint8): kept as a string, not a vector attribute.`,
      ],
    };
  const dense = DENSE_VECTOR.exec(type);
  if (dense !== null) return mapVector(table, column, label, dense[1]?.toLowerCase() ?? "vector", dense[2]);
  const texts = (table.search ?? []).filter(
    (s): s is Extract<typeof s, { kind: "fullText" }> =>
      s.kind === "fullText" && s.columns.includes(column.name),
  );
  const [text] = texts;
  if (text === undefined) return undefined;
  if (column.type !== "string")
    return {
      facts: [],
      notes: [
        `${label} (${column.sqlType}) is read by a text search (${text.source}) but is not text: not marked fullText (Cosmos DB searches string paths).`,
      ],
    };
  const config = text.config?.toLowerCase().replace(/^pg_catalog\./, "");
  const language = config === undefined ? undefined : LANGUAGE_OF_CONFIG[config];
  const notes = [
    language !== undefined
      ? `${label} is searched by full text: ${text.source}; the ${config ?? ""} configuration -> language ${language}.`
      : config === undefined
        ? `${label} is searched by full text: ${text.source}; it names no text search configuration (the server's default_text_search_config applies, not read here): its language is asked in the interview, en-US is not assumed.`
        : `${label} is searched by full text: ${text.source}; the ${config} configuration has no Cosmos DB full-text language (en-US, de-DE, es-ES, fr-FR, it-IT, pt-BR, pt-PT): its language is asked in the interview, en-US is not assumed.`,
  ];
  if (texts.some((t) => t.config !== text.config))
    notes.push(
      `${label} is searched with several configurations (${[...new Set(texts.map((t) => t.config ?? "the default"))].join(", ")}): the first, ${text.config ?? "the default"}, is kept; a Cosmos DB full-text path has one language.`,
    );
  return {
    fullText: language === undefined ? {} : { language },
    facts:
      language === undefined
        ? []
        : [{ field: ["fullText", "language"], value: language, source: text.source }],
    notes,
  };
}

function mapVector(
  table: TableInfo,
  column: ColumnInfo,
  label: string,
  kind: string,
  dimensionsText: string | undefined,
): SearchMapping {
  const notes: string[] = [];
  const declared = `${label} ${column.sqlType}`;
  if (dimensionsText === undefined)
    return {
      facts: [],
      notes: [
        `${declared}: a pgvector column without dimensions (any length): kept as an array, not a vector attribute; give its dimensions (vector: { dimensions }) in the interview.`,
      ],
    };
  const dimensions = Number(dimensionsText);
  if (kind === "halfvec")
    notes.push(
      `${declared}: half-precision (16-bit) floats have no Cosmos DB data type: imported as float32 (4 bytes a dimension, twice the size PostgreSQL stores); int8 or uint8 would be quantized.`,
    );
  const indexes = (table.search ?? []).filter(
    (s): s is Extract<typeof s, { kind: "vector" }> => s.kind === "vector" && s.column === column.name,
  );
  const facts: { field: readonly string[]; value: number | string; source: string }[] = [
    { field: ["vector", "dimensions"], value: dimensions, source: `the type modifier of ${declared}` },
    { field: ["vector", "dataType"], value: "float32", source: `${declared} (pgvector ${kind})` },
  ];
  let distance: VectorDistanceFunction | undefined;
  for (const index of indexes) {
    const found = distanceOfClass(index.operatorClass);
    if (typeof found !== "string" || !["cosine", "euclidean", "dotproduct"].includes(found)) {
      notes.push(`${label}: ${index.source}: ${found}.`);
      continue;
    }
    if (distance === undefined) {
      distance = found as VectorDistanceFunction;
      facts.push({ field: ["vector", "distance"], value: distance, source: index.source });
      notes.push(
        `${declared} -> a vector of ${dimensions} float32 dimensions, distance ${distance} from ${index.source}${index.operatorClass === undefined ? ` (no operator class: ${index.method}'s default, vector_l2_ops)` : ` (${index.operatorClass})`}.`,
      );
    } else if (found !== distance)
      notes.push(
        `${label}: ${index.source} searches by ${found} as well: the first index's ${distance} is kept (a Cosmos DB vector path has one distance function).`,
      );
  }
  if (distance === undefined) {
    distance = "cosine";
    notes.push(
      `${declared} -> a vector of ${dimensions} float32 dimensions; no pgvector index gives its distance: cosine is assumed (check the operator the application's queries use: <=> cosine, <-> euclidean, <#> dotproduct).`,
    );
  }
  return { vector: { dimensions, dataType: "float32", distance }, facts, notes };
}

/**
 * MySQL's or SQL Server's `VECTOR(n)`: n float32 dimensions (SQL Server's float16 imported as
 * float32, said so). Neither declares a distance (a query names it, `DISTANCE(v, q, 'COSINE')` in
 * MySQL, `VECTOR_DISTANCE('cosine', v, q)` in SQL Server): cosine is assumed and said so.
 */
function mapDialectVector(
  label: string,
  type: string,
  dialect: "mysql" | "sqlserver",
  dimensionsText: string | undefined,
  baseType: string | undefined,
): SearchMapping {
  const product = dialect === "mysql" ? "MySQL" : "SQL Server";
  const declared = `${label} ${type}`;
  const notes: string[] = [];
  let dimensions = dimensionsText === undefined ? undefined : Number(dimensionsText);
  if (dimensions === undefined && dialect === "mysql") {
    dimensions = MYSQL_DEFAULT_DIMENSIONS;
    notes.push(`${declared}: MySQL's VECTOR without a length holds ${MYSQL_DEFAULT_DIMENSIONS} dimensions.`);
  }
  if (dimensions === undefined)
    return {
      facts: [],
      notes: [
        `${declared}: a ${product} vector without dimensions: kept as an array, not a vector attribute; give its dimensions (vector: { dimensions }) in the interview.`,
      ],
    };
  const base = baseType?.toLowerCase();
  if (base !== undefined && base !== "float32")
    notes.push(
      `${declared}: ${base} elements have no Cosmos DB vector data type: imported as float32 (4 bytes a dimension); int8 or uint8 would be quantized.`,
    );
  const distanceChosen =
    dialect === "mysql"
      ? "DISTANCE(v, q, 'COSINE' | 'EUCLIDEAN' | 'DOT') in the application's queries"
      : "VECTOR_DISTANCE('cosine' | 'euclidean' | 'dot', v, q) in the application's queries, or a vector index's METRIC";
  notes.push(
    `${declared} -> a vector of ${dimensions} float32 dimensions; ${product}'s VECTOR type declares no distance (${distanceChosen} chooses it): cosine is assumed; check it in the interview.`,
  );
  return {
    vector: { dimensions, dataType: "float32", distance: "cosine" },
    facts: [
      { field: ["vector", "dimensions"], value: dimensions, source: `the length of ${declared}` },
      { field: ["vector", "dataType"], value: "float32", source: `${declared} (${product} VECTOR)` },
    ],
    notes,
  };
}
