/**
 * Issue 31: a live import reads the same vector and full-text search facts as the import of the
 * same schema's DDL file, the two views agreeing. pgvector is not packaged for Debian 12, so the
 * vector schema is served by PGlite (PostgreSQL compiled to WebAssembly, with its `vector`
 * extension) over the wire protocol, and imported through the built CLI; the full-text schema,
 * PostgreSQL's own, also runs on the real PostgreSQL server of the other import tests.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDatabase } from "../../src/import/import-database.js";
import type { ImportResult } from "../../src/import/map-snapshot.js";
import type { DraftWorkload } from "../../src/session/draft.js";
import { openSession } from "../../src/session-store/session-files.js";
import {
  createDatabase,
  postgresBinForTests,
  startPostgres,
  type PostgresServer,
} from "./postgres-server.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(root, "dist", "cli", "main.js");
const bin = postgresBinForTests("import-search-live");

/**
 * Documents searched by full text through a generated tsvector column, chunks through a GIN index
 * on to_tsvector, and (with `embedding`) by their nearest neighbours through an hnsw index.
 */
function searchSchema(embedding: boolean): string {
  return `
CREATE TABLE docs (
  doc_id bigint PRIMARY KEY,
  title text NOT NULL,
  body text NOT NULL,
  search tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce(title, '') || ' ' || body)) STORED
);
CREATE TABLE chunks (
  chunk_id bigint PRIMARY KEY,
  doc_id bigint NOT NULL REFERENCES docs (doc_id),
  content text NOT NULL${embedding ? ",\n  embedding vector(1536) NOT NULL" : ""}
);
${embedding ? "CREATE INDEX chunks_embedding_idx ON chunks USING hnsw (embedding vector_cosine_ops) WITH (m = 16);" : ""}
CREATE INDEX chunks_content_idx ON chunks USING gin (to_tsvector('english', content));
`;
}

const NOW = "2026-01-01T00:00:00.000Z";

/** The import of the schema as a DDL file (the other view). */
async function importDdl(ddl: string): Promise<ImportResult> {
  const file = join(mkdtempSync(join(tmpdir(), "import-search-ddl-")), "schema.sql");
  writeFileSync(file, ddl);
  return importDatabase(file, {
    dialect: "postgresql",
    readFile: (path) => readFile(path, "utf8"),
    now: NOW,
  });
}

/** What the two views must agree on: the entities (in name order) and the relationships. */
function structureOf(draft: DraftWorkload) {
  return {
    entities: [...draft.entities].sort((a, b) => a.name.localeCompare(b.name)),
    relationships: draft.relationships,
  };
}

/** The search facts of a record (vector and fullText fields of attributes): path and value. */
function searchFacts(record: { facts: readonly { path: readonly string[]; value: unknown }[] }) {
  return record.facts
    .filter((f) => f.path.includes("vector") || f.path.includes("fullText"))
    .map((f) => `${f.path.join("/")} = ${String(f.value)}`)
    .sort();
}

/** Runs the built CLI without blocking this process (which serves the database it connects to). */
async function runCli(
  args: readonly string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
  child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
  const status = await new Promise<number | null>((done) => child.on("close", done));
  return { status, stdout, stderr };
}

describe("pgvector and text search read from a live server (PGlite with vector, over the wire protocol)", () => {
  let db: PGlite;
  let server: PGLiteSocketServer;
  let url: string;

  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector } });
    await db.exec(`CREATE EXTENSION vector;\n${searchSchema(true)}`);
    server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1" });
    await server.start();
    // host:port, the port the system gave (port 0 asks for a free one)
    url = `postgres://postgres@${server.getServerConn()}/postgres`;
  });

  afterAll(async () => {
    await server?.stop();
    await db?.close();
  });

  it("drafts through the built CLI the same workload as the DDL file: vector(1536) cosine from the hnsw index, fullText en-US from the GIN index and the generated column", async () => {
    const dir = mkdtempSync(join(tmpdir(), "import-search-live-"));
    const result = await runCli(["import", url, "--out", dir, "--json"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const record = JSON.parse(result.stdout) as {
      facts: { path: string[]; value: unknown }[];
      notes: string[];
    };
    const live = (await openSession(dir)).state.workload;
    const ddl = await importDdl(searchSchema(true));

    expect(structureOf(live)).toEqual(structureOf(ddl.draft));
    expect(searchFacts(record)).toEqual(searchFacts(ddl.record));
    // what the two agree on, stated: not two views of nothing
    const chunk = live.entities.find((e) => e.name === "Chunk");
    expect(chunk?.attributes.find((a) => a.name === "embedding")).toMatchObject({
      type: "array",
      vector: { dimensions: 1536, dataType: "float32", distance: "cosine" },
    });
    expect(chunk?.attributes.find((a) => a.name === "content")?.fullText).toEqual({ language: "en-US" });
    const doc = live.entities.find((e) => e.name === "Doc");
    expect(doc?.attributes.filter((a) => a.fullText !== undefined).map((a) => a.name)).toEqual([
      "title",
      "body",
    ]);
    // the source of each fact is the server's own definition of the index
    expect(record.notes).toContainEqual(
      expect.stringMatching(
        /chunks\.embedding vector\(1536\) -> a vector of 1536 float32 dimensions, distance cosine from index chunks_embedding_idx CREATE INDEX chunks_embedding_idx ON public\.chunks USING hnsw/,
      ),
    );
  });
});

/** Searches the application runs, with their calls: pg_stat_statements records them. */
const TEXT_QUERIES = [
  [
    "SELECT doc_id, title FROM docs WHERE search @@ websearch_to_tsquery('english', $1) ORDER BY ts_rank(search, websearch_to_tsquery('english', $1)) DESC LIMIT 10",
    30,
    ["red shoes"],
  ],
  [
    "SELECT chunk_id, content FROM chunks WHERE doc_id = $1 AND to_tsvector('english', content) @@ plainto_tsquery('english', $2) LIMIT 5",
    20,
    [1, "return"],
  ],
] as const;

describe.skipIf(bin === undefined)("text search read from a live PostgreSQL 15 server", () => {
  let server: PostgresServer;
  let live: ImportResult;

  beforeAll(async () => {
    server = await startPostgres(bin ?? "");
    const client = await createDatabase(server, "search", [searchSchema(false)]);
    // no rows: a count is a live fact the DDL file cannot give, and the views must agree
    await client.query("SELECT pg_stat_statements_reset()");
    for (const [sql, calls, args] of TEXT_QUERIES)
      for (let i = 0; i < calls; i++) await client.query(sql, [...args]);
    await client.end();
    live = await importDatabase(server.adminUrl("search"), {
      readFile: () => Promise.reject(new Error("no file")),
      now: NOW,
    });
  }, 300_000);

  afterAll(() => server?.stop());

  it("reads the GIN index on to_tsvector and the generated tsvector column as the DDL file does", async () => {
    const ddl = await importDdl(searchSchema(false));
    expect(structureOf(live.draft)).toEqual(structureOf(ddl.draft));
    expect(searchFacts(live.record)).toEqual(searchFacts(ddl.record));
    expect(searchFacts(live.record)).toEqual([
      "entities/Chunk/attributes/content/fullText/language = en-US",
      "entities/Doc/attributes/body/fullText/language = en-US",
      "entities/Doc/attributes/title/fullText/language = en-US",
    ]);
    expect(live.record.notes).toContainEqual(
      expect.stringContaining(
        "docs.title is searched by full text: generated column search tsvector of docs; the english configuration -> language en-US",
      ),
    );
  });

  it("drafts the searches pg_stat_statements recorded as full-text search reads, k assumed where it replaced the LIMIT", () => {
    const reads = live.draft.accessPatterns.filter((p) => p.search !== undefined);
    expect(reads.map((p) => [p.entity, p.where, p.search])).toEqual([
      ["Doc", undefined, { fullText: "title", k: 10 }],
      ["Chunk", { docId: "eq" }, { fullText: "content", k: 10 }],
    ]);
    const notes = live.record.facts
      .filter((f) => f.path[0] === "accessPatterns" && f.path[2] === "name")
      .map((f) => f.source)
      .join("\n");
    expect(notes).toContain("ORDER BY ts_rank(...): the matches ranked by relevance");
    expect(notes).toContain("keeps the matches without ranking them");
    expect(notes).toContain("LIMIT $n: pg_stat_statements does not keep the value; k = 10 is assumed");
  });
});
