/**
 * The cosmos-modeler MCP server (`cosmos-modeler mcp`, or `import ... from "cosmos-modeler/mcp"`):
 * verb-first tools over the modeling session kept in a working folder, the
 * `cosmos-data-modeling` prompt that tells an assistant how to run the interview with them, and
 * the bundled examples as resources. Tools return text plus structured content; domain failures
 * are `isError` results the assistant can read and act on.
 *
 * An assistant's tool calls cannot be turned against the user: every path argument (and the
 * session's own files) must resolve inside the session folder after following links, messages
 * are size-limited and malformed ones answered (`stdio-transport.ts`), and long tools run in a
 * worker thread, so `ping` and cancellations are answered while they work (`run-in-worker.ts`).
 */
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { CosmosModelerError } from "../common/errors.js";
import { confinePath, realLocation } from "../files/confine.js";
import {
  DATA_MODEL_FILE,
  REQUIREMENTS_FILE,
  SESSION_DIR,
  SESSION_FILE,
  WORKLOAD_FILE,
} from "../session-store/session-files.js";
import { modelingPromptText } from "./prompt.js";
import { failure } from "./support/results.js";
import { runInWorker } from "./run-in-worker.js";
import { BoundedStdioTransport } from "./stdio-transport.js";
import type { AllowedDatabase } from "../import/postgres/connection-url.js";
import type { ReportProgress, ServerConfig, ToolDefinition } from "./support/tool-definition.js";
import { TOOLS } from "./tools/index.js";

export interface ServerOptions {
  /** The session folder: workload.yaml, cosmosdb_requirements.md, .cosmos-modeler/. */
  readonly dir: string;
  /** Folder of the bundled examples (default: the package's `examples/`). */
  readonly examplesDir?: string;
  /**
   * Database servers import-database may connect to with a connection URL (default none: an
   * assistant cannot make the server connect anywhere, nor send it a password from the
   * environment, unless the user allowed that server).
   */
  readonly allowedDatabases?: readonly AllowedDatabase[];
}

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Server name and version as announced to clients. */
export const SERVER_INFO = { name: "cosmos-modeler", version: "0.1.0" } as const;

/** The session's own files: none of them may be a link that leads out of the session folder. */
const SESSION_FILES = [
  WORKLOAD_FILE,
  REQUIREMENTS_FILE,
  DATA_MODEL_FILE,
  SESSION_DIR,
  join(SESSION_DIR, SESSION_FILE),
] as const;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Builds the MCP server for the session in `options.dir` (not yet connected to a transport).
 * @example await createCosmosModelerServer({ dir: process.cwd() }).connect(new BoundedStdioTransport())
 */
export async function createCosmosModelerServer(options: ServerOptions): Promise<McpServer> {
  const dir = resolve(options.dir);
  const config: ServerConfig = { allowedDatabases: options.allowedDatabases ?? [] };
  const server = new McpServer(SERVER_INFO, {
    instructions:
      "Designs Azure Cosmos DB for NoSQL data models. Use the cosmos-data-modeling prompt for the interview workflow: " +
      "get-next-questions, then update-requirements after every answer; never invent request rates.",
  });
  // Tools that write run one at a time (they read and write the session files).
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = (signal: AbortSignal, run: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    const next = queue.then(() => {
      if (signal.aborted) throw new CosmosModelerError("mcp.cancelled", "cancelled before it started");
      return run();
    });
    queue = next.catch(() => undefined);
    return next;
  };
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: tool.annotations,
      },
      (args: Record<string, unknown>, extra: Extra) => {
        const run = (): Promise<CallToolResult> => callTool(dir, config, tool, args, extra);
        return tool.annotations.readOnlyHint ? run() : serialized(extra.signal, run);
      },
    );
  }

  server.registerPrompt(
    "cosmos-data-modeling",
    {
      title: "Azure Cosmos DB data modeling interview",
      description:
        "How to run the modeling interview with the cosmos-modeler tools, from requirements to cosmosdb_data_model.md.",
      argsSchema: {
        application: z.string().optional().describe("what the application does, in the user's words"),
      },
    },
    ({ application }) => ({
      messages: [{ role: "user", content: { type: "text", text: modelingPromptText(dir, application) } }],
    }),
  );

  registerSessionFiles(server, dir);
  await registerExamples(server, options.examplesDir ?? join(PACKAGE_ROOT, "examples"));
  await registerDocs(server, join(PACKAGE_ROOT, "docs"));
  return server;
}

/**
 * Runs one tool call: the session's files and every path argument are confined to the session
 * folder first (a refusal names the path, never the content of a file), then the tool runs,
 * in a worker thread when it is long, with its progress sent when the client asked for it.
 */
async function callTool(
  dir: string,
  config: ServerConfig,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  extra: Extra,
): Promise<CallToolResult> {
  const confined: Record<string, unknown> = { ...args };
  const displayed: Record<string, string> = {};
  try {
    for (const name of SESSION_FILES) await confinePath(dir, name, "write", name);
    for (const [name, access] of Object.entries(tool.paths ?? {})) {
      const given = args[name];
      if (typeof given !== "string" || access === undefined) continue;
      const real = await confinePath(dir, given, access, name);
      confined[name] = real;
      displayed[real] = given;
    }
  } catch (error) {
    if (error instanceof CosmosModelerError) return failure(`${error.code}: ${error.message}`);
    throw error;
  }
  const realDir = await realLocation(dir);
  const display = (path: string): string => displayed[path] ?? relative(realDir, path);
  const progress = progressReporter(extra);
  try {
    if (tool.worker === true) {
      return await runInWorker(
        { tool: tool.name, dir, args: confined, displayed, config },
        { signal: extra.signal, onProgress: progress },
      );
    }
    return await tool.run({ dir, config, display, progress }, confined as never);
  } catch (error) {
    if (error instanceof CosmosModelerError && error.code !== "mcp.cancelled")
      return failure(`${error.code}: ${error.message}`);
    throw error;
  }
}

/**
 * Progress notifications for a request whose client sent a progress token (MCP: progress only
 * ever increases); a no-op otherwise.
 */
function progressReporter(extra: Extra): ReportProgress {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => undefined;
  let last = -1;
  return (done, total, message) => {
    if (done <= last || extra.signal.aborted) return;
    last = done;
    void extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: done, ...(total === undefined ? {} : { total }), message },
      })
      .catch(() => undefined);
  };
}

/** The session's two working files as resources, read when asked (they change every turn). */
function registerSessionFiles(server: McpServer, dir: string): void {
  const files = [
    {
      name: REQUIREMENTS_FILE,
      mimeType: "text/markdown",
      description: "The requirements document, rewritten after every answer",
    },
    {
      name: WORKLOAD_FILE,
      mimeType: "application/yaml",
      description: "The workload being built, in the workload file format",
    },
  ];
  for (const file of files) {
    const uri = `cosmos-modeler://session/${file.name}`;
    server.registerResource(
      `session-${file.name.replace(/\.[^.]+$/, "")}`,
      uri,
      { title: `Session: ${file.name}`, description: file.description, mimeType: file.mimeType },
      async () => {
        const text = await confinePath(dir, file.name, "read", file.name)
          .then((path) => readFile(path, "utf8"))
          .catch(() => undefined);
        return {
          contents: [
            {
              uri,
              mimeType: file.mimeType,
              text:
                text ?? `${file.name} does not exist yet: answer the first questions (get-next-questions).`,
            },
          ],
        };
      },
    );
  }
}

/** Registers each example file as a resource `cosmos-modeler://examples/<name>/<file>`. */
async function registerExamples(server: McpServer, examplesDir: string): Promise<void> {
  const folders = await readdir(examplesDir, { withFileTypes: true }).catch(() => []);
  for (const folder of folders
    .filter((entry) => entry.isDirectory())
    .sort((a, b) => a.name.localeCompare(b.name))) {
    const files = await readdir(join(examplesDir, folder.name)).catch(() => []);
    for (const file of files.filter((name) => /\.(ya?ml|md)$/.test(name)).sort()) {
      const uri = `cosmos-modeler://examples/${folder.name}/${file}`;
      const mimeType = file.endsWith(".md") ? "text/markdown" : "application/yaml";
      server.registerResource(
        `example-${folder.name}-${file.replace(/\.[^.]+$/, "")}`,
        uri,
        {
          title: `Example ${folder.name}: ${file}`,
          description: `The ${folder.name} example's ${file}`,
          mimeType,
        },
        async () => ({
          contents: [{ uri, mimeType, text: await readFile(join(examplesDir, folder.name, file), "utf8") }],
        }),
      );
    }
  }
}

/**
 * Registers each page of the package's documentation as a resource `cosmos-modeler://docs/<file>`
 * (the formats, the JSON output, how the numbers are computed: what tool descriptions cite).
 */
async function registerDocs(server: McpServer, docsDir: string): Promise<void> {
  const files = await readdir(docsDir).catch(() => []);
  for (const file of files.filter((name) => name.endsWith(".md")).sort()) {
    const uri = `cosmos-modeler://docs/${file}`;
    const text = await readFile(join(docsDir, file), "utf8");
    const title = /^# (.+)$/m.exec(text)?.[1] ?? file;
    server.registerResource(
      `docs-${file.replace(/\.md$/, "")}`,
      uri,
      { title, description: `cosmos-modeler documentation: ${title}`, mimeType: "text/markdown" },
      async () => ({ contents: [{ uri, mimeType: "text/markdown", text }] }),
    );
  }
}

/** Runs the server on standard input and output until the client disconnects. */
export async function runStdioServer(options: ServerOptions): Promise<void> {
  const server = await createCosmosModelerServer(options);
  await server.connect(new BoundedStdioTransport());
}
