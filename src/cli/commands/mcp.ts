/**
 * `cosmos-modeler mcp [--dir DIR]`: the MCP server on standard input and output. The session
 * lives in DIR (default: the folder the client starts the server in). Nothing but the protocol
 * is written to standard output.
 */
import { resolve } from "node:path";
import { parseAllowedDatabases } from "../../import/postgres/connection-url.js";
import type { CommandRegistration } from "../support/command.js";
import { UsageError } from "../support/usage-error.js";

export const register: CommandRegistration = (program) => {
  program
    .command("mcp")
    .description("MCP server on stdio: the modeling interview and the tools for an AI assistant")
    .option("--dir <dir>", "session folder (workload.yaml, cosmosdb_requirements.md, .cosmos-modeler/)", ".")
    .option(
      "--allow-database <host[:port]>",
      "a PostgreSQL server import-database may connect to (repeatable; also COSMOS_MODELER_ALLOW_DATABASES, comma-separated); none by default",
      (value: string, previous: readonly string[]) => [...previous, value],
      [] as readonly string[],
    )
    .action(async (options: { dir: string; allowDatabase: readonly string[] }) => {
      let allowedDatabases;
      try {
        allowedDatabases = parseAllowedDatabases(
          [...options.allowDatabase, process.env.COSMOS_MODELER_ALLOW_DATABASES ?? ""].join(","),
        );
      } catch (error) {
        throw new UsageError(`--allow-database: ${(error as Error).message}`);
      }
      const { runStdioServer } = await import("../../mcp/server.js");
      await runStdioServer({ dir: resolve(options.dir), allowedDatabases });
    });
};
