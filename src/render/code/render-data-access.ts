/**
 * Renders the TypeScript data-access module of a model: one async function per access pattern
 * (point reads, the plans' parameterized queries, writes with transactional batches for
 * co-located counters), one change-feed handler per source item type (copies with replicas and
 * trimming, propagation of copied attributes, counters), and `startChangeFeedProcessors` for a
 * real account. The module holds the model's data and the functions; the work is done by the
 * data-access runtime (`src/runtime/`), shipped next to it as source in `data-access-runtime/`.
 */
import type { Model } from "../../model/types.js";
import type { Plan, ReadPlan, WritePlan } from "../../planner/types.js";
import type { AccessPattern, ReadPattern, Workload, WritePattern } from "../../workload/types.js";
import { attributeTsType, emitReadBody, readAnswer, readInputType, readPages } from "./emit-read.js";
import { itemInterface, writeInputSentence, writeInputType } from "./emit-types.js";
import { writeInputOf, type WriteInput } from "../../model/write-inputs.js";
import { changeKindOf, maintenanceTasksOf, writeTasksOf, type MaintenanceTaskData } from "./emit-write.js";
import {
  camelIdentifier,
  codeLiteral,
  commentText,
  pascalIdentifier,
  propertyKey,
  stringLiteral,
  uniqueNamer,
} from "./identifiers.js";
import { changeFeedModeOf, copySourcesOf, shapesOf, type ItemTypeShapeData } from "./model-data.js";
import { RUNTIME_FILES } from "./runtime-files.generated.js";
import { cacheIneligibility, readConsistencyOf } from "../../workload/cacheable.js";

/** The folder of the runtime next to the generated module. */
export const RUNTIME_FOLDER = "data-access-runtime";

/** Runtime values the generated module may use (imported when its text uses them). */
const RUNTIME_VALUES = [
  "applyChangesWith",
  "DataAccessError",
  "asItems",
  "bucketOf",
  "createRuntime",
  "distinctValues",
  "queryItems",
  "readItem",
  "readValues",
  "renderKeyValue",
  "renderTemplate",
  "runMaintenance",
  "runWrite",
  "shardValues",
  "shapeItems",
  "processChangeFeeds",
  "containerCheckpointStore",
  "changesOfFeed",
  "readMany",
  "combinationsOf",
  "firstInOrder",
  "liveRead",
  "liveItem",
  "itemsAs",
  "partitionKeyOfItem",
  "replayIntent",
  "openPages",
  "perShard",
  "readPage",
  "withSearchTerms",
];

/** Runtime types the generated module may use. */
const RUNTIME_TYPES = [
  "ChangeFeedProcessor",
  "ChangeFeedProcessorOptions",
  "ChangeHandler",
  "ContainerChange",
  "CopySource",
  "DataAccessOptions",
  "FollowUpResult",
  "Increment",
  "IntentEntry",
  "ItemChange",
  "ItemTypeShape",
  "Journal",
  "KeyValue",
  "MaintenanceTask",
  "PageOptions",
  "ReadResult",
  "StoredItem",
  "WithIncrements",
  "WriteContext",
  "WriteRelated",
  "WriteResult",
  "WriteTask",
];

/** Runtime types the module re-exports for its callers. */
const REEXPORTED_TYPES = [
  "ChangeFeedProcessor",
  "ChangeFeedProcessorOptions",
  "ContainerChange",
  "DataAccessOptions",
  "FollowUpResult",
  "Increment",
  "ItemChange",
  "PageOptions",
  "ReadResult",
  "WriteRelated",
  "WriteResult",
];

/** Runtime values the module re-exports: where a change-feed processor keeps its place and its failures. */
const REEXPORTED_VALUES = [
  "containerCheckpointStore",
  "memoryCheckpointStore",
  "containerDeadLetterStore",
  "memoryDeadLetterStore",
  "replayDeadLetters",
  "DataAccessError",
];

/** Names the generated module declares or imports (entity and input types must not clash with them). */
const RESERVED_NAMES = [
  "Database",
  ...RUNTIME_VALUES,
  ...RUNTIME_TYPES,
  ...REEXPORTED_VALUES,
  "DataAccess",
  "createDataAccess",
  "CHANGE_FEED_MODE",
];

/** The name of the function of each access pattern, and of each change handler. */
export interface DataAccessNames {
  /** Function name by access pattern id, e.g. `Q3` -> `q3ListAUsersPostsInShortForm`. */
  readonly patterns: ReadonlyMap<string, string>;
  /** Handler name by source `container/type`, e.g. `posts/post` -> `handlePostsPostChanges`. */
  readonly handlers: ReadonlyMap<string, string>;
}

/** Function names of the generated module (stable for a workload and model). */
export function dataAccessNames(
  workload: Workload,
  handlerSources: readonly { readonly container: string; readonly itemType: string }[],
): DataAccessNames {
  const unique = uniqueNamer([
    "applyChanges",
    "applyFeed",
    "replayFeed",
    "constructor",
    "toString",
    "valueOf",
    "hasOwnProperty",
  ]);
  const patterns = new Map(
    workload.accessPatterns.map((p) => [p.id, unique(camelIdentifier(`${p.id} ${p.name}`, "pattern"))]),
  );
  const handlers = new Map(
    handlerSources.map(({ container, itemType }) => [
      `${container}/${itemType}`,
      unique(`handle${pascalIdentifier(container)}${pascalIdentifier(itemType)}Changes`),
    ]),
  );
  return { patterns, handlers };
}

function jsonBlock(value: unknown, indent: string): string {
  return codeLiteral(value, indent);
}

function indentLines(lines: readonly string[], indent: string): string {
  return lines
    .flatMap((line) => line.split("\n"))
    .map((line) => (line === "" ? "" : `${indent}${line}`))
    .join("\n");
}

function header(workload: Workload): string {
  return [
    "/**",
    ` * Data access for "${commentText(workload.name)}", generated by cosmos-modeler from the model's plans.`,
    " * One function per access pattern, one change-feed handler per source item type; every query",
    " * is parameterized. Regenerate rather than edit: the functions follow the model. The work is",
    ` * done by the data-access runtime in ./${RUNTIME_FOLDER}/ (ordinary TypeScript over @azure/cosmos).`,
    " *",
    " * Reads take the values of the pattern's filters: { attribute: value } for eq, contains and",
    " * prefix, an array for in, { from, to } for a range (to excluded); they return the items, the",
    " * request charge and the related data of follow-up reads. A create, upsert or replace takes the",
    " * entity record; a patch takes the record's key and address and the attributes it changes (a",
    " * number may be an Increment), a delete the key and address only: what else the write keeps",
    " * right (copies, counters, parents that embed the record) is read. Writes also take, when",
    " * needed, related data: copies (records copied from; read by key when absent), linked",
    " * (the records linked many-to-many, for the arrays copied from them), counts, embeds, parents",
    " * (records of parents the record cannot key), previous. They return the charge",
    " * and the items changed; applyChanges runs the change-feed work for them (copies, replicas,",
    " * trimming, propagation, counters), as startChangeFeedProcessors does on a real account.",
    " */",
  ].join("\n");
}

/** The import of the runtime: the names `body` uses, values then types. */
function runtimeImport(body: string): string {
  const used = (name: string) => new RegExp(`\\b${name}\\b`).test(body);
  const names = [
    ...RUNTIME_VALUES.filter(used),
    ...RUNTIME_TYPES.filter((name) => used(name) && !REEXPORTED_TYPES.includes(name)).map(
      (name) => `type ${name}`,
    ),
    ...REEXPORTED_TYPES.filter(used).map((name) => `type ${name}`),
  ];
  return [
    'import type { Database } from "@azure/cosmos";',
    "import {",
    ...names.map((name) => `  ${name},`),
    `} from "./${RUNTIME_FOLDER}/index.js";`,
    "",
    `export type { ${REEXPORTED_TYPES.join(", ")} } from "./${RUNTIME_FOLDER}/index.js";`,
    `export { ${REEXPORTED_VALUES.join(", ")} } from "./${RUNTIME_FOLDER}/index.js";`,
  ].join("\n");
}

function entityTypes(workload: Workload, typeName: (entity: string) => string): string {
  return workload.entities
    .map((entity) => {
      const members = entity.attributes.map(
        (a) => `  readonly ${propertyKey(a.name)}: ${attributeTsType(a.type)};`,
      );
      const body = members.length === 0 ? "Readonly<Record<string, unknown>>" : `{\n${members.join("\n")}\n}`;
      return `/** A ${commentText(entity.name)} record. */\nexport type ${typeName(entity.name)} = ${body};`;
    })
    .join("\n\n");
}

function describePlan(pattern: AccessPattern, plan: Plan | undefined): string[] {
  const lines = [`${pattern.id}: ${pattern.name}`];
  if (plan === undefined) return [...lines, "No plan."];
  if (plan.type === "read") {
    lines.push(`Plan: ${plan.kind} on ${plan.container}/${plan.itemType}.`);
  } else {
    lines.push(
      `Plan: ${plan.operations.map((step) => step.note).join("; ") || "nothing to write"}.`,
      ...plan.async.map((step) => `Change feed (${step.reason}): ${step.note}.`),
    );
  }
  if (!plan.served) lines.push("NOT SERVED by this model.");
  lines.push(...plan.notes.map((note) => `Note: ${note}.`));
  return lines.map(commentText);
}

function docComment(lines: readonly string[], indent: string): string {
  return [`${indent}/**`, ...lines.map((line) => `${indent} * ${line}`), `${indent} */`].join("\n");
}

/**
 * The lines that send a read through the integrated cache: its containers are the cached
 * runtime's (`Runtime.cached`), whose reads carry the pattern's staleness and consistency.
 */
function throughCacheLines(workload: Workload, model: Model, pattern: ReadPattern): string[] {
  if (model.integratedCache?.patterns.includes(pattern.id) !== true) return [];
  if (cacheIneligibility(workload, pattern) !== undefined) return [];
  const consistency = readConsistencyOf(workload, pattern) === "eventual" ? "Eventual" : "Session";
  const stalenessMs = Math.round((pattern.maxStalenessSeconds ?? 0) * 1000);
  return [
    `// Through the integrated cache (options.cacheDatabase, the dedicated gateway): an answer up to ${formatStaleness(pattern.maxStalenessSeconds ?? 0)} old, at ${consistency.toLowerCase()} consistency.`,
    `const runtime = throughCache({ maxStalenessMs: ${stalenessMs}, consistency: ${stringLiteral(consistency)} });`,
  ];
}

/** Seconds as a short duration for a comment. */
function formatStaleness(seconds: number): string {
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}

function readFunction(
  pattern: ReadPattern,
  plan: ReadPlan | undefined,
  name: string,
  inputType: string,
  shapes: ReadonlyMap<string, ItemTypeShapeData>,
  storedTypeOf: (container: string, itemType: string) => string,
  cacheLines: readonly string[] = [],
): string {
  // A vector or hybrid search returns each result's VectorDistance (its score) with it.
  const first = plan?.operations[0];
  const score = first?.kind === "query" ? first.search?.scoreProperty : undefined;
  const typeOf = (container: string, itemType: string): string =>
    score === undefined
      ? storedTypeOf(container, itemType)
      : `${storedTypeOf(container, itemType)} & { readonly ${score}: number }`;
  const body =
    plan === undefined
      ? [`throw new Error(${stringLiteral(`${pattern.id} has no plan`)});`]
      : [...cacheLines, ...emitReadBody(pattern, plan, shapes, typeOf)];
  const answer = plan === undefined || plan.operations.length === 0 ? undefined : readAnswer(plan, shapes);
  const itemType =
    answer === undefined
      ? "StoredItem"
      : pattern.select !== undefined && answer === plan?.operations[0]
        ? `Partial<${typeOf(answer.container, answer.itemType)}>`
        : typeOf(answer.container, answer.itemType);
  return [
    docComment(
      [
        ...describePlan(pattern, plan),
        ...(readPages(plan)
          ? ["Pass page.pageSize and the previous answer's continuationToken for the next page."]
          : []),
      ],
      "    ",
    ),
    `    async ${name}(input: ${inputType}${readPages(plan) ? ", page: PageOptions = {}" : ""}): Promise<ReadResult<${itemType}>> {`,
    indentLines(body, "      "),
    "    },",
  ].join("\n");
}

/** What a write function takes: its input's type and sentence, and what it takes with it. */
interface WriteSignature {
  readonly input: WriteInput;
  readonly recordType: string;
  /** The type of `related` (typed embeds of the children written with the record). */
  readonly relatedType: string;
  /** Doc lines on the children written with the record. */
  readonly carries: readonly string[];
}

function writeFunction(
  workload: Workload,
  pattern: WritePattern,
  plan: WritePlan | undefined,
  name: string,
  signature: WriteSignature,
  shapes: ReadonlyMap<string, ItemTypeShapeData>,
): string {
  const tasks = plan === undefined ? [] : writeTasksOf(workload, pattern, plan, shapes);
  const context = {
    entity: pattern.entity,
    change: changeKindOf(pattern),
    ...(pattern.changes === undefined ? {} : { changes: pattern.changes }),
  };
  const withParent = plan?.writtenWithParent;
  const body =
    withParent === undefined
      ? [
          `      const context: WriteContext = ${jsonBlock(context, "      ")};`,
          `      const tasks: WriteTask[] = ${jsonBlock(tasks, "      ")};`,
          "      return runWrite(runtime, context, tasks, record, related);",
        ]
      : [
          "      // The records have no item of their own: they are written with their parent's create.",
          `      throw new DataAccessError(${stringLiteral("writtenWithParent")}, ${stringLiteral(
            `${pattern.id}: ${pattern.entity} records are embedded in ${withParent.itemType}.${withParent.as} and written with their ${withParent.parent}: pass them to the ${withParent.parent}'s create as related.embeds.${pattern.entity}`,
          )}, { context: { record, related } });`,
        ];
  return [
    docComment(
      [
        ...describePlan(pattern, plan),
        commentText(writeInputSentence(workload, pattern, signature.input, withParent)),
        ...signature.carries.map(commentText),
        "Returns the items written; pass its changes to applyChanges (or let the change feed do it).",
      ],
      "    ",
    ),
    `    async ${name}(record: ${signature.recordType}, related: ${signature.relatedType} = {}): Promise<WriteResult> {`,
    ...body,
    "    },",
  ].join("\n");
}

/**
 * The children a parent's create writes with it (their own write patterns are refused): doc lines
 * and the type of `related` with their records typed.
 */
function carriedChildren(
  workload: Workload,
  pattern: WritePattern,
  plans: ReadonlyMap<string, Plan>,
  recordType: (entity: string) => string,
): { readonly relatedType: string; readonly carries: readonly string[] } {
  if (pattern.operation !== "create" && pattern.operation !== "upsert")
    return { relatedType: "WriteRelated", carries: [] };
  const children = workload.accessPatterns.flatMap((child) => {
    const plan = plans.get(child.id);
    const carried = plan?.type === "write" ? plan.writtenWithParent : undefined;
    return carried?.parent === pattern.entity ? [{ child, carried }] : [];
  });
  if (children.length === 0) return { relatedType: "WriteRelated", carries: [] };
  const entities = [...new Set(children.map(({ child }) => child.entity))];
  const members = entities.map(
    (entity) => `readonly ${propertyKey(entity)}?: readonly ${recordType(entity)}[]`,
  );
  return {
    relatedType: `WriteRelated & { readonly embeds?: { ${members.join("; ")} } }`,
    carries: children.map(
      ({ child, carried }) =>
        `The ${child.entity} records of ${child.id} are written here, in ${carried.itemType}.${carried.as}: pass them as related.embeds.${child.entity}.`,
    ),
  };
}

/** The change-feed handler of one source item type: its maintenance tasks over a batch of changes. */
function handlerSource(
  key: string,
  tasks: readonly MaintenanceTaskData[],
  shape: ItemTypeShapeData | undefined,
  name: string,
): string {
  const source = { container: shape?.container ?? "", itemType: shape?.type ?? "" };
  return [
    docComment(
      [
        `Change-feed work when ${key} items change: ${tasks.map((t) => t.kind).join(", ")}.`,
        "Call it with a batch of changed items (the change feed processor does).",
      ].map(commentText),
      "  ",
    ),
    `  const ${name} = async (changes: readonly ItemChange[]): Promise<WriteResult> => {`,
    `    const tasks: MaintenanceTask[] = ${jsonBlock(tasks, "    ")};`,
    `    return runMaintenance(runtime, ${jsonBlock(source, "    ")}, tasks, changes);`,
    "  };",
  ].join("\n");
}

/** How the module names and types what the access patterns take and return. */
interface PatternNaming {
  readonly model: Model;
  readonly names: ReadonlyMap<string, string>;
  readonly planOf: ReadonlyMap<string, Plan>;
  readonly typeNamer: (name: string) => string;
  readonly recordType: (entity: string) => string;
  readonly shapes: ReadonlyMap<string, ItemTypeShapeData>;
  readonly typeOf: (container: string, itemType: string) => string;
}

/** Per access pattern: its function, its input type (reads) and its catalog entry. */
function patternSources(
  workload: Workload,
  naming: PatternNaming,
): { inputTypes: string[]; functions: string[]; catalog: string[] } {
  const { model, names, planOf, typeNamer, recordType, shapes, typeOf } = naming;
  const inputTypes: string[] = [];
  const functions: string[] = [];
  const catalog: string[] = [];
  for (const pattern of workload.accessPatterns) {
    const name = names.get(pattern.id) ?? camelIdentifier(pattern.id, "pattern");
    const plan = planOf.get(pattern.id);
    catalog.push(
      `  ${stringLiteral(pattern.id)}: { function: ${stringLiteral(name)}, type: ${stringLiteral(pattern.type)}, entity: ${stringLiteral(pattern.entity)}, served: ${String(plan?.served ?? false)} },`,
    );
    if (pattern.type === "read") {
      const inputName = typeNamer(`${pascalIdentifier(name)}Input`);
      inputTypes.push(
        `/** Input of ${commentText(pattern.id)}. */\nexport type ${inputName} = ${readInputType(workload, pattern)};`,
      );
      functions.push(
        readFunction(
          pattern,
          plan?.type === "read" ? plan : undefined,
          name,
          inputName,
          shapes,
          typeOf,
          throughCacheLines(workload, model, pattern),
        ),
      );
    } else {
      const input = writeInputOf(workload, model, pattern);
      let inputType = recordType(pattern.entity);
      if (input.kind === "partial") {
        inputType = typeNamer(`${pascalIdentifier(name)}Input`);
        inputTypes.push(
          `/** Input of ${commentText(pattern.id)}: the key and address${pattern.operation === "patch" ? ", and the attributes it changes" : ""}. */\nexport type ${inputType} = ${writeInputType(workload, pattern, input)};`,
        );
      }
      functions.push(
        writeFunction(
          workload,
          pattern,
          plan?.type === "write" ? plan : undefined,
          name,
          { input, recordType: inputType, ...carriedChildren(workload, pattern, planOf, recordType) },
          shapes,
        ),
      );
    }
  }
  return { inputTypes, functions, catalog };
}

/**
 * The TypeScript module (`@azure/cosmos`) for a model: `createDataAccess(database, options)` and
 * `startChangeFeedProcessors(database, access, options)`. Pure: same inputs, same text.
 * @example renderDataAccessModule(workload, model, planModel(workload, model)) // "/**\n * Data access for ..."
 */
export function renderDataAccessModule(workload: Workload, model: Model, plans: readonly Plan[]): string {
  const shapes = shapesOf(workload, model);
  const copySources = copySourcesOf(workload, model, shapes);
  const planOf = new Map(plans.map((plan) => [plan.patternId, plan]));
  const writePlans = plans.filter((plan): plan is WritePlan => plan.type === "write");
  const maintenance = maintenanceTasksOf(workload, model, writePlans, shapes);
  const handlerSources = [...maintenance.keys()].flatMap((key) => {
    const shape = shapes.get(key);
    return shape === undefined ? [] : [{ container: shape.container, itemType: shape.type }];
  });
  const names = dataAccessNames(workload, handlerSources);
  const typeNamer = uniqueNamer(RESERVED_NAMES);
  const recordTypes = new Map(
    workload.entities.map((e) => [e.name, typeNamer(`${pascalIdentifier(e.name, "Entity")}Record`)]),
  );
  const recordType = (entity: string): string =>
    recordTypes.get(entity) ?? "Readonly<Record<string, unknown>>";
  const itemTypeNames = new Map(
    [...shapes].map(([key, shape]) => [
      key,
      typeNamer(
        `${pascalIdentifier(shape.container, "Container")}${pascalIdentifier(shape.type, "Item")}Item`,
      ),
    ]),
  );
  const typeOf = (container: string, itemType: string): string =>
    itemTypeNames.get(`${container}/${itemType}`) ?? "StoredItem";

  const { inputTypes, functions, catalog } = patternSources(workload, {
    model,
    names: names.patterns,
    planOf,
    typeNamer,
    recordType,
    shapes,
    typeOf,
  });
  const handlers = [...maintenance].map(([key, tasks]) =>
    handlerSource(key, tasks, shapes.get(key), names.handlers.get(key) ?? "handleChanges"),
  );
  const handlerEntries = [...names.handlers].map(([key, name]) => `    ${stringLiteral(key)}: ${name},`);
  const sourceContainers = [...new Set(handlerSources.map((s) => s.container))];
  const shapeEntries = [...shapes].map(
    ([key, shape]) => `  ${stringLiteral(key)}: ${jsonBlock(shape, "  ")},`,
  );
  const copyEntries = [...copySources].map(
    ([key, sources]) => `  ${stringLiteral(key)}: ${jsonBlock(sources, "  ")},`,
  );

  const body = [
    "// ---- Records, items and inputs -------------------------------------------------------------",
    entityTypes(workload, (entity) => recordType(entity)),
    [...shapes]
      .map(([key, shape]) => itemInterface(workload, shape, itemTypeNames.get(key) ?? "StoredItem"))
      .join("\n\n"),
    inputTypes.join("\n\n"),
    "// ---- The model ----------------------------------------------------------------------------",
    `/** The stored shape of every item type, by "container/type". */\nexport const itemTypes: Readonly<Record<string, ItemTypeShape>> = {\n${shapeEntries.join("\n")}\n};`,
    `/** Where the records that items copy from are read, by "container/type" and entity. */\nconst copySources: Readonly<Record<string, Readonly<Record<string, CopySource>>>> = {\n${copyEntries.join("\n")}\n};`,
    `/**\n * Every access pattern by id: the name of its function in createDataAccess, read or write, its\n * entity, and whether the model serves it.\n */\nexport const accessPatterns = {\n${catalog.join("\n")}\n} as const;`,
    `/** Containers whose change feed drives maintenance. */\nconst SOURCE_CONTAINERS: readonly string[] = ${jsonBlock(sourceContainers, "")};`,
    `/**\n * The lease container the model names for the change-feed processors (\`leases\`): where\n * startChangeFeedProcessors keeps its checkpoints unless options.checkpoints says otherwise.\n */\nexport const LEASE_CONTAINER: string | undefined = ${model.leases === undefined ? "undefined" : stringLiteral(model.leases)};`,
    `/**\n * The change feed mode the model's deletes need: "latestVersion" (deletes are soft: tombstones),\n * or "allVersionsAndDeletes" (the account needs continuous backup).\n */\nexport const CHANGE_FEED_MODE = ${stringLiteral(changeFeedModeOf(model))};`,
    "// ---- Data access --------------------------------------------------------------------------",
    createDataAccessSource(
      functions,
      handlers,
      [...names.handlers.values()],
      handlerEntries,
      workload.accessPatterns.some(
        (pattern) => pattern.type === "read" && throughCacheLines(workload, model, pattern).length > 0,
      ),
    ),
    CHANGE_FEED_SOURCE,
  ]
    .filter((part) => part.trim() !== "")
    .join("\n\n");
  return `${header(workload)}\n${runtimeImport(body)}\n\n${body}\n`;
}

/** A file of the generated code, path relative to the folder of the data-access module. */
export interface DataAccessFile {
  readonly path: string;
  readonly content: string;
}

/**
 * The generated data-access code: `data-access.ts` and the runtime it imports, as source files
 * in `data-access-runtime/` (copied from cosmos-modeler's own runtime modules).
 * @example renderDataAccessFiles(workload, model, plans).map((f) => f.path) // ["data-access.ts", "data-access-runtime/change-feed.ts", ...]
 */
export function renderDataAccessFiles(
  workload: Workload,
  model: Model,
  plans: readonly Plan[],
): readonly DataAccessFile[] {
  return [
    { path: "data-access.ts", content: renderDataAccessModule(workload, model, plans) },
    ...RUNTIME_FILES.map((file) => ({ path: `${RUNTIME_FOLDER}/${file.name}`, content: file.content })),
  ];
}

function createDataAccessSource(
  functions: readonly string[],
  handlers: readonly string[],
  handlerNames: readonly string[],
  handlerEntries: readonly string[],
  cached: boolean,
): string {
  return [
    "/**",
    " * The access patterns of the model over a database whose containers exist.",
    " * Reads the model serves from the integrated cache go to options.cacheDatabase: the database",
    " * through the dedicated gateway endpoint (the account's endpoint with documents.azure.com",
    " * replaced by sqlx.cosmos.azure.com).",
    ' * @example const access = createDataAccess(client.database("app"), { transactionalBatch: true });',
    " */",
    "export function createDataAccess(database: Database, options: DataAccessOptions = {}) {",
    "  const runtime = createRuntime(database, { itemTypes, copySources, changeFeedMode: CHANGE_FEED_MODE }, options);",
    ...(cached
      ? [
          "  /** The runtime of the reads served from the integrated cache, by staleness and consistency. */",
          "  const throughCache = runtime.cached;",
        ]
      : []),
    ...handlers,
    "  const handlers: Readonly<Record<string, ChangeHandler | undefined>> = {",
    ...handlerEntries,
    "  };",
    "  /**",
    "   * Runs the change-feed handlers for changes (grouped by container and item type); with",
    "   * cascade (default), also for the changes the handlers make, until nothing is left.",
    "   */",
    "  const applyChanges = (changes: readonly ContainerChange[], cascade = true): Promise<WriteResult> =>",
    "    applyChangesWith(handlers, changes, cascade);",
    "  /**",
    "   * Runs the handlers for a page of `container`'s change feed, as the feed delivered it (what",
    "   * startChangeFeedProcessors calls; idempotent: a redelivered page changes nothing twice).",
    "   * Writes that must not be half-applied are recorded in `journal` (the range's lease) first.",
    "   */",
    "  const applyFeed = (",
    "    container: string,",
    "    entries: readonly unknown[],",
    "    range?: string,",
    "    journal?: Journal,",
    "  ): Promise<WriteResult> =>",
    "    applyChangesWith(handlers, changesOfFeed(runtime, container, entries, CHANGE_FEED_MODE, range, journal), false);",
    "  /** Makes the writes a lease recorded for a batch that did not finish (idempotent). */",
    "  const replayFeed = (_container: string, intent: readonly IntentEntry[]): Promise<WriteResult> =>",
    "    replayIntent(runtime, intent);",
    "  return {",
    functions.join("\n"),
    ...handlerNames.map((name) => `    ${name},`),
    "    applyChanges,",
    "    applyFeed,",
    "    replayFeed,",
    "  };",
    "}",
    "",
    "/** The object createDataAccess returns. */",
    "export type DataAccess = ReturnType<typeof createDataAccess>;",
  ].join("\n");
}

const CHANGE_FEED_SOURCE = `/**
 * Reads the change feed of every container whose items others copy, count or propagate (one loop
 * per feed range), runs the handlers for each batch and saves its continuation in
 * \`options.checkpoints\`, by default the model's lease container (LEASE_CONTAINER, which the
 * infrastructure creates). A batch is acknowledged only once its handlers finished; failures are
 * retried with backoff, and a change that keeps failing goes to \`options.deadLetters\` when given.
 * Stop with stop().
 */
export function startChangeFeedProcessors(
  database: Database,
  access: Pick<DataAccess, "applyFeed" | "replayFeed">,
  options: Omit<ChangeFeedProcessorOptions, "checkpoints"> & {
    readonly checkpoints?: ChangeFeedProcessorOptions["checkpoints"];
  } = {},
): ChangeFeedProcessor {
  const checkpoints =
    options.checkpoints ??
    (LEASE_CONTAINER === undefined ? undefined : containerCheckpointStore(database.container(LEASE_CONTAINER)));
  if (checkpoints === undefined)
    throw new Error("the model names no lease container (leases): pass options.checkpoints");
  return processChangeFeeds(database, SOURCE_CONTAINERS, access.applyFeed, {
    mode: CHANGE_FEED_MODE,
    replay: access.replayFeed,
    ...options,
    checkpoints,
  });
}`;
