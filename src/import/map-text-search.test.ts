/**
 * Issue 31: statements that match text with PostgreSQL's full-text search (`@@` with to_tsquery,
 * plainto_tsquery, websearch_to_tsquery, phraseto_tsquery; ranked by ts_rank or ts_rank_cd) are
 * drafted as full-text search reads, and with a pgvector ordering as hybrid search reads; each
 * decision is a note. The searched attribute comes from the structure (the to_tsvector columns,
 * a generated tsvector's expression), never from a column's name.
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

/** Column names chosen so that none says what it is: only the structure does. */
const SCHEMA = `
CREATE TABLE docs (
  doc_id bigint PRIMARY KEY,
  tenant_id bigint NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  col_a tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce(title, '') || ' ' || body)) STORED,
  col_b tsvector
);
CREATE TABLE chunks (
  chunk_id bigint PRIMARY KEY,
  doc_id bigint NOT NULL REFERENCES docs (doc_id),
  col_c text NOT NULL,
  remark text,
  col_d vector(1536)
);
CREATE INDEX ON chunks USING hnsw (col_d vector_cosine_ops);
CREATE INDEX ON chunks USING gin (to_tsvector('english', col_c));
`;

function imported(statements: readonly (readonly [string, number])[]) {
  const structure = readDdl(SCHEMA, "schema.sql", "postgresql", "2026-01-01T00:00:00.000Z");
  const snapshot: DatabaseSnapshot = {
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
  const result = mapSnapshot(snapshot, analyzePostgresStatement);
  const notesOf = (id: string | undefined) =>
    result.record.facts
      .filter((f) => f.path.join("/") === `accessPatterns/${id ?? ""}/name`)
      .map((f) => f.source)
      .join("\n");
  return { ...result, notesOf };
}

describe("full-text reads", () => {
  it("drafts WHERE col @@ websearch_to_tsquery(...) ORDER BY ts_rank(...) DESC LIMIT 10 as a full-text search of the generated column's text", () => {
    const { draft, notesOf } = imported([
      [
        "SELECT doc_id, title, ts_rank(col_a, websearch_to_tsquery($1, $2)) AS rank FROM docs WHERE tenant_id = $3 AND col_a @@ websearch_to_tsquery($1, $2) ORDER BY rank DESC LIMIT 10",
        2000,
      ],
    ]);
    const [read] = draft.accessPatterns;
    expect(read).toMatchObject({
      name: "Full-text search of Doc by title",
      type: "read",
      entity: "Doc",
      where: { tenantId: "eq" },
      search: { fullText: "title", k: 10 },
      select: ["docId", "title"],
      rps: { avg: 2 },
    });
    expect(read?.orderBy).toBeUndefined();
    const notes = notesOf(read?.id);
    expect(notes).toContain(
      "WHERE col_a @@ websearch_to_tsquery(...): a full-text search of title (websearch_to_tsquery builds the query from the user's text)",
    );
    expect(notes).toContain("the text searched is title, body together");
    expect(notes).toContain("ORDER BY ts_rank(...): the matches ranked by relevance");
    expect(notes).toContain("the workload's default, 3, applies");
    expect(notes).not.toContain("over a join");
  });

  it("drafts a @@ over a join of two tables as the join's read, without the search, and says so", () => {
    const { draft, notesOf } = imported([
      [
        "SELECT d.title, c.col_c FROM docs d JOIN chunks c ON c.doc_id = d.doc_id WHERE d.doc_id = $1 AND to_tsvector('english', c.col_c) @@ to_tsquery($2)",
        40,
      ],
    ]);
    const [read] = draft.accessPatterns;
    expect(read?.search).toBeUndefined();
    expect(notesOf(read?.id)).toContain("its full-text match (@@) is over a join of two tables");
  });

  it.each(["to_tsquery", "plainto_tsquery", "phraseto_tsquery", "websearch_to_tsquery"])(
    "reads to_tsvector(cfg, col) @@ %s($n) ORDER BY ts_rank_cd LIMIT $n as a full-text search, k assumed and said",
    (fn) => {
      const { draft, notesOf } = imported([
        [
          `SELECT chunk_id FROM chunks WHERE to_tsvector('english', col_c) @@ ${fn}('english', $1) ORDER BY ts_rank_cd(to_tsvector('english', col_c), ${fn}('english', $1)) DESC LIMIT $2`,
          100,
        ],
      ]);
      const [read] = draft.accessPatterns;
      expect(read?.search).toEqual({ fullText: "colC", k: 10 });
      expect(notesOf(read?.id)).toContain(`to_tsvector('english', col_c) @@ ${fn}(...)`);
      expect(notesOf(read?.id)).toContain("ORDER BY ts_rank_cd(...)");
      expect(notesOf(read?.id)).toContain("k = 10 is assumed");
    },
  );

  it("reads a query built in FROM (FROM docs, to_tsquery($1) q WHERE col @@ q), with the query on either side of @@", () => {
    const { draft } = imported([
      [
        "SELECT d.doc_id FROM docs d, to_tsquery($1) q WHERE q @@ d.col_a ORDER BY ts_rank(d.col_a, q) DESC LIMIT 5",
        10,
      ],
    ]);
    expect(draft.accessPatterns[0]?.search).toEqual({ fullText: "title", k: 5 });
  });

  it("counts the terms of a query text the statement shows, and keeps unranked matches a search said so", () => {
    const { draft, notesOf } = imported([
      [
        "SELECT * FROM chunks WHERE to_tsvector('english', col_c) @@ plainto_tsquery('red running shoes')",
        10,
      ],
    ]);
    const [read] = draft.accessPatterns;
    expect(read?.search).toEqual({ fullText: "colC", k: 10, terms: 3 });
    expect(notesOf(read?.id)).toContain("terms = 3: the words of the query's text");
    expect(notesOf(read?.id)).toContain("keeps the matches without ranking them (no ORDER BY ts_rank)");
    expect(notesOf(read?.id)).toContain("no LIMIT: k = 10 is assumed");
  });

  it("drafts a pgvector ordering with a @@ filter as a hybrid search", () => {
    const { draft, notesOf } = imported([
      [
        "SELECT chunk_id, col_c FROM chunks WHERE doc_id = $1 AND to_tsvector('english', col_c) @@ websearch_to_tsquery('english', $2) ORDER BY col_d <=> $3 LIMIT 8",
        500,
      ],
    ]);
    const [read] = draft.accessPatterns;
    expect(read).toMatchObject({
      name: "Hybrid search of Chunk by colD and colC",
      entity: "Chunk",
      where: { docId: "eq" },
      search: { nearest: "colD", fullText: "colC", k: 8 },
    });
    expect(notesOf(read?.id)).toContain("a hybrid search (Cosmos DB fuses the vector and the BM25 rankings");
  });

  it("keeps an ordinary read, saying why, when the text searched is no full-text attribute", () => {
    const { draft, notesOf } = imported([
      ["SELECT * FROM chunks WHERE doc_id = $1 AND to_tsvector('english', remark) @@ to_tsquery($2)", 30],
      ["SELECT * FROM docs WHERE col_b @@ to_tsquery($1) LIMIT 20", 20],
    ]);
    const onChunks = draft.accessPatterns.find((p) => p.entity === "Chunk");
    expect(onChunks?.search).toBeUndefined();
    expect(onChunks?.where).toEqual({ docId: "eq" });
    expect(notesOf(onChunks?.id)).toContain(
      "searches remark, but no GIN or GiST index on to_tsvector and no generated tsvector column declares its text search",
    );
    const onDocs = draft.accessPatterns.find((p) => p.entity === "Doc");
    expect(onDocs?.search).toBeUndefined();
    expect(notesOf(onDocs?.id)).toContain("col_b is not a generated tsvector column");
    expect(notesOf(onDocs?.id)).toContain("drafted as an ordinary read");
  });

  it("drafts full-text and hybrid reads that load once the interview's numbers are given", () => {
    const { draft } = imported([
      [
        "SELECT doc_id FROM docs WHERE col_a @@ websearch_to_tsquery($1) ORDER BY ts_rank(col_a, websearch_to_tsquery($1)) DESC LIMIT 10",
        100,
      ],
      [
        "SELECT chunk_id FROM chunks WHERE to_tsvector('english', col_c) @@ plainto_tsquery('red shoes') ORDER BY col_d <=> $1 LIMIT 5",
        50,
      ],
    ]);
    expect(draft.accessPatterns.map((p) => p.search)).toEqual([
      { fullText: "title", k: 10 },
      { nearest: "colD", fullText: "colC", k: 5, terms: 2 },
    ]);
    const completed: DraftWorkload = {
      ...draft,
      entities: draft.entities.map((e) => ({ ...e, count: 1000, avgBytes: 200_000 })),
      relationships: draft.relationships.map((r) => ({ ...r, avg: 20, max: 100 })),
      accessPatterns: draft.accessPatterns.map((p) => ({
        ...p,
        rps: { avg: p.rps?.avg ?? 1, peak: 10 },
        ...(p.search?.nearest === undefined ? {} : { search: { ...p.search, recall: 0.9 } }),
      })),
    };
    const loaded = loadWorkload(stringify(draftToDocument(completed)), { file: "rag.yaml" });
    expect(loaded.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(loaded.ok).toBe(true);
  });
});
