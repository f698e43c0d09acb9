/**
 * Issue 31: `import` maps pgvector columns and their indexes, and PostgreSQL's text search, to
 * the workload's `vector:` and `fullText:` attributes, and nearest-neighbour queries of
 * pg_stat_statements to search reads. pgvector is not installed where the tests run: the schema
 * is SQL text, read by PostgreSQL's own parser (which needs no extension to parse it).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { draftToDocument, type DraftWorkload } from "../session/draft.js";
import { loadWorkload } from "../workload/load-workload.js";
import { readDdl } from "./ddl/read-ddl.js";
import { mapSnapshot } from "./map-snapshot.js";
import type { DatabaseSnapshot, StatementStatistics } from "./snapshot/snapshot.js";
import { analyzePostgresStatement, loadPostgresParser } from "./sql/postgres-parser.js";

beforeAll(() => loadPostgresParser());

const CHUNKS = `
CREATE TABLE docs (
  doc_id bigint PRIMARY KEY,
  title text NOT NULL,
  body text NOT NULL,
  tenant_id bigint NOT NULL,
  search tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || body)) STORED
);
CREATE TABLE chunks (
  chunk_id bigint PRIMARY KEY,
  doc_id bigint NOT NULL REFERENCES docs (doc_id),
  content text NOT NULL,
  e1 vector(1536),
  e2 vector(768),
  e3 vector(384),
  e4 halfvec(3072),
  e5 vector,
  e6 vector(256),
  flags bit(64)
);
`;

function imported(ddl: string, statements: readonly (readonly [string, number])[] = []) {
  const structure = readDdl(ddl, "schema.sql", "postgresql", "2026-01-01T00:00:00.000Z");
  const snapshot: DatabaseSnapshot =
    statements.length === 0
      ? structure
      : {
          ...structure,
          source: {
            kind: "postgresql",
            connection: "postgres://importer@db/rag",
            database: "rag",
            serverVersion: "15",
            capturedAt: "2026-01-01T00:00:00.000Z",
            statementsSince: "2025-12-31T23:43:20.000Z",
            windowSeconds: 1000,
          },
          statements: statements.map(([query, calls], index): StatementStatistics => ({
            queryId: String(index + 1),
            query,
            calls,
            rows: calls * 5,
            meanMilliseconds: 1,
          })),
        };
  return mapSnapshot(snapshot, analyzePostgresStatement);
}

const attribute = (draft: DraftWorkload, entity: string, name: string) =>
  draft.entities.find((e) => e.name === entity)?.attributes.find((a) => a.name === name);

describe("pgvector columns and indexes", () => {
  const ddl = `${CHUNKS}
CREATE INDEX chunks_e1 ON chunks USING hnsw (e1 vector_cosine_ops) WITH (m = 16);
CREATE INDEX chunks_e2 ON chunks USING ivfflat (e2 vector_l2_ops) WITH (lists = 100);
CREATE INDEX chunks_e3 ON chunks USING hnsw (e3 vector_ip_ops);
CREATE INDEX chunks_e4 ON chunks USING hnsw (e4 halfvec_cosine_ops);
CREATE INDEX chunks_e6 ON public.chunks USING hnsw (e6 vector_l1_ops);
`;

  it("takes the dimensions from the type modifier and the distance from the index's operator class", () => {
    const { draft, record } = imported(ddl);
    expect(attribute(draft, "Chunk", "e1")).toEqual({
      name: "e1",
      type: "array",
      vector: { dimensions: 1536, dataType: "float32", distance: "cosine" },
    });
    expect(attribute(draft, "Chunk", "e2")?.vector).toEqual({
      dimensions: 768,
      dataType: "float32",
      distance: "euclidean",
    });
    expect(attribute(draft, "Chunk", "e3")?.vector).toEqual({
      dimensions: 384,
      dataType: "float32",
      distance: "dotproduct",
    });
    expect(record.facts).toContainEqual({
      path: ["entities", "Chunk", "attributes", "e2", "vector", "distance"],
      value: "euclidean",
      source: expect.stringContaining("USING ivfflat (e2 vector_l2_ops)") as unknown as string,
    });
    expect(record.notes).toContainEqual(
      expect.stringContaining(
        "chunks.e1 vector(1536) -> a vector of 1536 float32 dimensions, distance cosine",
      ),
    );
  });

  it("imports halfvec as float32 with a note, and leaves bit(n) as it was", () => {
    const { draft, record } = imported(ddl);
    expect(attribute(draft, "Chunk", "e4")?.vector).toEqual({
      dimensions: 3072,
      dataType: "float32",
      distance: "cosine",
    });
    expect(record.notes).toContainEqual(expect.stringContaining("chunks.e4 halfvec(3072): half-precision"));
    // bit(n) is pgvector's binary vector type too, but PostgreSQL's own: left as the type mapping reads it
    expect(attribute(draft, "Chunk", "flags")?.vector).toBeUndefined();
    expect(attribute(draft, "Chunk", "flags")?.type).not.toBe("array");
  });

  it("assumes cosine without an index (or with an operator class Cosmos DB has no distance for), saying so", () => {
    const { draft, record } = imported(CHUNKS);
    expect(attribute(draft, "Chunk", "e1")?.vector?.distance).toBe("cosine");
    expect(record.notes).toContainEqual(
      expect.stringContaining(
        "chunks.e1 vector(1536) -> a vector of 1536 float32 dimensions; no pgvector index gives its distance: cosine is assumed",
      ),
    );
    const withL1 = imported(ddl);
    expect(attribute(withL1.draft, "Chunk", "e6")?.vector?.distance).toBe("cosine");
    expect(withL1.record.notes).toContainEqual(
      expect.stringContaining("vector_l1_ops (L1, taxicab distance) has no Cosmos DB distance function"),
    );
  });

  it("keeps a vector without dimensions an array, not a vector attribute, with a note", () => {
    const { draft, record } = imported(CHUNKS);
    expect(attribute(draft, "Chunk", "e5")).toEqual({ name: "e5", type: "array" });
    expect(record.notes).toContainEqual(
      expect.stringContaining("chunks.e5 vector: a pgvector column without dimensions"),
    );
  });

  it("reads an index with no operator class as the method's default, vector_l2_ops", () => {
    const { draft } = imported(`${CHUNKS} CREATE INDEX ON chunks USING ivfflat (e1);`);
    expect(attribute(draft, "Chunk", "e1")?.vector?.distance).toBe("euclidean");
  });
});

describe("full-text search", () => {
  it("marks the columns of a generated tsvector as fullText in the configuration's language", () => {
    const { draft, record } = imported(CHUNKS);
    expect(attribute(draft, "Doc", "title")?.fullText).toEqual({ language: "en-US" });
    expect(attribute(draft, "Doc", "body")?.fullText).toEqual({ language: "en-US" });
    expect(attribute(draft, "Doc", "tenantId")?.fullText).toBeUndefined();
    expect(attribute(draft, "Doc", "search")).toBeUndefined();
    expect(record.notes).toContainEqual(
      expect.stringContaining(
        "docs.body is searched by full text: generated column search tsvector of docs; the english configuration -> language en-US",
      ),
    );
  });

  it.each([
    ["german", "de-DE"],
    ["spanish", "es-ES"],
    ["french", "fr-FR"],
    ["italian", "it-IT"],
    ["portuguese", "pt-PT"],
  ])("maps a GIN index on to_tsvector('%s', col) to %s", (config, language) => {
    const { draft } = imported(
      `${CHUNKS} CREATE INDEX chunks_fts ON chunks USING gin (to_tsvector('${config}', content));`,
    );
    expect(attribute(draft, "Chunk", "content")?.fullText).toEqual({ language });
  });

  it("does not assume en-US for another configuration or none: a note says the language is asked", () => {
    const dutch = imported(`${CHUNKS} CREATE INDEX ON chunks USING gin (to_tsvector('dutch', content));`);
    expect(attribute(dutch.draft, "Chunk", "content")?.fullText).toEqual({});
    expect(dutch.record.notes).toContainEqual(
      expect.stringContaining("the dutch configuration has no Cosmos DB full-text language"),
    );
    const none = imported(`${CHUNKS} CREATE INDEX ON chunks USING gist (to_tsvector(content));`);
    expect(attribute(none.draft, "Chunk", "content")?.fullText).toEqual({});
    expect(none.record.notes).toContainEqual(expect.stringContaining("names no text search configuration"));
  });
});

describe("nearest-neighbour statements", () => {
  const ddl = `${CHUNKS} CREATE INDEX ON chunks USING hnsw (e1 vector_cosine_ops);`;

  it("drafts ORDER BY e <=> $1 LIMIT k as a search read with k and its filters", () => {
    const { draft, record } = imported(ddl, [
      ["SELECT chunk_id, content FROM chunks WHERE doc_id = $1 ORDER BY e1 <=> $2 LIMIT 5", 2000],
    ]);
    const read = draft.accessPatterns.find((p) => p.search !== undefined);
    expect(read).toMatchObject({
      type: "read",
      entity: "Chunk",
      where: { docId: "eq" },
      search: { nearest: "e1", k: 5 },
      rps: { avg: 2 },
    });
    expect(read?.orderBy).toBeUndefined();
    expect(read?.limit).toBeUndefined();
    expect(record.facts.map((f) => f.source)).toContainEqual(
      expect.stringContaining("nearest-neighbour search by cosine distance"),
    );
  });

  it("says k is assumed when pg_stat_statements replaced the LIMIT, and names a distance the index does not use", () => {
    const { draft, record } = imported(ddl, [["SELECT * FROM chunks ORDER BY e1 <-> $1 LIMIT $2", 100]]);
    expect(draft.accessPatterns[0]?.search).toEqual({ nearest: "e1", k: 10 });
    const sources = record.facts.map((f) => f.source);
    expect(sources).toContainEqual(expect.stringContaining("k = 10 is assumed"));
    expect(sources).toContainEqual(
      expect.stringContaining("orders by euclidean distance (<->) but e1's distance is cosine"),
    );
  });

  it("keeps an inner-product query (<#>) a search read, and an ordinary ORDER BY an ordinary read", () => {
    const { draft } = imported(ddl, [
      ["SELECT * FROM chunks ORDER BY e3 <#> $1 LIMIT 3", 10],
      ["SELECT * FROM chunks WHERE doc_id = $1 ORDER BY chunk_id LIMIT $2", 10],
    ]);
    expect(draft.accessPatterns.find((p) => p.search !== undefined)?.search).toEqual({ nearest: "e3", k: 3 });
    expect(draft.accessPatterns.find((p) => p.search === undefined)?.orderBy).toEqual({ chunkId: "asc" });
  });

  it("drafts a workload that loads once the interview's numbers are given", () => {
    const { draft } = imported(`${ddl} CREATE INDEX ON chunks USING gin (to_tsvector('english', content));`, [
      ["SELECT chunk_id, content FROM chunks WHERE doc_id = $1 ORDER BY e1 <=> $2 LIMIT 5", 2000],
    ]);
    // what the interview asks: counts, sizes, peaks and the recall of the search
    const completed: DraftWorkload = {
      ...draft,
      entities: draft.entities.map((e) => ({ ...e, count: 1000, avgBytes: 200_000 })),
      relationships: draft.relationships.map((r) => ({ ...r, avg: 20, max: 100 })),
      accessPatterns: draft.accessPatterns.map((p) => ({
        ...p,
        rps: { avg: p.rps?.avg ?? 1, peak: 10 },
        ...(p.search === undefined ? {} : { search: { ...p.search, recall: 0.9 } }),
      })),
    };
    const loaded = loadWorkload(stringify(draftToDocument(completed)), { file: "rag.yaml" });
    expect(loaded.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(loaded.ok).toBe(true);
  });
});

describe("MySQL 9 and SQL Server 2025 VECTOR columns", () => {
  const fromDdl = (ddl: string, dialect: "mysql" | "sqlserver") =>
    mapSnapshot(readDdl(ddl, "schema.sql", dialect, "2026-01-01T00:00:00.000Z"), analyzePostgresStatement);

  it("imports MySQL's VECTOR(n) as n float32 dimensions, a VECTOR without length as 2048, cosine assumed and said", () => {
    const { draft, record } = fromDdl(
      "CREATE TABLE chunks (chunk_id BIGINT PRIMARY KEY, content TEXT NOT NULL, e1 VECTOR(1536) NOT NULL, e2 VECTOR);",
      "mysql",
    );
    expect(attribute(draft, "Chunk", "e1")).toEqual({
      name: "e1",
      type: "array",
      vector: { dimensions: 1536, dataType: "float32", distance: "cosine" },
    });
    expect(attribute(draft, "Chunk", "e2")?.vector?.dimensions).toBe(2048);
    expect(record.notes).toContainEqual(
      expect.stringContaining(
        "chunks.e1 vector(1536) -> a vector of 1536 float32 dimensions; MySQL's VECTOR type declares no distance (DISTANCE(v, q, 'COSINE' | 'EUCLIDEAN' | 'DOT') in the application's queries chooses it): cosine is assumed",
      ),
    );
    expect(record.notes).toContainEqual(
      expect.stringContaining("MySQL's VECTOR without a length holds 2048"),
    );
    expect(record.notes.join("\n")).not.toContain("pgvector");
    expect(record.facts).toContainEqual({
      path: ["entities", "Chunk", "attributes", "e1", "vector", "dimensions"],
      value: 1536,
      source: "the length of chunks.e1 vector(1536)",
    });
  });

  it("reads SQL Server's VECTOR(n) and VECTOR(n, float16), which its grammar rejects, in CREATE TABLE and ALTER TABLE ADD", () => {
    const { draft, record } = fromDdl(
      `CREATE TABLE dbo.chunks (chunk_id BIGINT PRIMARY KEY, content NVARCHAR(MAX) NOT NULL, [e1] VECTOR(1536) NOT NULL, e2 VECTOR(768, float16));
GO
ALTER TABLE dbo.chunks ADD e3 VECTOR(3);
GO`,
      "sqlserver",
    );
    expect(attribute(draft, "Chunk", "e1")?.vector).toEqual({
      dimensions: 1536,
      dataType: "float32",
      distance: "cosine",
    });
    expect(attribute(draft, "Chunk", "e2")?.vector).toEqual({
      dimensions: 768,
      dataType: "float32",
      distance: "cosine",
    });
    expect(attribute(draft, "Chunk", "e3")?.vector?.dimensions).toBe(3);
    expect(record.unmapped.filter((u) => u.kind === "statement")).toEqual([]);
    expect(record.notes).toContainEqual(
      expect.stringContaining(
        "chunks.e2 vector(768, float16): float16 elements have no Cosmos DB vector data type",
      ),
    );
    expect(record.notes).toContainEqual(
      expect.stringContaining("SQL Server's VECTOR type declares no distance (VECTOR_DISTANCE("),
    );
  });

  it("leaves a column named vector of another type as it is", () => {
    const { draft } = fromDdl(
      "CREATE TABLE t (id INT PRIMARY KEY, vector INT, [Vector] NVARCHAR(10));",
      "sqlserver",
    );
    expect(attribute(draft, "T", "vector")).toEqual({ name: "vector", type: "number" });
  });
});
