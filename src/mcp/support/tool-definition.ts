/**
 * What an MCP tool of this server is: its name, description, schemas and annotations, which of
 * its arguments are paths (confined to the session folder before the tool runs), whether it runs
 * in a worker thread (long work: the request loop keeps answering `ping` and cancellations), and
 * its handler. One tool, one file (`tools/<name>.ts`); `tools/index.ts` lists them.
 */
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { PathAccess } from "../../files/confine.js";
import type { AllowedDatabase } from "../../import/postgres/connection-url.js";

/** Progress of a long tool: `done` of `total` steps (total unknown: undefined), and what it is doing. */
export type ReportProgress = (done: number, total: number | undefined, message: string) => void;

/** What the user configured when starting the server (never what an assistant sends). */
export interface ServerConfig {
  /** Database servers import-database may connect to (`--allow-database`). */
  readonly allowedDatabases: readonly AllowedDatabase[];
}

/** What a handler gets besides its arguments. */
export interface ToolContext {
  readonly config: ServerConfig;
  /** The session folder (absolute, as given to the server). */
  readonly dir: string;
  /** Reports progress; sent to the client as MCP progress notifications when it asked for them. */
  readonly progress: ReportProgress;
  /** A confined path as the user knows it: relative to the session folder. */
  readonly display: (path: string) => string;
}

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Shape;
  readonly outputSchema: z.ZodRawShape;
  readonly annotations: ToolAnnotations & { readonly readOnlyHint: boolean };
  /**
   * Arguments that name files or folders, and whether the tool reads or writes them. Each is
   * resolved inside the session folder after following links, or the call is refused, before
   * the handler runs: the handler receives the real absolute path.
   */
  readonly paths?: { readonly [K in keyof Shape]?: PathAccess };
  /** Runs in a worker thread: for work that can take seconds (design, evaluation, verification). */
  readonly worker?: boolean;
  readonly run: (
    context: ToolContext,
    args: z.infer<z.ZodObject<Shape>>,
  ) => Promise<CallToolResult> | CallToolResult;
}

/** Declares a tool (keeps the argument types of `run` tied to `inputSchema`). */
export function defineTool<Shape extends z.ZodRawShape>(definition: ToolDefinition<Shape>): ToolDefinition {
  return definition as unknown as ToolDefinition;
}

/** A path argument: text relative to the session folder (the description says so, for the assistant). */
export function sessionPath(description: string): z.ZodString {
  return z.string().min(1).max(4096).describe(`${description} (a path inside the session folder)`);
}

/** Annotations of a tool that only reads. */
export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;
