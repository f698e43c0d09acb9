/**
 * The cosmos-modeler MCP server (`cosmos-modeler mcp`, or `import ... from "cosmos-modeler/mcp"`):
 * verb-first tools over the modeling session kept in a working folder, the
 * `cosmos-data-modeling` prompt that tells an assistant how to run the interview with them, and
 * the bundled examples as resources. Tools return text plus structured content; domain failures
 * are `isError` results the assistant can read and act on.
 */
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { CosmosModelerError } from "../common/errors.js";
import { REQUIREMENTS_FILE, WORKLOAD_FILE } from "../session-store/session-files.js";
import {
  checkWorkload,
  checkWorkloadInput,
  checkWorkloadOutput,
  estimateRequestChargeInput,
  estimateRequestChargeOutput,
  estimateRequestCharges,
  renderArtifacts,
  renderArtifactsInput,
  renderArtifactsOutput,
} from "./file-tools.js";
import {
  designModelInput,
  designModelOutput,
  designModelTool,
  evaluateModelInput,
  evaluateModelOutput,
  evaluateModelTool,
  writeDataModelInput,
  writeDataModelOutput,
  writeDataModelTool,
} from "./model-tools.js";
import { importDatabaseInput, importDatabaseOutput, importDatabaseTool } from "./import-database.js";
import { modelingPromptText } from "./prompt.js";
import { failure } from "./results.js";
import {
  getNextQuestions,
  getNextQuestionsOutput,
  updateRequirements,
  updateRequirementsInput,
  updateRequirementsOutput,
} from "./session-tools.js";

export interface ServerOptions {
  /** The session folder: workload.yaml, cosmosdb_requirements.md, .cosmos-modeler/. */
  readonly dir: string;
  /** Folder of the bundled examples (default: the package's `examples/`). */
  readonly examplesDir?: string;
}

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Server name and version as announced to clients. */
export const SERVER_INFO = { name: "cosmos-modeler", version: "0.1.0" } as const;

/**
 * Builds the MCP server for the session in `options.dir` (not yet connected to a transport).
 * @example await createCosmosModelerServer({ dir: process.cwd() }).connect(new StdioServerTransport())
 */
export async function createCosmosModelerServer(options: ServerOptions): Promise<McpServer> {
  const dir = resolve(options.dir);
  const server = new McpServer(SERVER_INFO, {
    instructions:
      "Designs Azure Cosmos DB for NoSQL data models. Use the cosmos-data-modeling prompt for the interview workflow: " +
      "get-next-questions, then update-requirements after every answer; never invent request rates.",
  });
  // One tool call at a time touches the session files.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = (run: () => Promise<CallToolResult> | CallToolResult): Promise<CallToolResult> => {
    const next = queue.then(async () => {
      try {
        return await run();
      } catch (error) {
        if (error instanceof CosmosModelerError) return failure(`${error.code}: ${error.message}`);
        throw error;
      }
    });
    queue = next.catch(() => undefined);
    return next;
  };
  const readOnly = {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  } as const;

  server.registerTool(
    "check-workload",
    {
      title: "Check a workload",
      description:
        "Validates a workload file (spec/workload-format.md): every error and warning with file, line and field path. Default: the session's workload.yaml.",
      inputSchema: checkWorkloadInput,
      outputSchema: checkWorkloadOutput,
      annotations: readOnly,
    },
    (args) => serialized(() => checkWorkload(dir, args)),
  );
  server.registerTool(
    "get-next-questions",
    {
      title: "Get the next interview questions",
      description:
        "The next questions of the modeling interview (one, or at most three on one subject, most important first), how to answer each with update-requirements, and the checklist that gates the data model.",
      inputSchema: {},
      outputSchema: getNextQuestionsOutput,
      annotations: readOnly,
    },
    () => serialized(() => getNextQuestions(dir)),
  );
  server.registerTool(
    "update-requirements",
    {
      title: "Update the requirements",
      description:
        "Applies structured changes from the user's answers (entities, attributes, relationships, access patterns, rates, scale, estimates, confirmations) to the session, all or none; rewrites workload.yaml and cosmosdb_requirements.md; returns the four-part turn summary, warnings and the next questions.",
      inputSchema: updateRequirementsInput,
      outputSchema: updateRequirementsOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args) => serialized(() => updateRequirements(dir, args)),
  );
  server.registerTool(
    "estimate-request-charge",
    {
      title: "Estimate request charges",
      description:
        "Request units (RU) of single Cosmos DB operations (point read, create, replace, upsert, patch, delete, query) from item size, indexed values and query shape, each with its range.",
      inputSchema: estimateRequestChargeInput,
      outputSchema: estimateRequestChargeOutput,
      annotations: readOnly,
    },
    (args) => serialized(() => estimateRequestCharges(args)),
  );
  server.registerTool(
    "design-model",
    {
      title: "Design a model",
      description:
        "Designs the cheapest model that respects every Cosmos DB limit for the session's workload (or a named file): containers, partition keys, embedding, denormalized copies and counters, indexing, throughput; each decision with its alternatives and their RU/s and monthly cost. Writes nothing: discuss the decisions with the user.",
      inputSchema: designModelInput,
      outputSchema: designModelOutput,
      annotations: readOnly,
    },
    (args) => serialized(() => designModelTool(dir, args)),
  );
  server.registerTool(
    "write-data-model",
    {
      title: "Write the data model",
      description:
        "Designs the session's workload and writes cosmosdb_data_model.md, model.yaml, evaluation.json, report.html (the visual report) and the artifacts into the session folder. Refused (isError, with the open items) until the user has confirmed that every access pattern is captured and the checklist is complete.",
      inputSchema: writeDataModelInput,
      outputSchema: writeDataModelOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args) => serialized(() => writeDataModelTool(dir, args)),
  );
  server.registerTool(
    "evaluate-model",
    {
      title: "Evaluate a model",
      description:
        "How each access pattern executes on a model (point read, single-partition or fan-out query, writes and change feed), its RU with range and RU/s at average and peak, and per container the physical partitions, storage, hottest partitions, throughput and monthly cost.",
      inputSchema: evaluateModelInput,
      outputSchema: evaluateModelOutput,
      annotations: readOnly,
    },
    (args) => serialized(() => evaluateModelTool(dir, args)),
  );
  server.registerTool(
    "render-artifacts",
    {
      title: "Render deployable artifacts",
      description:
        "Writes a model's container definitions (JSON), Bicep, Terraform, Azure CLI script and Mermaid diagram into a folder inside the session folder.",
      inputSchema: renderArtifactsInput,
      outputSchema: renderArtifactsOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args) => serialized(() => renderArtifacts(dir, args)),
  );

  server.registerTool(
    "import-database",
    {
      title: "Import an existing database",
      description:
        "Starts the session from an existing relational database: a PostgreSQL connection URL (catalog, statistics and pg_stat_statements, read-only) or a DDL file in the session folder (PostgreSQL, MySQL, SQL Server). Writes workload.yaml and cosmosdb_requirements.md with the source of every imported number; peaks are never imported, get-next-questions asks them.",
      inputSchema: importDatabaseInput,
      outputSchema: importDatabaseOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    (args) => serialized(() => importDatabaseTool(dir, args)),
  );

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
  return server;
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
        const text = await readFile(join(dir, file.name), "utf8").catch(() => undefined);
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

/** Runs the server on standard input and output until the client disconnects. */
export async function runStdioServer(options: ServerOptions): Promise<void> {
  const server = await createCosmosModelerServer(options);
  await server.connect(new StdioServerTransport());
}
