/**
 * Renders `main.bicep`: the Cosmos DB account with its production settings as parameters (backup
 * policy, zone redundancy, failover, key authentication, TLS, network access), its SQL database,
 * one container per model container (partition key incl. MultiHash v2, indexing policy, TTL,
 * unique keys, throughput) and data-plane role assignments.
 * Resource shapes: https://learn.microsoft.com/azure/templates/microsoft.documentdb/2024-11-15/databaseaccounts
 * (and .../sqldatabases, .../sqldatabases/containers, .../sqlroleassignments), checked 2026-11-24;
 * the properties written are checked in tests against `test/fixtures/iac-schemas/bicep-documentdb-2024-11-15.json`
 * (and a search container's against the extract of `FULL_TEXT_API_VERSION`).
 */
import type { ContainerDefinitionData } from "../planner/container-definition.js";
import { GATEWAY_SERVICE } from "../cosmos/dedicated-gateway.js";
import { DATA_CONTRIBUTOR_ROLE_ID, PUBLIC_NETWORK_ACCESS } from "../cosmos/account-settings.js";
import type { Model } from "../model/types.js";
import {
  BOUNDED_STALENESS,
  armConsistency,
  CONTROL_CHARACTERS,
  commentText,
  planInfrastructure,
  quotaSummary,
  type ContainerPlan,
  type InfrastructurePlan,
  type ProvisionedThroughput,
} from "./infrastructure.js";
import {
  ALL_VERSIONS_AND_DELETES_STEP,
  productionSettingsOf,
  type IacOptions,
  type ProductionSettings,
} from "./production-settings.js";

/** ARM API version of the Microsoft.DocumentDB resources (GA, listed on the template reference). */
export const DOCUMENTDB_API_VERSION = "2024-11-15";

/**
 * The API version of a container with a full-text policy or a vector index shard key. In the
 * Bicep types (Azure/bicep-types-az, read 2026-11-29) neither 2024-11-15 nor 2024-12-01-preview,
 * the version Microsoft's full-text samples deploy, has `fullTextPolicy`,
 * `indexingPolicy.fullTextIndexes` or a vector index's `vectorIndexShardKey`; 2025-10-15 (GA) has
 * all three. Checked in tests against the extract of each version
 * (test/fixtures/iac-schemas/bicep-documentdb-<version>.json).
 */
export const FULL_TEXT_API_VERSION = "2025-10-15";

/** The API version a container's resource needs. */
export function containerApiVersion(definition: ContainerDefinitionData): string {
  const sharded = definition.indexingPolicy.vectorIndexes?.some((v) => v.vectorIndexShardKey !== undefined);
  return definition.fullTextPolicy === undefined && sharded !== true
    ? DOCUMENTDB_API_VERSION
    : FULL_TEXT_API_VERSION;
}

/** A Bicep expression written as is (a parameter or variable reference). */
class Expression {
  constructor(readonly text: string) {}
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A Bicep string literal: `'it\'s'`; `${` cannot start an interpolation. */
export function bicepString(value: string): string {
  const escaped = value
    .replace(/\\/g, "\\\\")
    .replace(/'/g, "\\'")
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(/\t/g, "\\t")
    .replace(/\$\{/g, "\\${")
    .replace(CONTROL_CHARACTERS, (ch) => `\\u{${ch.charCodeAt(0).toString(16)}}`);
  return `'${escaped}'`;
}

type BicepValue =
  | string
  | number
  | boolean
  | Expression
  | readonly BicepValue[]
  | { readonly [key: string]: BicepValue | undefined };

function bicepValue(value: BicepValue, indent: string): string {
  if (value instanceof Expression) return value.text;
  if (typeof value === "string") return bicepString(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const items = value as readonly BicepValue[];
    if (items.length === 0) return "[]";
    return `[\n${items.map((v) => `${inner}${bicepValue(v, inner)}`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, BicepValue | undefined>).filter(
    (entry): entry is [string, BicepValue] => entry[1] !== undefined,
  );
  if (entries.length === 0) return "{}";
  const lines = entries.map(
    ([k, v]) => `${inner}${IDENTIFIER.test(k) ? k : bicepString(k)}: ${bicepValue(v, inner)}`,
  );
  return `{\n${lines.join("\n")}\n${indent}}`;
}

function throughputOptions(throughput: ProvisionedThroughput | undefined): BicepValue | undefined {
  if (throughput === undefined) return undefined;
  return throughput.kind === "manual"
    ? { throughput: throughput.rus }
    : { autoscaleSettings: { maxThroughput: throughput.maxRus } };
}

/** A parameter declaration with its decorators. */
function param(description: string, declaration: string, decorators: readonly string[] = []): string[] {
  return [`@description(${bicepString(description)})`, ...decorators, declaration, ""];
}

/** The production parameters (see production-settings.ts) with their defaults. */
function productionParams(settings: ProductionSettings): string[] {
  const allowed = bicepValue(settings.allowedBackupPolicies, "");
  return [
    ...param(
      `Backup policy: Continuous7Days (point-in-time restore, no backup-storage charge), Continuous30Days or Periodic.${settings.changeFeedMode === "allVersionsAndDeletes" ? " The change feed in all-versions-and-deletes mode requires continuous backup." : ""} An account can move from periodic to continuous, never back.`,
      `param backupPolicy string = ${bicepString(settings.backupPolicy)}`,
      [`@allowed(${allowed})`],
    ),
    ...param(
      `Replicas of each region spread over availability zones, in regions that have them; fixed when a region is added (${settings.zoneRedundancyReason}).`,
      `param zoneRedundant bool = ${settings.zoneRedundant}`,
    ),
    ...param(
      "Service-managed failover of the write region to the next failover priority (single write region).",
      `param automaticFailover bool = ${settings.automaticFailover}`,
    ),
    ...param(
      "Disable key (local) authentication: only Microsoft Entra ID with data-plane role assignments is accepted, and keys cannot change databases, containers or throughput.",
      `param disableLocalAuth bool = ${settings.disableLocalAuth}`,
    ),
    ...param(
      "Public network access; Disabled needs a private endpoint (not created here).",
      `param publicNetworkAccess string = ${bicepString(settings.publicNetworkAccess)}`,
      [`@allowed(${bicepValue(PUBLIC_NETWORK_ACCESS, "")})`],
    ),
    ...param(
      "Microsoft Entra object ids (applications' managed identities, users, groups) granted Cosmos DB Built-in Data Contributor on the account.",
      `param dataContributorPrincipalIds array = ${bicepValue(settings.dataContributorPrincipalIds, "")}`,
    ),
  ];
}

function accountResource(plan: InfrastructurePlan, settings: ProductionSettings): BicepValue {
  const consistency = armConsistency(plan.consistency);
  return {
    name: new Expression("accountName"),
    location: new Expression("location"),
    kind: "GlobalDocumentDB",
    properties: {
      databaseAccountOfferType: "Standard",
      consistencyPolicy:
        plan.consistency === "bounded"
          ? { defaultConsistencyLevel: consistency, ...BOUNDED_STALENESS }
          : { defaultConsistencyLevel: consistency },
      locations: new Expression(
        plan.serverless ? "primaryLocations" : "concat(primaryLocations, secondaryLocations)",
      ),
      enableMultipleWriteLocations: plan.multiRegionWrites,
      enableAutomaticFailover: new Expression("automaticFailover"),
      capabilities: plan.capabilities.map((name) => ({ name })),
      backupPolicy: new Expression("backupPolicy == 'Periodic' ? periodicBackup : continuousBackup"),
      disableLocalAuth: new Expression("disableLocalAuth"),
      disableKeyBasedMetadataWriteAccess: new Expression("disableLocalAuth"),
      minimalTlsVersion: settings.minimalTlsVersion,
      publicNetworkAccess: new Expression("publicNetworkAccess"),
    },
  };
}

/** `main.bicep` for a model. */
export function renderBicep(model: Model, options: IacOptions = {}): string {
  const plan = planInfrastructure(model, options);
  const settings = productionSettingsOf(plan, options.production);
  const lines: string[] = [
    "// Azure Cosmos DB for NoSQL: account, database and containers of the model.",
    "// Generated by cosmos-modeler. Deploy: az deployment group create -g <resource group> -f main.bicep -p accountName=<name>",
    "// Production settings (backup, zones, failover, key authentication, network, data access) are parameters; see docs/infrastructure.md.",
    ...plan.notes.map((n) => `// Note: ${commentText(n)}`),
    ...(quotaSummary(plan) === undefined ? [] : [`// ${commentText(quotaSummary(plan) ?? "")}`]),
    ...(settings.enableAllVersionsAndDeletesAfterDeployment
      ? [`// After deployment: ${commentText(ALL_VERSIONS_AND_DELETES_STEP)}`]
      : []),
    "",
    ...accountParams(plan),
    ...productionParams(settings),
    ...accountVariables(),
    `resource account 'Microsoft.DocumentDB/databaseAccounts@${DOCUMENTDB_API_VERSION}' = ${bicepValue(accountResource(plan, settings), "")}`,
    "",
    `resource database 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases@${DOCUMENTDB_API_VERSION}' = ${bicepValue(databaseResource(plan), "")}`,
    ...plan.containers.flatMap((container, index) => [
      "",
      `// Container ${commentText(container.definition.id)}`,
      ...container.notes.map((n) => `// Note: ${commentText(n)}`),
      `resource container${index} 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@${containerApiVersion(container.definition)}' = ${bicepValue(containerResource(container), "")}`,
    ]),
    "",
    ...dataContributorAssignments(),
    ...dedicatedGatewayResource(plan),
    "",
    "output accountEndpoint string = account.properties.documentEndpoint",
    ...(plan.dedicatedGateway === undefined
      ? []
      : [
          "// The endpoint the cached reads connect to (createDataAccess's options.cacheDatabase).",
          "output dedicatedGatewayEndpoint string = replace(account.properties.documentEndpoint, 'documents.azure.com', 'sqlx.cosmos.azure.com')",
        ]),
  ];
  return `${lines.join("\n")}\n`;
}

/** The account's name, regions and database name. */
function accountParams(plan: InfrastructurePlan): string[] {
  return [
    ...param(
      "Name of the Azure Cosmos DB account (3-44 lowercase letters, digits and hyphens).",
      "param accountName string",
      ["@minLength(3)", "@maxLength(44)"],
    ),
    ...param(
      "Region of the account (the first region, failover priority 0).",
      `param location string = ${plan.primaryRegion === undefined ? "resourceGroup().location" : bicepString(plan.primaryRegion)}`,
    ),
    ...param(
      `Further regions, in failover priority order.${plan.regions > 1 ? ` The workload asks for ${plan.regions} regions in all.` : ""}`,
      `param additionalLocations array = ${bicepValue(plan.additionalRegions, "")}`,
    ),
    ...param("Name of the SQL database.", `param databaseName string = ${bicepString(plan.databaseName)}`),
  ];
}

/** The account's locations (zone redundancy per parameter) and both backup policies. */
function accountVariables(): string[] {
  return [
    `var primaryLocations = ${bicepValue([{ locationName: new Expression("location"), failoverPriority: 0, isZoneRedundant: new Expression("zoneRedundant") }], "")}`,
    "",
    "var secondaryLocations = [for (name, i) in additionalLocations: {",
    "  locationName: name",
    "  failoverPriority: i + 1",
    "  isZoneRedundant: zoneRedundant",
    "}]",
    "",
    `var continuousBackup = ${bicepValue(
      {
        type: "Continuous",
        continuousModeProperties: {
          tier: new Expression("backupPolicy == 'Continuous30Days' ? 'Continuous30Days' : 'Continuous7Days'"),
        },
      },
      "",
    )}`,
    "",
    `var periodicBackup = ${bicepValue({ type: "Periodic" }, "")}`,
    "",
  ];
}

function databaseResource(plan: InfrastructurePlan): BicepValue {
  return {
    parent: new Expression("account"),
    name: new Expression("databaseName"),
    properties: {
      resource: { id: new Expression("databaseName") },
      options: throughputOptions(plan.databaseThroughput),
    },
  };
}

/** A container: partition key, indexing policy, TTL, unique keys and throughput. */
function containerResource(container: ContainerPlan): BicepValue {
  const d = container.definition;
  return {
    parent: new Expression("database"),
    name: d.id,
    properties: {
      resource: {
        id: d.id,
        partitionKey: {
          paths: d.partitionKey.paths,
          kind: d.partitionKey.kind,
          version: d.partitionKey.version,
        },
        indexingPolicy: {
          indexingMode: d.indexingPolicy.indexingMode,
          automatic: d.indexingPolicy.automatic,
          includedPaths: d.indexingPolicy.includedPaths.map((p) => ({ path: p.path })),
          excludedPaths: d.indexingPolicy.excludedPaths.map((p) => ({ path: p.path })),
          compositeIndexes: d.indexingPolicy.compositeIndexes?.map((paths) =>
            paths.map((p) => ({ path: p.path, order: p.order })),
          ),
          vectorIndexes: d.indexingPolicy.vectorIndexes?.map((v) => ({
            path: v.path,
            type: v.type,
            vectorIndexShardKey: v.vectorIndexShardKey,
          })),
          fullTextIndexes: d.indexingPolicy.fullTextIndexes?.map((t) => ({ path: t.path })),
        },
        vectorEmbeddingPolicy: d.vectorEmbeddingPolicy && {
          vectorEmbeddings: d.vectorEmbeddingPolicy.vectorEmbeddings.map((v) => ({
            path: v.path,
            dataType: v.dataType,
            dimensions: v.dimensions,
            distanceFunction: v.distanceFunction,
          })),
        },
        fullTextPolicy: d.fullTextPolicy && {
          defaultLanguage: d.fullTextPolicy.defaultLanguage,
          fullTextPaths: d.fullTextPolicy.fullTextPaths.map((t) => ({ path: t.path, language: t.language })),
        },
        defaultTtl: d.defaultTtl,
        uniqueKeyPolicy: d.uniqueKeyPolicy && {
          uniqueKeys: d.uniqueKeyPolicy.uniqueKeys.map((k) => ({ paths: k.paths })),
        },
      },
      options: throughputOptions(container.throughput),
    },
  };
}

/** Cosmos DB Built-in Data Contributor on the account for each principal of the parameter. */
function dataContributorAssignments(): string[] {
  const assignment: BicepValue = {
    parent: new Expression("account"),
    name: new Expression("guid(account.id, principalId, dataContributorRoleId)"),
    properties: {
      roleDefinitionId: new Expression("'${account.id}/sqlRoleDefinitions/${dataContributorRoleId}'"),
      principalId: new Expression("principalId"),
      scope: new Expression("account.id"),
    },
  };
  return [
    "// Cosmos DB Built-in Data Contributor for each principal (data-plane role-based access).",
    `var dataContributorRoleId = ${bicepString(DATA_CONTRIBUTOR_ROLE_ID)}`,
    "",
    `resource dataContributors 'Microsoft.DocumentDB/databaseAccounts/sqlRoleAssignments@${DOCUMENTDB_API_VERSION}' = [for principalId in dataContributorPrincipalIds: ${bicepValue(assignment, "")}]`,
  ];
}

/**
 * The dedicated gateway of the integrated cache, when the model has one: its endpoint is the
 * account's with `documents.azure.com` replaced by `sqlx.cosmos.azure.com` (output
 * `dedicatedGatewayEndpoint`; the generated code takes that database as `options.cacheDatabase`).
 */
function dedicatedGatewayResource(plan: InfrastructurePlan): string[] {
  const gateway = plan.dedicatedGateway;
  if (gateway === undefined) return [];
  const resource: BicepValue = {
    parent: new Expression("account"),
    name: GATEWAY_SERVICE.name,
    properties: {
      serviceType: GATEWAY_SERVICE.serviceType,
      dedicatedGatewayType: GATEWAY_SERVICE.dedicatedGatewayType,
      instanceSize: gateway.instanceSize,
      instanceCount: gateway.instanceCount,
    },
  };
  return [
    "",
    `// Dedicated gateway with the integrated cache (${gateway.instanceCount} x ${commentText(gateway.instanceSize)} per region): the cached reads connect to its endpoint (output dedicatedGatewayEndpoint).`,
    `resource dedicatedGateway '${GATEWAY_SERVICE.type}@${GATEWAY_SERVICE.apiVersion}' = ${bicepValue(resource, "")}`,
  ];
}
