/**
 * Renders `main.tf` for the azurerm provider (4.x, from 4.78.0): `azurerm_cosmosdb_account` with
 * its production settings as variables (backup policy, zone redundancy, failover, key
 * authentication, TLS, network access), `azurerm_cosmosdb_sql_database`, one
 * `azurerm_cosmosdb_sql_container` per model container (an azapi `azapi_resource` with the ARM
 * body for a container with vector or full-text policies, which azurerm cannot create) and
 * `azurerm_cosmosdb_sql_role_assignment` for the data contributors. The provider takes
 * `subscription_id` from a variable (azurerm 4.x requires one, or `ARM_SUBSCRIPTION_ID`).
 * Arguments: https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/cosmosdb_account
 * (and cosmosdb_sql_database, cosmosdb_sql_container, cosmosdb_sql_role_assignment), checked
 * 2026-11-24; every argument written is checked in tests against
 * `infrastructure-schemas/azurerm-4.78.0-cosmosdb.json`, extracted from the provider's source.
 */
import { DATA_CONTRIBUTOR_ROLE_ID } from "../cosmos/account-settings.js";
import { hclList, hclString, hclValue } from "./hcl.js";
import type { Model } from "../model/types.js";
import {
  BOUNDED_STALENESS,
  armConsistency,
  commentText,
  containerRequestBody,
  planInfrastructure,
  quotaSummary,
  type ContainerDefinitionData,
  type ContainerPlan,
  type InfrastructurePlan,
  type ProvisionedThroughput,
} from "./infrastructure.js";
import { containerApiVersion } from "./bicep.js";
import {
  ALL_VERSIONS_AND_DELETES_STEP,
  productionSettingsOf,
  type IacOptions,
  type ProductionSettings,
} from "./production-settings.js";

/**
 * The provider versions the file accepts: `local_authentication_enabled` (which replaced the
 * deprecated `local_authentication_disabled`) first appears in azurerm 4.78.0; 5.0 removes the
 * 4.x-only arguments. Source: the provider's CHANGELOG and
 * internal/services/cosmos/cosmosdb_account_resource.go at v4.78.0, checked 2026-11-24.
 */
export const AZURERM_VERSION_CONSTRAINT = "~> 4.78";

export { hclString };

/**
 * The azapi versions the file accepts when it creates a search container with `azapi_resource`:
 * 2.0 takes `body` as an HCL object (1.x wanted `jsonencode`, or dynamic properties from 1.13).
 * Source: "Announcing AzAPI 2.0", Azure Tools Blog, 2024-10-21 (checked 2026-11-29).
 */
export const AZAPI_VERSION_CONSTRAINT = "~> 2.0";

/**
 * Whether `main.tf` creates a container with azapi: `azurerm_cosmosdb_sql_container` (azurerm
 * 4.78) has no vector embedding policy, vector index or full-text arguments
 * (test/fixtures/iac-schemas/azurerm-4.78.0-cosmosdb.json), and the policies cannot be added
 * after creation.
 */
function needsAzapi(definition: ContainerDefinitionData): boolean {
  return definition.vectorEmbeddingPolicy !== undefined || definition.fullTextPolicy !== undefined;
}

function throughputLines(throughput: ProvisionedThroughput | undefined, indent: string): string[] {
  if (throughput === undefined) return [];
  return throughput.kind === "manual"
    ? [`${indent}throughput = ${throughput.rus}`]
    : [`${indent}autoscale_settings {`, `${indent}  max_throughput = ${throughput.maxRus}`, `${indent}}`];
}

function variable(
  name: string,
  type: string,
  description: string,
  defaultValue?: string,
  validation?: readonly string[],
): string[] {
  return [
    `variable "${name}" {`,
    `  type        = ${type}`,
    `  description = ${hclString(description)}`,
    ...(defaultValue === undefined ? [] : [`  default     = ${defaultValue}`]),
    ...(validation ?? []),
    "}",
    "",
  ];
}

function oneOf(name: string, values: readonly string[], what: string): string[] {
  return [
    "",
    "  validation {",
    `    condition     = contains(${hclList(values)}, var.${name})`,
    `    error_message = ${hclString(`${what} must be one of ${values.join(", ")}.`)}`,
    "  }",
  ];
}

/** The variables of the production settings, with their defaults. */
function productionVariables(settings: ProductionSettings): string[] {
  const feed =
    settings.changeFeedMode === "allVersionsAndDeletes"
      ? " The change feed in all-versions-and-deletes mode requires continuous backup."
      : "";
  return [
    ...variable(
      "backup_policy",
      "string",
      `Backup policy: Continuous7Days (point-in-time restore, no backup-storage charge), Continuous30Days or Periodic.${feed} An account can move from periodic to continuous, never back.`,
      hclString(settings.backupPolicy),
      oneOf("backup_policy", settings.allowedBackupPolicies, "backup_policy"),
    ),
    ...variable(
      "zone_redundant",
      "bool",
      `Replicas of each region spread over availability zones, in regions that have them; fixed when a region is added (${settings.zoneRedundancyReason}).`,
      String(settings.zoneRedundant),
    ),
    ...variable(
      "automatic_failover",
      "bool",
      "Service-managed failover of the write region to the next failover priority (single write region).",
      String(settings.automaticFailover),
    ),
    ...variable(
      "disable_local_auth",
      "bool",
      "Disable key (local) authentication: only Microsoft Entra ID with data-plane role assignments is accepted, and keys cannot change databases, containers or throughput.",
      String(settings.disableLocalAuth),
    ),
    ...variable(
      "public_network_access_enabled",
      "bool",
      "Public network access; false needs a private endpoint (not created here).",
      String(settings.publicNetworkAccess === "Enabled"),
    ),
    ...variable(
      "data_contributor_principal_ids",
      "list(string)",
      "Microsoft Entra object ids (applications' managed identities, users, groups) granted Cosmos DB Built-in Data Contributor on the account.",
      hclList(settings.dataContributorPrincipalIds),
    ),
  ];
}

/**
 * How the file is applied: every variable without a default (`location` has one only when the
 * workload names its regions) and the subscription (`subscription_id`, or ARM_SUBSCRIPTION_ID).
 * @example terraformApplyCommand(plan) // "terraform init && terraform apply -var subscription_id=<id> ... -var location=<region>"
 */
export function terraformApplyCommand(plan: InfrastructurePlan): string {
  return [
    "terraform init && terraform apply -var subscription_id=<id> -var account_name=<name> -var resource_group_name=<group>",
    ...(plan.primaryRegion === undefined ? ["-var location=<region>"] : []),
  ].join(" ");
}

function header(plan: InfrastructurePlan, settings: ProductionSettings): string[] {
  return [
    "# Azure Cosmos DB for NoSQL: account, database and containers of the model.",
    `# Generated by cosmos-modeler. ${terraformApplyCommand(plan)}`,
    "# Production settings (backup, zones, failover, key authentication, network, data access) are variables; see docs/infrastructure.md.",
    ...plan.notes.map((n) => `# Note: ${commentText(n)}`),
    ...(quotaSummary(plan) === undefined ? [] : [`# ${commentText(quotaSummary(plan) ?? "")}`]),
    ...(settings.enableAllVersionsAndDeletesAfterDeployment
      ? [`# After deployment: ${commentText(ALL_VERSIONS_AND_DELETES_STEP)}`]
      : []),
    "",
    "terraform {",
    "  required_providers {",
    "    azurerm = {",
    '      source  = "hashicorp/azurerm"',
    `      version = ${hclString(AZURERM_VERSION_CONSTRAINT)}`,
    "    }",
    ...(plan.containers.some((c) => needsAzapi(c.definition))
      ? [
          "    azapi = {",
          '      source  = "Azure/azapi"',
          `      version = ${hclString(AZAPI_VERSION_CONSTRAINT)}`,
          "    }",
        ]
      : []),
    "  }",
    "}",
    "",
    'provider "azurerm" {',
    "  features {}",
    "  subscription_id = var.subscription_id",
    "}",
    "",
    ...variable(
      "subscription_id",
      "string",
      "Subscription of the account (azurerm 4.x requires one); null reads ARM_SUBSCRIPTION_ID.",
      "null",
    ),
    ...variable("resource_group_name", "string", "Existing resource group of the account."),
    ...variable(
      "account_name",
      "string",
      "Name of the Azure Cosmos DB account (3-44 lowercase letters, digits and hyphens).",
    ),
    ...variable(
      "location",
      "string",
      "Region of the account (failover priority 0).",
      plan.primaryRegion === undefined ? undefined : hclString(plan.primaryRegion),
    ),
    ...variable(
      "additional_locations",
      "list(string)",
      `Further regions, in failover priority order.${plan.regions > 1 ? ` The workload asks for ${plan.regions} regions in all.` : ""}`,
      hclList(plan.additionalRegions),
    ),
    ...variable("database_name", "string", "Name of the SQL database.", hclString(plan.databaseName)),
    ...productionVariables(settings),
  ];
}

function accountBlock(plan: InfrastructurePlan, settings: ProductionSettings): string[] {
  const consistency = armConsistency(plan.consistency);
  return [
    'resource "azurerm_cosmosdb_account" "account" {',
    "  name                = var.account_name",
    "  location            = var.location",
    "  resource_group_name = var.resource_group_name",
    '  offer_type          = "Standard"',
    '  kind                = "GlobalDocumentDB"',
    "",
    `  multiple_write_locations_enabled   = ${plan.multiRegionWrites}`,
    "  automatic_failover_enabled         = var.automatic_failover",
    "  local_authentication_enabled       = !var.disable_local_auth",
    "  access_key_metadata_writes_enabled = !var.disable_local_auth",
    `  minimal_tls_version                = ${hclString(settings.minimalTlsVersion)}`,
    "  public_network_access_enabled      = var.public_network_access_enabled",
    "",
    "  consistency_policy {",
    `    consistency_level = ${hclString(consistency)}`,
    ...(plan.consistency === "bounded"
      ? [
          `    max_interval_in_seconds = ${BOUNDED_STALENESS.maxIntervalInSeconds}`,
          `    max_staleness_prefix    = ${BOUNDED_STALENESS.maxStalenessPrefix}`,
        ]
      : []),
    "  }",
    "",
    "  backup {",
    '    type = var.backup_policy == "Periodic" ? "Periodic" : "Continuous"',
    '    tier = var.backup_policy == "Periodic" ? null : var.backup_policy',
    "  }",
    "",
    "  geo_location {",
    "    location          = var.location",
    "    failover_priority = 0",
    "    zone_redundant    = var.zone_redundant",
    "  }",
    ...plan.capabilities.flatMap((name) => ["", "  capabilities {", `    name = ${hclString(name)}`, "  }"]),
    ...(plan.serverless
      ? []
      : [
          "",
          '  dynamic "geo_location" {',
          "    for_each = var.additional_locations",
          "    content {",
          "      location          = geo_location.value",
          "      failover_priority = geo_location.key + 1",
          "      zone_redundant    = var.zone_redundant",
          "    }",
          "  }",
        ]),
    "}",
  ];
}

/**
 * A container with search policies as an `azapi_resource`: the ARM resource on the API version
 * its definition needs, with the same body as the script's `az rest` (`containerRequestBody`).
 */
function azapiContainer(container: ContainerPlan, index: number): string[] {
  const d = container.definition;
  return [
    `# Container ${commentText(d.id)}: its vector embedding policy, vector indexes or full-text policy are not`,
    "# arguments of azurerm_cosmosdb_sql_container (azurerm 4.78) and cannot be added after creation:",
    "# created through the ARM API with azapi and the whole definition, as create-containers.sh does.",
    ...container.notes.map((n) => `# Note: ${commentText(n)}`),
    `resource "azapi_resource" "container_${index}" {`,
    `  type      = ${hclString(`Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@${containerApiVersion(d)}`)}`,
    `  name      = ${hclString(d.id)}`,
    "  parent_id = azurerm_cosmosdb_sql_database.database.id",
    `  body = ${hclValue(containerRequestBody(container), "  ")}`,
    "}",
  ];
}

/** `main.tf` for a model. */
export function renderTerraform(model: Model, options: IacOptions = {}): string {
  const plan = planInfrastructure(model, options);
  const settings = productionSettingsOf(plan, options.production);
  const lines: string[] = [...header(plan, settings), ...accountBlock(plan, settings)];
  lines.push(
    "",
    'resource "azurerm_cosmosdb_sql_database" "database" {',
    "  name                = var.database_name",
    "  resource_group_name = azurerm_cosmosdb_account.account.resource_group_name",
    "  account_name        = azurerm_cosmosdb_account.account.name",
    ...throughputLines(plan.databaseThroughput, "  "),
    "}",
  );
  plan.containers.forEach((container, index) => {
    const d = container.definition;
    const policy = d.indexingPolicy;
    if (needsAzapi(d)) {
      lines.push("", ...azapiContainer(container, index));
      return;
    }
    lines.push(
      "",
      `# Container ${commentText(d.id)}`,
      ...container.notes.map((n) => `# Note: ${commentText(n)}`),
      `resource "azurerm_cosmosdb_sql_container" "container_${index}" {`,
      `  name                  = ${hclString(d.id)}`,
      "  resource_group_name   = azurerm_cosmosdb_account.account.resource_group_name",
      "  account_name          = azurerm_cosmosdb_account.account.name",
      "  database_name         = azurerm_cosmosdb_sql_database.database.name",
      `  partition_key_paths   = ${hclList(d.partitionKey.paths)}`,
      `  partition_key_kind    = ${hclString(d.partitionKey.kind)}`,
      `  partition_key_version = ${d.partitionKey.version}`,
      ...(d.defaultTtl === undefined ? [] : [`  default_ttl           = ${d.defaultTtl}`]),
      ...throughputLines(container.throughput, "  "),
      "",
      "  indexing_policy {",
      `    indexing_mode = ${hclString(policy.indexingMode)}`,
      ...policy.includedPaths.flatMap((p) => [
        "",
        "    included_path {",
        `      path = ${hclString(p.path)}`,
        "    }",
      ]),
      ...policy.excludedPaths.flatMap((p) => [
        "",
        "    excluded_path {",
        `      path = ${hclString(p.path)}`,
        "    }",
      ]),
      ...(policy.compositeIndexes ?? []).flatMap((paths) => [
        "",
        "    composite_index {",
        ...paths.flatMap((p) => [
          "      index {",
          `        path  = ${hclString(p.path)}`,
          `        order = ${hclString(p.order)}`,
          "      }",
        ]),
        "    }",
      ]),
      "  }",
      ...(d.uniqueKeyPolicy?.uniqueKeys ?? []).flatMap((k) => [
        "",
        "  unique_key {",
        `    paths = ${hclList(k.paths)}`,
        "  }",
      ]),
      "}",
    );
  });
  lines.push(
    "",
    "# Cosmos DB Built-in Data Contributor for each principal (data-plane role-based access).",
    'resource "azurerm_cosmosdb_sql_role_assignment" "data_contributor" {',
    "  for_each            = toset(var.data_contributor_principal_ids)",
    "  resource_group_name = azurerm_cosmosdb_account.account.resource_group_name",
    "  account_name        = azurerm_cosmosdb_account.account.name",
    `  role_definition_id  = "\${azurerm_cosmosdb_account.account.id}/sqlRoleDefinitions/${DATA_CONTRIBUTOR_ROLE_ID}"`,
    "  principal_id        = each.value",
    "  scope               = azurerm_cosmosdb_account.account.id",
    "}",
    ...(plan.dedicatedGateway === undefined
      ? []
      : [
          "",
          `# Dedicated gateway with the integrated cache (${plan.dedicatedGateway.instanceCount} x ${plan.dedicatedGateway.instanceSize} per region): the cached reads connect to its endpoint (output dedicated_gateway_endpoint).`,
          'resource "azurerm_cosmosdb_sql_dedicated_gateway" "gateway" {',
          "  cosmosdb_account_id = azurerm_cosmosdb_account.account.id",
          `  instance_size       = "${plan.dedicatedGateway.instanceSize}"`,
          `  instance_count      = ${plan.dedicatedGateway.instanceCount}`,
          "}",
        ]),
    "",
    'output "account_endpoint" {',
    "  value = azurerm_cosmosdb_account.account.endpoint",
    "}",
    ...(plan.dedicatedGateway === undefined
      ? []
      : [
          "",
          "# The endpoint the cached reads connect to (createDataAccess's options.cacheDatabase).",
          'output "dedicated_gateway_endpoint" {',
          '  value      = replace(azurerm_cosmosdb_account.account.endpoint, "documents.azure.com", "sqlx.cosmos.azure.com")',
          "  depends_on = [azurerm_cosmosdb_sql_dedicated_gateway.gateway]",
          "}",
        ]),
  );
  return `${lines.join("\n")}\n`;
}
