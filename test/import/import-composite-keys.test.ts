/**
 * `cosmos-modeler import` of composite primary keys (issue 24) against a real PostgreSQL server
 * started here: `film_actor (film_id, actor_id)` keeps its own column (`role`), so it is an entity
 * whose key is both columns, not a many-to-many link; `film_actor_award` references it by both
 * columns, so its relationship's via is the list of them, in the key's order. The imported
 * workload, with the peaks the interview asks, designs to ids that use both columns and passes
 * verify. Skips (saying why) only when the PostgreSQL server binaries are not installed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChanges } from "../../src/session/apply-changes.js";
import { openSession, saveSession } from "../../src/session-store/session-files.js";
import {
  createDatabase,
  postgresBinForTests,
  startPostgres,
  type PostgresServer,
} from "./postgres-server.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(root, "dist", "cli", "main.js");
const bin = postgresBinForTests("import-composite-keys");

const SCHEMA = `
CREATE TABLE film (
  film_id     integer PRIMARY KEY,
  title       text NOT NULL,
  released_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE actor (
  actor_id integer PRIMARY KEY,
  name     text NOT NULL
);
CREATE TABLE film_actor (
  film_id  integer NOT NULL REFERENCES film (film_id) ON DELETE CASCADE,
  actor_id integer NOT NULL REFERENCES actor (actor_id),
  role     text NOT NULL,
  PRIMARY KEY (film_id, actor_id)
);
CREATE TABLE film_actor_award (
  award_id integer PRIMARY KEY,
  actor_id integer NOT NULL,
  film_id  integer NOT NULL,
  year     integer NOT NULL,
  -- the columns in another order than the key's: the via follows the key, not the table
  FOREIGN KEY (actor_id, film_id) REFERENCES film_actor (actor_id, film_id)
);
`;

/** 200 films with 7 actors each among 60 actors (every pair once), an award for every 10th part. */
const DATA = `
INSERT INTO film SELECT f, 'Film ' || f, now() - (f || ' days')::interval FROM generate_series(1, 200) f;
INSERT INTO actor SELECT a, 'Actor ' || a FROM generate_series(1, 60) a;
INSERT INTO film_actor SELECT f, 1 + ((f * 7 + k) % 60), 'role ' || k FROM generate_series(1, 200) f, generate_series(0, 6) k;
INSERT INTO film_actor_award
  SELECT row_number() OVER (), actor_id, film_id, 2000 + film_id % 20
  FROM film_actor WHERE (film_id + actor_id) % 10 = 0;
`;

const REPLAY = [
  { sql: "SELECT * FROM film_actor WHERE film_id = $1", calls: 70, args: (i: number) => [1 + (i % 200)] },
  { sql: "SELECT * FROM film_actor WHERE actor_id = $1", calls: 30, args: (i: number) => [1 + (i % 60)] },
  {
    sql: "SELECT * FROM film_actor WHERE film_id = $1 AND actor_id = $2",
    calls: 20,
    args: (i: number) => [1 + (i % 200), 1 + (((1 + (i % 200)) * 7) % 60)],
  },
  { sql: "SELECT * FROM film WHERE film_id = $1", calls: 40, args: (i: number) => [1 + (i % 200)] },
  { sql: "SELECT * FROM actor WHERE actor_id = $1", calls: 10, args: (i: number) => [1 + (i % 60)] },
  {
    sql: "SELECT * FROM film_actor_award WHERE film_id = $1 AND actor_id = $2",
    calls: 10,
    args: (i: number) => [1 + (i % 200), 1 + (((1 + (i % 200)) * 7) % 60)],
  },
] as const;

function run(args: readonly string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 300_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(bin === undefined)("import of composite primary keys from PostgreSQL", () => {
  let server: PostgresServer;
  let dir: string;

  beforeAll(async () => {
    if (!existsSync(cli))
      spawnSync(
        process.execPath,
        [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
        { cwd: root },
      );
    server = await startPostgres(bin ?? "");
    const films = await createDatabase(server, "films", [SCHEMA, DATA]);
    await films.query("SELECT pg_stat_statements_reset()");
    for (const statement of REPLAY)
      for (let i = 0; i < statement.calls; i++) await films.query(statement.sql, [...statement.args(i)]);
    await films.query("ANALYZE");
    await films.end();
    dir = mkdtempSync(join(tmpdir(), "import-composite-"));
    const result = run(["import", server.adminUrl("films"), "--out", dir, "--json"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  }, 600_000);

  afterAll(() => server?.stop());

  it("a composite primary key becomes a key of both attributes; its columns keep their statistics", async () => {
    const draft = (await openSession(dir)).state.workload;
    const link = draft.entities.find((e) => e.name === "FilmActor");
    expect(link?.key).toEqual(["filmId", "actorId"]);
    expect(link?.count).toBe(1400);
    // neither column is unique alone: the import keeps each one's distinct values
    expect(link?.attributes.find((a) => a.name === "filmId")?.distinct).toBe(200);
    expect(link?.attributes.find((a) => a.name === "actorId")?.distinct).toBe(60);
    expect(draft.relationships.find((r) => r.parent === "Film" && r.child === "FilmActor")).toMatchObject({
      via: ["filmId"],
      avg: 7,
      owned: true,
    });
  });

  it("a foreign key to the composite key becomes a via of both attributes, in the key's order", async () => {
    const draft = (await openSession(dir)).state.workload;
    const award = draft.relationships.find((r) => r.parent === "FilmActor" && r.child === "FilmActorAward");
    expect(award?.via).toEqual(["filmId", "actorId"]);
    const written = readFileSync(join(dir, "workload.yaml"), "utf8");
    expect(written).toMatch(/FilmActor:\n\s+key: \[ ?filmId, actorId ?\]/);
    expect(written).toMatch(/parent: FilmActor\n\s+child: FilmActorAward\n\s+via: \[ ?filmId, actorId ?\]/);
  });

  it("reads by both key columns are one record each; with the interview's peaks the workload designs to ids of both and passes verify", async () => {
    const opened = await openSession(dir);
    const byBoth = opened.state.workload.accessPatterns.find(
      (p) => p.entity === "FilmActor" && Object.keys(p.where ?? {}).length === 2,
    );
    expect(byBoth?.where).toEqual({ filmId: "eq", actorId: "eq" });
    const changes = opened.state.workload.accessPatterns.map((p) => ({
      kind: "set-rate" as const,
      pattern: p.id,
      peak: (p.rps?.avg ?? 0) * 3,
    }));
    const applied = applyChanges(opened.state, changes);
    expect(applied.ok).toBe(true);
    if (!applied.ok) return;
    await saveSession(dir, applied.value.state, opened.baseline);
    const workload = join(dir, "workload.yaml");
    const check = run(["check", workload]);
    expect(check.stderr).not.toMatch(/^error/m);
    const out = join(dir, "design");
    const design = run(["design", workload, "--out", out]);
    expect(design.stderr).not.toMatch(/^error/m);
    expect(design.status).toBe(0);
    const model = readFileSync(join(out, "model.yaml"), "utf8");
    expect(model).toMatch(/entity: FilmActor[\s\S]*?id: "?[^\n]*\{filmId\}[^\n]*\{actorId\}/);
    const verify = run(["verify", workload, join(out, "model.yaml"), "--json"]);
    const report = JSON.parse(verify.stdout) as {
      load: { status: string; detail?: string };
      patterns: { patternId: string; status: string; detail?: string }[];
    };
    expect(report.load).toEqual({ status: "passed" });
    expect(report.patterns.filter((p) => p.status !== "passed")).toEqual([]);
  }, 300_000);
});
