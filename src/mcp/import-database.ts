/**
 * MCP tool `import-database`: drafts the session's workload from an existing database (a
 * PostgreSQL connection URL) or a DDL file inside the session folder, as `cosmos-modeler import`.
 */
import { realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { readInputFile } from "../files/io.js";
import { CosmosModelerError } from "../common/errors.js";
import { importDatabase } from "../import/import-database.js";
import { isConnectionUrl } from "../import/postgres/connection-url.js";
import { SQL_DIALECTS } from "../import/snapshot.js";
import { formatFieldPath } from "../session/import-record.js";
import { startImportedSession } from "../session-store/import-session.js";
import { failure, success } from "./results.js";

export const importDatabaseInput = {
  source: z
    .string()
    .min(1)
    .describe(
      "postgres://user@host:port/database (password from the server's PGPASSWORD or ~/.pgpass), or a DDL file relative to the session folder",
    ),
  dialect: z.enum(SQL_DIALECTS).optional().describe("SQL dialect of a DDL file (default: recognised)"),
  replace: z
    .boolean()
    .default(false)
    .describe("replace the session already in the folder (its answers are lost: ask the user)"),
};

export const importDatabaseOutput = {
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

/** A file path inside the session folder, after following symbolic links. */
async function fileInside(dir: string, path: string): Promise<string> {
  const root = await realpath(dir);
  const full = await realpath(resolve(dir, path)).catch((cause: unknown) => {
    throw new CosmosModelerError(
      "mcp.fileNotFound",
      `${path}: cannot read the file (${cause instanceof Error ? cause.message : String(cause)})`,
    );
  });
  const rel = relative(root, full);
  if (rel.startsWith("..") || isAbsolute(rel))
    throw new CosmosModelerError("mcp.outsideSession", `${path} is outside the session folder ${dir}`);
  return full;
}

/** `import-database`: the import into the session folder `dir`. */
export async function importDatabaseTool(
  dir: string,
  args: { source: string; dialect?: (typeof SQL_DIALECTS)[number] | undefined; replace: boolean },
): Promise<CallToolResult> {
  const result = await importDatabase(
    isConnectionUrl(args.source) ? args.source : await fileInside(dir, args.source),
    {
      ...(args.dialect === undefined ? {} : { dialect: args.dialect }),
      readFile: readInputFile,
      now: new Date().toISOString(),
    },
  );
  const saved = await startImportedSession(dir, result.draft, result.record, {
    replace: args.replace,
    replaceHint: "Ask the user, then call import-database with replace: true",
  }).catch((error: unknown) => {
    if (error instanceof CosmosModelerError && error.code === "import.sessionExists") return error;
    throw error;
  });
  if (saved instanceof CosmosModelerError) return failure(saved.message);
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
}
