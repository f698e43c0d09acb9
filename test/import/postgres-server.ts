/**
 * A throwaway PostgreSQL server for the import tests: initdb in a temporary folder, started with
 * pg_stat_statements on a free port of 127.0.0.1, stopped and removed afterwards. Uses Debian's
 * `postgresql` package (/usr/lib/postgresql/<version>/bin, installed by .ci/run). PostgreSQL
 * refuses to run as root, so as root the server runs as the `postgres` user (or `nobody`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** The newest installed server's bin folder, or undefined (the tests then skip, saying why). */
export function findPostgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")) && existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  const newest = versions[0];
  return newest === undefined ? undefined : join(root, newest, "bin");
}

export const POSTGRES_MISSING =
  "PostgreSQL server binaries not found in /usr/lib/postgresql/*/bin: install Debian's postgresql package (apt-get install postgresql), as .ci/run does";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

export interface PostgresServer {
  readonly port: number;
  /** The superuser's URL (password included: tests only). */
  readonly adminUrl: (database: string) => string;
  readonly password: string;
  stop(): void;
}

/** Starts a server; `stop()` ends it and removes its folder. */
/**
 * The PostgreSQL binaries for a test file, or undefined (the file's tests skip, saying so). CI
 * installs PostgreSQL (.ci/run sets COSMOS_MODELER_CI=1): there the tests never skip.
 */
export function postgresBinForTests(tests: string): string | undefined {
  const bin = findPostgresBin();
  if (bin === undefined) {
    if (process.env["COSMOS_MODELER_CI"] === "1")
      throw new Error(`the import tests must run in CI: ${POSTGRES_MISSING}`);
    console.warn(`${tests} tests skipped: ${POSTGRES_MISSING}`);
  }
  return bin;
}

export async function startPostgres(bin: string): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-pg-"));
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const asRoot = userInfo().uid === 0;
  const runAs = asRoot
    ? spawnSync("id", ["-u", "postgres"]).status === 0
      ? "postgres"
      : "nobody"
    : undefined;
  if (runAs !== undefined) {
    const uid = Number(execFileSync("id", ["-u", runAs], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", runAs], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const pwfile = join(dir, "pwfile");
  writeFileSync(pwfile, `${password}\n`);
  if (runAs !== undefined)
    chownSync(pwfile, Number(execFileSync("id", ["-u", runAs], { encoding: "utf8" }).trim()), 0);
  const run = (program: string, args: readonly string[]) => {
    const [command, all] =
      runAs === undefined
        ? [join(bin, program), args]
        : ["runuser", ["-u", runAs, "--", join(bin, program), ...args]];
    const result = spawnSync(command, [...all], { encoding: "utf8", timeout: 120_000 });
    if (result.status !== 0)
      throw new Error(`${program} failed (${result.status}): ${result.stderr}${result.stdout}`);
  };
  const data = join(dir, "data");
  run("initdb", [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth-local=trust",
    "--auth-host=scram-sha-256",
    `--pwfile=${pwfile}`,
    "-E",
    "UTF8",
    "--locale=C",
  ]);
  const port = await freePort();
  run("pg_ctl", [
    "-D",
    data,
    "-l",
    join(dir, "server.log"),
    "-w",
    "-t",
    "60",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c shared_preload_libraries=pg_stat_statements -c fsync=off -c max_connections=20`,
    "start",
  ]);
  return {
    port,
    password,
    adminUrl: (database) =>
      `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Creates database `name` on `server`, runs `sql` (schema, then data) in it and enables
 * pg_stat_statements; returns a connected admin client of the new database (the caller ends it).
 */
export async function createDatabase(
  server: PostgresServer,
  name: string,
  sql: readonly string[],
): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: server.adminUrl("postgres") });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const client = new pg.Client({ connectionString: server.adminUrl(name) });
  await client.connect();
  for (const text of sql) await client.query(text);
  // a dump's session settings (pg_dump empties search_path) must not reach the caller's queries
  await client.query("RESET ALL");
  await client.query("CREATE EXTENSION pg_stat_statements");
  return client;
}
