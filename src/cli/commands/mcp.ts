/**
 * `cosmos-modeler mcp [--dir DIR]`: the MCP server on standard input and output. The session
 * lives in DIR (default: the folder the client starts the server in). Nothing but the protocol
 * is written to standard output.
 */
import { resolve } from "node:path";
import type { CommandRegistration } from "../support/command.js";

export const register: CommandRegistration = (program) => {
  program
    .command("mcp")
    .description("MCP server on stdio: the modeling interview and the tools for an AI assistant")
    .option("--dir <dir>", "session folder (workload.yaml, cosmosdb_requirements.md, .cosmos-modeler/)", ".")
    .action(async (options: { dir: string }) => {
      const { runStdioServer } = await import("../../mcp/server.js");
      await runStdioServer({ dir: resolve(options.dir) });
    });
};
