/**
 * MCP tool `import-database`: drafts the session's workload from an existing database (a
 * PostgreSQL connection URL) or a DDL file inside the session folder, as `cosmos-modeler import`.
 */
import { z } from "zod";
import { confinePath } from "../../files/confine.js";
import { DDL_INPUT, readInputFile } from "../../files/io.js";
import { connectionRefusal, importDatabase } from "../../import/import-database.js";
import { checkConnectionAllowed, isConnectionUrl } from "../../import/postgres/connection-url.js";
import { SQL_DIALECTS } from "../../import/snapshot/snapshot.js";
import { formatFieldPath } from "../../session/import-record.js";
import { SessionExistsError, startImportedSession } from "../../session-store/import-session.js";
import { failure, success } from "../support/results.js";
import { defineTool } from "../support/tool-definition.js";

const inputSchema = {
  source: z
    .string()
    .min(1)
    .max(4096)
    .describe(
      "postgres://user@host:port/database of a server the user allowed (cosmos-modeler mcp --allow-database host:port; the password from the server's PGPASSWORD or ~/.pgpass), or a DDL file (a path inside the session folder)",
    ),
  dialect: z.enum(SQL_DIALECTS).optional().describe("SQL dialect of a DDL file (default: recognised)"),
  replace: z
    .boolean()
    .default(false)
    .describe("replace the session already in the folder (its answers are lost: ask the user)"),
};

const outputSchema = {
  summary: z.object({
    entities: z.number(),
    relationships: z.number(),
    accessPatterns: z.number(),
    statementsRead: z.number(),
    statementsIgnored: z.number(),
    unmapped: z.number(),
  }),
  filesUpdated: z.array(z.string()),
  notes: z.array(z.string()),
  unmapped: z.array(z.object({ kind: z.string(), name: z.string(), detail: z.string(), reason: z.string() })),
  openItems: z.array(z.string()),
};

export const importDatabaseTool = defineTool({
  name: "import-database",
  title: "Import an existing database",
  description:
    "Starts the session from an existing relational database: a PostgreSQL connection URL (catalog, statistics and pg_stat_statements, read-only) or a DDL file in the session folder (PostgreSQL, MySQL, SQL Server). Writes workload.yaml and cosmosdb_requirements.md with the source of every imported number; peaks are never imported, get-next-questions asks them.",
  inputSchema,
  outputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  worker: true,
  async run({ dir, config }, args) {
    // A DDL file is confined like every path argument; a connection URL only to the database
    // servers the user allowed when starting the server (no connection, no password, elsewhere).
    // A connection of another kind (mysql://, host=... password=...) or a malformed URL is
    // refused with its password masked, never resolved as a path and echoed.
    const refusal = connectionRefusal(args.source);
    if (refusal !== undefined) return failure(`${refusal.code}: ${refusal.message}`);
    if (isConnectionUrl(args.source)) {
      const allowed = checkConnectionAllowed(args.source, config.allowedDatabases, process.env);
      if (!allowed.ok) return failure(`import.notAllowed: ${allowed.reason}`);
    }
    const source = isConnectionUrl(args.source)
      ? args.source
      : await confinePath(dir, args.source, "read", "source");
    const result = await importDatabase(source, {
      ...(args.dialect === undefined ? {} : { dialect: args.dialect }),
      readFile: (path) => readInputFile(path, DDL_INPUT),
      now: new Date().toISOString(),
    });
    const saved = await startImportedSession(dir, result.draft, result.record, {
      replace: args.replace,
      replaceHint: "Ask the user, then call import-database with replace: true",
    }).catch((error: unknown) => {
      if (error instanceof SessionExistsError) return error;
      throw error;
    });
    if (saved instanceof SessionExistsError) return failure(saved.message);
    const s = result.summary;
    const text = [
      `Imported ${result.record.source}: ${s.entities} entities, ${s.relationships} relationships, ${s.accessPatterns} access patterns. Peaks and what the database cannot tell are asked next (get-next-questions).`,
      ...result.record.notes,
      ...(result.record.unmapped.length === 0
        ? []
        : [
            "Not imported (show these to the user):",
            ...result.record.unmapped.map((u) => `- ${u.kind} ${u.name}: ${u.reason}`),
          ]),
      `Imported values and their sources: ${result.record.facts.length} (in cosmosdb_requirements.md), e.g. ${result.record.facts
        .slice(0, 3)
        .map((f) => `${formatFieldPath(f.path)} = ${String(f.value)} (${f.source})`)
        .join("; ")}`,
    ].join("\n");
    return success(text, {
      summary: result.summary,
      filesUpdated: [...saved.filesUpdated],
      notes: [...result.record.notes],
      unmapped: result.record.unmapped.map((u) => ({ ...u })),
      openItems: [...saved.readiness.reasons],
    });
  },
});
