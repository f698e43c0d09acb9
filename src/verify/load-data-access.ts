/**
 * Loads the generated data-access code (render/code: the module and its runtime folder) so that
 * verify calls the very functions an application would: the TypeScript is transpiled with the
 * `typescript` package (loaded on demand), written to a temporary folder with its
 * `@azure/cosmos` imports pointed at this installation's copy, and imported.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Database } from "@azure/cosmos";
import type TypeScript from "typescript";
import { CosmosModelerError } from "../common/errors.js";
import type { Model } from "../model/types.js";
import type { Plan } from "../planner/types.js";
import {
  dataAccessNames,
  renderDataAccessFiles,
  RUNTIME_FOLDER,
  type DataAccessFile,
} from "../render/code/render-data-access.js";
import type { ChangeFeedProcessor, ChangeFeedProcessorOptions } from "../runtime/change-feed.js";
import type { IntentEntry, Journal } from "../runtime/journal.js";
import type { Workload } from "../workload/types.js";

/** A change of an item, as the generated module reports it (`ContainerChange`). */
export interface GeneratedChange {
  readonly container: string;
  readonly itemType: string;
  readonly kind: string;
  readonly item: Readonly<Record<string, unknown>>;
}

/** What a generated write or handler returns (`WriteResult`). */
export interface GeneratedWriteResult {
  readonly requestCharge: number;
  readonly changes: readonly GeneratedChange[];
}

type GeneratedFunction = (input: unknown, related?: unknown) => Promise<Record<string, unknown>>;

/** The generated module, bound to a database. */
export interface DataAccess {
  /** The function of an access pattern (by id). */
  readonly pattern: (id: string) => GeneratedFunction;
  /** Runs the change-feed handlers for changes, and for the changes they make (cascade). */
  readonly applyChanges: (
    changes: readonly GeneratedChange[],
    cascade?: boolean,
  ) => Promise<GeneratedWriteResult>;
  /** Runs the handlers for a page of a container's change feed (what the processors call). */
  readonly applyFeed: (
    container: string,
    entries: readonly unknown[],
    range?: string,
    journal?: Journal,
  ) => Promise<GeneratedWriteResult>;
  /** Makes the writes a lease recorded for a batch that did not finish (what the processors call). */
  readonly replayFeed: (container: string, intent: readonly IntentEntry[]) => Promise<GeneratedWriteResult>;
  /**
   * `startChangeFeedProcessors` of the module over the same database; `applyFeed` replaces the
   * module's own (to watch or fail the handlers). Options as the runtime's
   * `ChangeFeedProcessorOptions` (`checkpoints` required).
   */
  readonly startChangeFeedProcessors: (
    options: ChangeFeedProcessorOptions & {
      readonly applyFeed?: (
        container: string,
        entries: readonly unknown[],
        range?: string,
        journal?: Journal,
      ) => Promise<GeneratedWriteResult>;
    },
  ) => ChangeFeedProcessor;
}

/** The module's `@azure/cosmos` import, pointed at the file this installation resolves. */
function cosmosModuleUrl(): string {
  const resolve = (import.meta as { resolve?: (specifier: string) => string }).resolve;
  if (typeof resolve === "function") {
    try {
      return resolve("@azure/cosmos");
    } catch {
      // Fall back to the package's ESM entry below.
    }
  }
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve("@azure/cosmos/package.json");
  return pathToFileURL(join(dirname(packageJson), "dist", "esm", "index.js")).href;
}

async function loadTypeScript(): Promise<typeof TypeScript> {
  try {
    return (await import("typescript")).default;
  } catch (error) {
    throw new CosmosModelerError(
      "verify.typescriptMissing",
      "verify compiles the generated data-access module with the typescript package (a dependency of cosmos-modeler), which is not installed: run `npm install typescript` next to cosmos-modeler",
      { cause: error },
    );
  }
}

/**
 * The runtime's files transpiled, by their TypeScript: every generated module ships the same
 * runtime (about 200 KB, 1.5 s to transpile), so a process that verifies model after model (the
 * MCP server, the tests, the benches) transpiles it once.
 */
const transpiledRuntime = new Map<string, string>();

/** `content` transpiled to JavaScript (ES2022 modules), from the cache for the runtime's files. */
function transpile(compiler: typeof TypeScript, file: DataAccessFile): string {
  const runtime = file.path.startsWith(`${RUNTIME_FOLDER}/`);
  const cached = runtime ? transpiledRuntime.get(file.content) : undefined;
  if (cached !== undefined) return cached;
  const javascript = compiler.transpileModule(file.content, {
    compilerOptions: { module: compiler.ModuleKind.ES2022, target: compiler.ScriptTarget.ES2022 },
  }).outputText;
  if (runtime) transpiledRuntime.set(file.content, javascript);
  return javascript;
}

/**
 * Writes the generated files, transpiled to JavaScript (`x.ts` -> `x.js`, with `@azure/cosmos`
 * imported from this installation), into `folder`; returns the URL of `data-access.js`.
 */
export async function writeDataAccessModule(
  folder: string,
  files: readonly DataAccessFile[],
  ts?: typeof TypeScript,
): Promise<string> {
  const compiler = ts ?? (await loadTypeScript());
  const cosmos = `from ${JSON.stringify(cosmosModuleUrl())}`;
  await writeFile(join(folder, "package.json"), '{ "type": "module" }\n');
  for (const file of files) {
    const javascript = transpile(compiler, file).replace(/from "@azure\/cosmos"/g, cosmos);
    const target = join(folder, file.path.replace(/\.ts$/, ".js"));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, javascript);
  }
  return pathToFileURL(join(folder, "data-access.js")).href;
}

/**
 * Renders, compiles and imports the data-access module of a model and binds it to `database`
 * with one request per operation when the endpoint lacks patch operations in batches.
 * Returns the module and a `dispose()` that deletes the temporary files.
 */
export async function loadDataAccess(
  workload: Workload,
  model: Model,
  plans: readonly Plan[],
  database: Database,
  options: { readonly transactionalBatch: boolean; readonly random: () => number },
): Promise<{ access: DataAccess; source: string; dispose(): Promise<void> }> {
  const files = renderDataAccessFiles(workload, model, plans);
  const source = files[0]?.content ?? "";
  const folder = await mkdtemp(join(tmpdir(), "cosmos-modeler-verify-"));
  let module: Record<string, unknown>;
  try {
    module = (await import(await writeDataAccessModule(folder, files))) as Record<string, unknown>;
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw new CosmosModelerError(
      "verify.generatedCodeFailed",
      `the generated data-access module does not load: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const create = module["createDataAccess"] as (db: unknown, options: unknown) => Record<string, unknown>;
  const startProcessors = module["startChangeFeedProcessors"] as (
    db: unknown,
    access: unknown,
    options: unknown,
  ) => unknown;
  const bound = create(database, options);
  const names = dataAccessNames(workload, []);
  const access: DataAccess = {
    pattern: (id) => {
      const fn = bound[names.patterns.get(id) ?? ""];
      if (typeof fn !== "function") {
        throw new CosmosModelerError(
          "verify.generatedCodeFailed",
          `the generated module has no function for ${id}`,
        );
      }
      return fn as GeneratedFunction;
    },
    applyChanges: bound["applyChanges"] as DataAccess["applyChanges"],
    applyFeed: bound["applyFeed"] as DataAccess["applyFeed"],
    replayFeed: bound["replayFeed"] as DataAccess["replayFeed"],
    startChangeFeedProcessors: ({ applyFeed, ...rest }) =>
      startProcessors(
        database,
        applyFeed === undefined ? bound : { ...bound, applyFeed },
        rest,
      ) as ChangeFeedProcessor,
  };
  return {
    access,
    source,
    dispose: () => rm(folder, { recursive: true, force: true }),
  };
}
