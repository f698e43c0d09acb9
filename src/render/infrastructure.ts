/**
 * What the deployable artifacts (container definitions JSON, Bicep, Terraform, Azure CLI) of a
 * model say, resolved once: account settings, database throughput, and per container its
 * `@azure/cosmos` `ContainerDefinition`, its throughput and the notes that explain defaults.
 * Depends only on the model, plus optional numbers from the evaluation and the workload's scale.
 */
import { GATEWAY_NODE_SIZES } from "../cosmos/dedicated-gateway.js";
import { escapeControlCharacters, UNSAFE_CHARACTERS } from "../common/safe-text.js";
import { formatInteger } from "../common/format-number.js";
import {
  AUTOSCALE_MAX_RUS_STEP,
  AUTOSCALE_MIN_MAX_RUS,
  MANUAL_MIN_RUS,
  LIMIT_SOURCES,
  MANUAL_RUS_STEP,
  MAX_CONTAINER_RUS,
  MAX_CONTAINER_RUS_TICKET,
  MAX_PROVISIONED_RUS,
  MAX_SHARED_DATABASE_RUS,
} from "../cosmos/limits.js";
import type { Model, Throughput } from "../model/types.js";
import {
  AUTOMATIC_INDEXING_POLICY,
  containerDefinitionOf,
  type ContainerDefinitionData,
  type IndexingPolicyDefinition,
} from "../planner/container-definition.js";
import type { Consistency, Scale } from "../workload/types.js";
import { DEFAULT_VECTOR_SEARCH_FACTS, VECTOR_SEARCH_SOURCES } from "../cosmos/vector-search.js";

export type { ContainerDefinitionData, IndexingPolicyDefinition };

/** Inputs beyond the model. Every field is optional. */
export interface InfrastructureOptions {
  /** Throughput per container name, e.g. the evaluation's recommendation; wins over the model's. */
  readonly throughputByContainer?: Readonly<Record<string, Throughput>>;
  /** Indexing policy per container name for containers whose model indexing is `derived`. */
  readonly derivedIndexing?: Readonly<Record<string, IndexingPolicyDefinition>>;
  /** Throughput of the database, shared by the containers in `shared` mode. */
  readonly databaseThroughput?: Throughput;
  /** Regions, multi-region writes and consistency (the workload's scale). */
  readonly scale?: Pick<Scale, "regions" | "multiRegionWrites" | "consistency"> & {
    readonly regionNames?: readonly string[];
  };
  /** Default database name in the generated parameters. Default `appdb`. */
  readonly databaseName?: string;
  /**
   * Why items of a container carry a `ttl`, by container name: item types' own and soft-delete
   * tombstones (`cost/soundness.ts` `expiringItems`, which needs the workload). Without it, the
   * item types' own `ttl` in the model is what counts.
   */
  readonly expiringItems?: Readonly<Record<string, readonly string[]>>;
}

/** Provisioned throughput as the templates write it. */
export type ProvisionedThroughput =
  { readonly kind: "manual"; readonly rus: number } | { readonly kind: "autoscale"; readonly maxRus: number };

export interface ContainerPlan {
  readonly definition: ContainerDefinitionData;
  /** Absent: serverless account, shared database throughput, or not given (service default). */
  readonly throughput?: ProvisionedThroughput;
  readonly notes: readonly string[];
}

/** The body of the ARM REST `PUT` that creates a container. */
export interface ContainerRequestBody {
  readonly properties: {
    readonly resource: ContainerDefinitionData;
    readonly options:
      | { readonly throughput: number }
      | { readonly autoscaleSettings: { readonly maxThroughput: number } }
      | Readonly<Record<string, never>>;
  };
}

/**
 * The body of the ARM `PUT` of a container (Microsoft.DocumentDB
 * `databaseAccounts/sqlDatabases/containers`): its whole definition as `resource`, its own
 * throughput as `options` (empty without one). The script sends it with `az rest`; Terraform
 * writes it as the `body` of an `azapi_resource`.
 * @example containerRequestBody(plan.containers[0]) // { properties: { resource: { id: "orders", ... }, options: { throughput: 400 } } }
 */
export function containerRequestBody(container: ContainerPlan): ContainerRequestBody {
  const t = container.throughput;
  const options =
    t === undefined
      ? {}
      : t.kind === "manual"
        ? { throughput: t.rus }
        : { autoscaleSettings: { maxThroughput: t.maxRus } };
  return { properties: { resource: container.definition, options } };
}

/**
 * Throughput over the default maximum of a container (or a shared-throughput database): Azure
 * refuses it until a support ticket raised the maximum for the account (`cosmos/limits.ts`
 * MAX_CONTAINER_RUS).
 */
export interface QuotaIncrease {
  readonly kind: "container" | "database";
  /** The container's name, or the database's default name. */
  readonly name: string;
  /** The manual RU/s or autoscale maximum the templates provision. */
  readonly rus: number;
  /** The default maximum it is over. */
  readonly maximum: number;
}

export interface InfrastructurePlan {
  readonly serverless: boolean;
  /**
   * Account capabilities: `EnableServerless` for a serverless account, `EnableNoSQLVectorSearch`
   * when a container has a vector embedding policy, `EnableNoSQLFullTextSearch` when one has a
   * full-text policy (cosmos/vector-search.ts).
   */
  readonly capabilities: readonly string[];
  readonly databaseName: string;
  readonly databaseThroughput?: ProvisionedThroughput;
  /** Region names known beyond the primary (the location parameter). */
  readonly additionalRegions: readonly string[];
  /** The first region name when the workload lists names. */
  readonly primaryRegion?: string;
  readonly regions: number;
  readonly multiRegionWrites: boolean;
  readonly consistency: Consistency;
  readonly containers: readonly ContainerPlan[];
  /** Account-level notes (defaults applied, conflicting settings). */
  readonly notes: readonly string[];
  /** Throughput that deploys only after a quota increase: the database's first, then by container. */
  readonly quotaIncreases: readonly QuotaIncrease[];
  /**
   * The dedicated gateway of the model's integrated cache (`Microsoft.DocumentDB/databaseAccounts/
   * services`, `cosmos/dedicated-gateway.ts`); absent without one, or on a serverless account.
   */
  readonly dedicatedGateway?: { readonly instanceSize: string; readonly instanceCount: number };
}

/**
 * Bounded staleness settings the templates use: 100,000 operations and 300 seconds, the
 * documented minimums for accounts with several regions.
 * Source: https://learn.microsoft.com/azure/cosmos-db/consistency-levels (checked 2026-11-22).
 */
export const BOUNDED_STALENESS = { maxStalenessPrefix: 100_000, maxIntervalInSeconds: 300 } as const;

function provisioned(
  throughput: Throughput,
  what: string,
  notes: string[],
): ProvisionedThroughput | undefined {
  switch (throughput.mode) {
    case "manual":
      if (throughput.rus === undefined) {
        notes.push(`${what}: manual throughput without RU/s; using the minimum ${MANUAL_MIN_RUS} RU/s.`);
      }
      return {
        kind: "manual",
        rus: deployable(throughput.rus ?? MANUAL_MIN_RUS, MANUAL_RUS_STEP, what, notes),
      };
    case "autoscale":
      if (throughput.maxRus === undefined) {
        notes.push(
          `${what}: autoscale without a maximum; using the smallest maximum ${AUTOSCALE_MIN_MAX_RUS} RU/s.`,
        );
      }
      return {
        kind: "autoscale",
        maxRus: deployable(throughput.maxRus ?? AUTOSCALE_MIN_MAX_RUS, AUTOSCALE_MAX_RUS_STEP, what, notes),
      };
    case "serverless":
    case "shared":
      return undefined;
    default:
      return throughput satisfies never;
  }
}

/**
 * RU/s the templates can carry: at most {@link MAX_PROVISIONED_RUS} (a 32-bit integer in the
 * management API, which Bicep, Terraform and the CLI all pass through), in the setting's steps. A
 * model that needs more is an error of the evaluation (`evaluate.overContainerMaximum`); the
 * templates then hold the largest value that deploys, and say so.
 */
function deployable(rus: number, step: number, what: string, notes: string[]): number {
  if (rus <= MAX_PROVISIONED_RUS) return rus;
  const capped = Math.floor(MAX_PROVISIONED_RUS / step) * step;
  notes.push(
    `${what}: the model asks for ${formatInteger(rus)} RU/s, more than the management API can hold (${formatInteger(MAX_PROVISIONED_RUS)}); capped at ${formatInteger(capped)} RU/s, which throttles this load. Spread it over more containers.`,
  );
  return capped;
}

/** RU/s a provisioned throughput asks for: the manual RU/s or the autoscale maximum. */
export function provisionedRus(throughput: ProvisionedThroughput): number {
  return throughput.kind === "manual" ? throughput.rus : throughput.maxRus;
}

/** The quota increase `throughput` needs, if it is over the default maximum (and a note saying so). */
function quotaIncrease(
  kind: QuotaIncrease["kind"],
  name: string,
  throughput: ProvisionedThroughput | undefined,
  notes: string[],
): QuotaIncrease[] {
  if (throughput === undefined) return [];
  const maximum = kind === "container" ? MAX_CONTAINER_RUS : MAX_SHARED_DATABASE_RUS;
  const rus = provisionedRus(throughput);
  if (rus <= maximum) return [];
  notes.push(
    `Quota increase needed: ${formatInteger(rus)} RU/s is over the default maximum of ${formatInteger(maximum)} RU/s per ${kind}: the deployment fails until the maximum is raised for this account by ${MAX_CONTAINER_RUS_TICKET} (${LIMIT_SOURCES.conceptsLimits}).`,
  );
  return [{ kind, name, rus, maximum }];
}

/**
 * One sentence naming the throughput that deploys only after a quota increase, or undefined.
 * @example quotaSummary(plan) // "Quota increase needed before deploying: container events (1,438,000 RU/s) is over ..."
 */
export function quotaSummary(plan: InfrastructurePlan): string | undefined {
  if (plan.quotaIncreases.length === 0) return undefined;
  const over = plan.quotaIncreases.map(
    (q) =>
      `${q.kind} ${q.name} (${formatInteger(q.rus)} RU/s, over the default maximum of ${formatInteger(q.maximum)} RU/s per ${q.kind})`,
  );
  return `Quota increase needed before deploying: ${over.join(", ")}; Azure refuses it until the maximum is raised for this account by ${MAX_CONTAINER_RUS_TICKET} (${LIMIT_SOURCES.conceptsLimits}).`;
}

/** Resolves what every artifact of `model` will contain. */
export function planInfrastructure(model: Model, options: InfrastructureOptions = {}): InfrastructurePlan {
  const notes: string[] = [];
  const effective = model.containers.map(
    (c) => [c, options.throughputByContainer?.[c.name] ?? c.throughput] as const,
  );
  const serverlessNames = effective.filter(([, t]) => t?.mode === "serverless").map(([c]) => c.name);
  const serverless = serverlessNames.length > 0;
  const provisionedNames = effective
    .filter(([, t]) => t !== undefined && t.mode !== "serverless")
    .map(([c]) => c.name);
  if (serverless && provisionedNames.length > 0) {
    notes.push(
      `Containers ${serverlessNames.join(", ")} are serverless: the account is serverless and the throughput of ` +
        `${provisionedNames.join(", ")} is ignored (a serverless account has no provisioned throughput).`,
    );
  }
  const regions = options.scale?.regions ?? 1;
  const names = options.scale?.regionNames ?? [];
  if (serverless && regions > 1) {
    notes.push("Serverless accounts run in a single region: the additional regions are left out.");
  }
  const sharedNames = effective.filter(([, t]) => t?.mode === "shared").map(([c]) => c.name);
  let databaseThroughput: ProvisionedThroughput | undefined;
  if (!serverless && (sharedNames.length > 0 || options.databaseThroughput !== undefined)) {
    const given = options.databaseThroughput;
    if (given === undefined || given.mode === "serverless" || given.mode === "shared") {
      notes.push(
        `Containers ${sharedNames.join(", ")} share the database throughput, which is not given: using the minimum ${MANUAL_MIN_RUS} RU/s manual.`,
      );
      databaseThroughput = { kind: "manual", rus: MANUAL_MIN_RUS };
    } else {
      databaseThroughput = provisioned(given, "database", notes);
    }
  }
  const databaseName = options.databaseName ?? "appdb";
  const quotaIncreases = quotaIncrease("database", databaseName, databaseThroughput, notes);
  const containers = effective.map(([container, throughput]): ContainerPlan => {
    const containerNotes: string[] = [];
    if (container.indexing.kind === "derived" && options.derivedIndexing?.[container.name] === undefined) {
      containerNotes.push(
        "Indexing is derived from the access patterns but no derived policy was given: the automatic policy (every path indexed) is used.",
      );
    }
    let resolved: ProvisionedThroughput | undefined;
    if (!serverless) {
      if (throughput === undefined) {
        containerNotes.push(
          "No throughput in the model: the service default applies. Run `cosmos-modeler evaluate` for a recommendation.",
        );
      } else {
        resolved = provisioned(throughput, "throughput", containerNotes);
      }
    }
    const modelDefinition = containerDefinitionOf(container, options.derivedIndexing?.[container.name]);
    const definition = withItemTtl(modelDefinition, container, options, containerNotes);
    quotaIncreases.push(...quotaIncrease("container", container.name, resolved, containerNotes));
    return { definition, ...(resolved === undefined ? {} : { throughput: resolved }), notes: containerNotes };
  });
  if (model.leases !== undefined) containers.push(leaseContainerPlan(model.leases, serverless));
  const singleRegion = serverless;
  const additionalRegions = singleRegion ? [] : names.slice(1);
  if (!singleRegion && regions > Math.max(1, names.length)) {
    notes.push(
      `The workload asks for ${regions} regions but names ${names.length}: add the missing region names to the additional locations.`,
    );
  }
  const gateway = model.integratedCache;
  if (gateway !== undefined && serverless)
    notes.push(
      "The model caches reads through a dedicated gateway, which a serverless account cannot have: the gateway is left out and those reads go to the database.",
    );
  const dedicatedGateway =
    gateway === undefined || serverless
      ? undefined
      : { instanceSize: GATEWAY_NODE_SIZES[gateway.size].instanceSize, instanceCount: gateway.nodes };
  const vectors = containers.some((c) => c.definition.vectorEmbeddingPolicy !== undefined);
  const texts = containers.some((c) => c.definition.fullTextPolicy !== undefined);
  const capabilities = [
    ...(serverless ? ["EnableServerless"] : []),
    ...(vectors ? [DEFAULT_VECTOR_SEARCH_FACTS.vectorCapability] : []),
    ...(texts ? [DEFAULT_VECTOR_SEARCH_FACTS.fullTextCapability] : []),
  ];
  if ((vectors || texts) && databaseThroughput !== undefined)
    notes.push(
      `Vector search is not available to containers of a shared-throughput database (${VECTOR_SEARCH_SOURCES.vectorIndexing}): give the search containers their own throughput.`,
    );
  return {
    ...(dedicatedGateway === undefined ? {} : { dedicatedGateway }),
    serverless,
    capabilities,
    databaseName,
    ...(databaseThroughput === undefined ? {} : { databaseThroughput }),
    additionalRegions,
    ...(names[0] === undefined ? {} : { primaryRegion: names[0] }),
    regions: singleRegion ? 1 : regions,
    multiRegionWrites: !singleRegion && (options.scale?.multiRegionWrites ?? false),
    consistency: options.scale?.consistency ?? "session",
    containers,
    notes,
    quotaIncreases,
  };
}

/**
 * Cosmos DB honours an item's `ttl` only when its container has TTL on (`defaultTtl`; -1: on,
 * with no default expiry). A container whose items carry their own `ttl` (item types' own,
 * soft-delete tombstones) and that the model gives no `defaultTtl` is created with -1, and says
 * why: otherwise its items would never expire (the evaluation's error `evaluate.ttlOff`).
 * Source: https://learn.microsoft.com/azure/cosmos-db/nosql/time-to-live (checked 2026-11-23).
 */
function withItemTtl(
  definition: ContainerDefinitionData,
  container: Model["containers"][number],
  options: InfrastructureOptions,
  notes: string[],
): ContainerDefinitionData {
  if (definition.defaultTtl !== undefined) return definition;
  const reasons =
    options.expiringItems?.[container.name] ??
    container.items.flatMap((item) =>
      item.ttl === undefined ? [] : [`${item.type} items set ttl ${item.ttl}`],
    );
  if (reasons.length === 0) return definition;
  notes.push(
    `Items carry their own ttl (${reasons.join("; ")}) but the model sets no defaultTtl: created with defaultTtl -1 (TTL on, no default expiry), without which Cosmos DB ignores the items' ttl. Set defaultTtl: -1 in the model (evaluate.ttlOff).`,
  );
  return { ...definition, defaultTtl: -1 };
}

/**
 * The lease container of the change-feed processors (`leases` in the model): partitioned by `/id`
 * like the lease container of Microsoft's change feed processor, the automatic indexing policy,
 * and the smallest autoscale setting (it scales down to a tenth of its maximum when idle, cheaper
 * than the minimum manual throughput, and keeps an account of autoscale containers zone-redundant
 * at no surcharge). It holds one small lease per feed range of each source
 * container; each processor writes a checkpoint per batch (at most one a second per lease while
 * changes flow) and renews its leases every 10 seconds (src/runtime/change-feed.ts).
 */
function leaseContainerPlan(name: string, serverless: boolean): ContainerPlan {
  return {
    definition: {
      id: name,
      partitionKey: { paths: ["/id"], kind: "Hash", version: 2 },
      indexingPolicy: AUTOMATIC_INDEXING_POLICY,
    },
    ...(serverless ? {} : { throughput: { kind: "autoscale", maxRus: AUTOSCALE_MIN_MAX_RUS } as const }),
    notes: [
      `The change-feed processors' lease container (leases: ${name}): one lease per feed range, a checkpoint per batch and a renewal every 10 s; autoscale up to ${formatInteger(AUTOSCALE_MIN_MAX_RUS)} RU/s, the smallest setting.`,
    ],
  };
}

/**
 * The container definitions of a model as JSON: an array of `@azure/cosmos` `ContainerDefinition`
 * objects (`database.containers.createIfNotExists(definition)` accepts each as is).
 */
export function renderContainerDefinitions(model: Model, options: InfrastructureOptions = {}): string {
  return `${JSON.stringify(
    planInfrastructure(model, options).containers.map((c) => c.definition),
    null,
    2,
  )}\n`;
}

/** The ARM/Bicep/CLI name of a consistency level. */
export function armConsistency(consistency: Consistency): string {
  switch (consistency) {
    case "strong":
      return "Strong";
    case "bounded":
      return "BoundedStaleness";
    case "session":
      return "Session";
    case "consistent-prefix":
      return "ConsistentPrefix";
    case "eventual":
      return "Eventual";
    default:
      return consistency satisfies never;
  }
}

/**
 * Text safe inside a single-line comment of any of the generated languages: control and
 * bidirectional characters (line breaks included) are written as visible `\uXXXX`, so user text
 * can neither end the comment nor read differently from what it is.
 */
export function commentText(text: string): string {
  return escapeControlCharacters(text);
}

/**
 * Control characters, line and paragraph separators and bidirectional formatting characters
 * (for `String.replace` only: global); see `common/safe-text`.
 */
export const CONTROL_CHARACTERS = UNSAFE_CHARACTERS;
