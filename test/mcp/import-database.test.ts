/**
 * `import-database` over MCP, with the built server and the SDK's client: a DDL file inside the
 * session folder becomes the session's draft; a PostgreSQL URL is imported only from a server the
 * user allowed when starting the MCP server (`--allow-database`), and a URL to any other server,
 * or one whose parameters would move the connection or read files, is refused before anything
 * connects, so a password from the server's environment (PGPASSWORD) goes nowhere else. The URL
 * import runs against a throwaway PostgreSQL server (skipped, saying why, without the binaries).
 */
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import pg from "pg";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresBinForTests, startPostgres, type PostgresServer } from "../import/postgres-server.js";
import { cli, ensureBuilt, root } from "../interview/terminal.js";

const bin = postgresBinForTests("import-database URL");

async function connect(
  dir: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: "cosmos-modeler-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli, "mcp", "--dir", dir, ...args],
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: "pipe",
    }),
  );
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
  })) as CallToolResult;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

/** A TCP server that only counts who connects to it (a database server nobody allowed). */
async function listener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return { server, port, connections: () => connections };
}

beforeAll(() => ensureBuilt("mcp/server.js"));

describe("import-database over MCP", () => {
  it("drafts the session from a DDL file inside the session folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-mcp-ddl-"));
    copyFileSync(join(root, "examples", "online-shop", "schema.sql"), join(dir, "schema.sql"));
    const client = await connect(dir);
    try {
      const result = await call(client, "import-database", { source: "schema.sql" });
      expect(result.isError, text(result)).toBeFalsy();
      const data = result.structuredContent as {
        summary: { entities: number; relationships: number; accessPatterns: number };
        filesUpdated: string[];
        unmapped: { kind: string; name: string }[];
      };
      const workload = parse(readFileSync(join(dir, "workload.yaml"), "utf8")) as {
        entities: Record<string, { key: string }>;
        relationships?: unknown[];
      };
      expect(Object.keys(workload.entities)).toHaveLength(data.summary.entities);
      expect(workload.entities.Customer?.key).toBe("customerId");
      expect(workload.entities.Order?.key).toBe("orderId");
      expect(workload.relationships ?? []).toHaveLength(data.summary.relationships);
      // a DDL file has no statistics: no access patterns, and the trigger is listed, not dropped
      expect(data.summary.accessPatterns).toBe(0);
      expect(data.unmapped.map((u) => u.kind)).toContain("trigger");
      expect(data.filesUpdated).toEqual(
        expect.arrayContaining(["workload.yaml", "cosmosdb_requirements.md"]),
      );
      // the interview continues from the draft
      const next = await call(client, "get-next-questions");
      expect((next.structuredContent as { questions: unknown[] }).questions.length).toBeGreaterThan(0);
      // a second import does not replace the session without being told to
      const again = await call(client, "import-database", { source: "schema.sql" });
      expect(again.isError).toBe(true);
      expect(text(again)).toContain("replace: true");
    } finally {
      await client.close();
    }
  });

  it("refuses a URL to a server the user did not allow, before connecting, with the environment's password unsent", async () => {
    const decoy = await listener();
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-mcp-url-"));
    const client = await connect(dir, ["--allow-database", "db.example.com:5432"], {
      PGPASSWORD: "env-secret-5512",
    });
    try {
      for (const source of [
        `postgres://app@127.0.0.1:${decoy.port}/shop`,
        // the allowed host in the URL, moved elsewhere by a parameter
        `postgres://app@db.example.com:5432/shop?host=127.0.0.1&port=${decoy.port}`,
        // a parameter that makes the client read a file
        "postgres://app@db.example.com:5432/shop?sslrootcert=/etc/passwd",
        // no host: the environment's PGHOST would decide
        "postgres:///shop",
      ]) {
        const result = await call(client, "import-database", { source });
        expect(result.isError, source).toBe(true);
        expect(text(result)).toContain("is refused");
        expect(text(result)).not.toContain("env-secret-5512");
        expect(text(result)).not.toContain("root:");
      }
      const refused = text(
        await call(client, "import-database", { source: `postgres://app@127.0.0.1:${decoy.port}/shop` }),
      );
      expect(refused).toContain(`127.0.0.1:${decoy.port} is not a database server the user allowed`);
      expect(refused).toContain(`--allow-database 127.0.0.1:${decoy.port}`);
      expect(refused).toContain("Allowed: db.example.com:5432");
      // nothing connected to the decoy, so no password was sent to it
      expect(decoy.connections()).toBe(0);
    } finally {
      await client.close();
      decoy.server.close();
    }
  });

  describe.skipIf(bin === undefined)("from a live PostgreSQL server the user allowed", () => {
    let server: PostgresServer;

    beforeAll(async () => {
      server = await startPostgres(bin ?? "");
      const admin = new pg.Client({ connectionString: server.adminUrl("postgres") });
      await admin.connect();
      await admin.query("CREATE DATABASE shop");
      await admin.end();
      const shop = new pg.Client({ connectionString: server.adminUrl("shop") });
      await shop.connect();
      await shop.query(readFileSync(join(root, "examples", "online-shop", "schema.sql"), "utf8"));
      await shop.query(readFileSync(join(root, "test", "import", "fixtures", "shop-data.sql"), "utf8"));
      await shop.query("ANALYZE");
      await shop.end();
    }, 180_000);

    afterAll(() => server?.stop());

    it("imports the structure and the row counts, with the password from the server's environment", async () => {
      const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-mcp-pg-"));
      const client = await connect(dir, ["--allow-database", `127.0.0.1:${server.port}`], {
        PGPASSWORD: server.password,
      });
      try {
        const result = await call(client, "import-database", {
          source: `postgres://postgres@127.0.0.1:${server.port}/shop`,
        });
        expect(result.isError, text(result)).toBeFalsy();
        expect(text(result)).not.toContain(server.password);
        const workload = parse(readFileSync(join(dir, "workload.yaml"), "utf8")) as {
          entities: Record<string, { key: string; count?: number }>;
        };
        // the row counts of the loaded data, from the statistics
        const shop = new pg.Client({ connectionString: server.adminUrl("shop") });
        await shop.connect();
        const customers = Number((await shop.query("SELECT count(*) AS n FROM customers")).rows[0]?.n);
        await shop.end();
        expect(workload.entities.Customer?.key).toBe("customerId");
        expect(workload.entities.Customer?.count).toBe(customers);
        expect(readFileSync(join(dir, "cosmosdb_requirements.md"), "utf8")).not.toContain(server.password);
      } finally {
        await client.close();
      }
    }, 180_000);
  });
});
