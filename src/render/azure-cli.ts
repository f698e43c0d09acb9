/**
 * Renders `create-containers.sh`: an Azure CLI script that creates the account (with its
 * production settings as environment variables with defaults, checked before any change), the
 * database, the containers of a model and the data contributors' role assignments. Containers with one partition key path use
 * `az cosmosdb sql container create` (--partition-key-path, --partition-key-version 2, --idx,
 * --ttl, --unique-key-policy, --throughput / --max-throughput); containers with a hierarchical
 * key (MultiHash) are created with `az rest` and the full ARM definition, because older CLI
 * versions take a single --partition-key-path.
 * CLI reference: https://learn.microsoft.com/cli/azure/cosmosdb/sql/container (checked 2026-11-22).
 */
import { GATEWAY_SERVICE } from "../cosmos/dedicated-gateway.js";
import { hasUnsafeCharacters, UNSAFE_CHARACTERS } from "../common/safe-text.js";
import type { Model } from "../model/types.js";
import { ALL_VERSIONS_AND_DELETES, DATA_CONTRIBUTOR_ROLE_ID } from "../cosmos/account-settings.js";
import { containerApiVersion } from "./bicep.js";
import {
  BOUNDED_STALENESS,
  armConsistency,
  commentText,
  containerRequestBody,
  planInfrastructure,
  quotaSummary,
  type ContainerPlan,
  type InfrastructurePlan,
  type ProvisionedThroughput,
} from "./infrastructure.js";
import { productionSettingsOf, type IacOptions, type ProductionSettings } from "./production-settings.js";

/**
 * A shell word in single quotes: nothing inside is expanded. `it's` -> `'it'\''s'`. Text with
 * control or bidirectional characters is written in bash's `$'...'` quoting instead, each such
 * character as an escape (`$'a\x1bb'`), so the script shows what it passes.
 */
export function shellQuote(value: string): string {
  if (!hasUnsafeCharacters(value)) return `'${value.replace(/'/g, "'\\''")}'`;
  const escaped = value
    .replace(/[\\']/g, (ch) => `\\${ch}`)
    .replace(UNSAFE_CHARACTERS, (ch) => {
      const code = ch.charCodeAt(0);
      return code < 0x100
        ? `\\x${code.toString(16).padStart(2, "0")}`
        : `\\u${code.toString(16).padStart(4, "0")}`;
    });
  return `$'${escaped}'`;
}

function throughputFlags(throughput: ProvisionedThroughput | undefined): string[] {
  if (throughput === undefined) return [];
  return throughput.kind === "manual"
    ? [`--throughput ${throughput.rus}`]
    : [`--max-throughput ${throughput.maxRus}`];
}

function command(lines: readonly string[]): string {
  return lines.map((line, i) => (i < lines.length - 1 ? `${line} \\` : line)).join("\n  ");
}

function hashContainer(container: ContainerPlan): string {
  const d = container.definition;
  return command([
    "az cosmosdb sql container create",
    '--resource-group "$RESOURCE_GROUP"',
    '--account-name "$ACCOUNT_NAME"',
    '--database-name "$DATABASE_NAME"',
    `--name ${shellQuote(d.id)}`,
    `--partition-key-path ${shellQuote(d.partitionKey.paths[0] ?? "/id")}`,
    `--partition-key-version ${d.partitionKey.version}`,
    `--idx ${shellQuote(JSON.stringify(d.indexingPolicy))}`,
    ...(d.defaultTtl === undefined ? [] : [`--ttl ${d.defaultTtl}`]),
    ...(d.uniqueKeyPolicy === undefined
      ? []
      : [`--unique-key-policy ${shellQuote(JSON.stringify(d.uniqueKeyPolicy))}`]),
    ...throughputFlags(container.throughput),
  ]);
}

function multiHashContainer(container: ContainerPlan): string {
  const d = container.definition;
  const body = containerRequestBody(container);
  const url =
    '"https://management.azure.com/subscriptions/${SUBSCRIPTION_ID}/resourceGroups/${RESOURCE_GROUP}' +
    '/providers/Microsoft.DocumentDB/databaseAccounts/${ACCOUNT_NAME}/sqlDatabases/${DATABASE_NAME}/containers/"' +
    shellQuote(`${encodeURIComponent(d.id)}?api-version=${containerApiVersion(d)}`);
  return [
    d.partitionKey.kind === "MultiHash"
      ? "# Hierarchical partition key (MultiHash, version 2): created through the ARM REST API."
      : "# Vector embedding policy, vector indexes or full-text policy: created through the ARM REST API (the policies are fixed at creation).",
    command(["az rest --method put", `--url ${url}`, `--body ${shellQuote(JSON.stringify(body))}`]),
  ].join("\n");
}

/** The production settings as environment variables with defaults, checked before any change. */
function productionSettingLines(settings: ProductionSettings): string[] {
  const backups = settings.allowedBackupPolicies;
  const continuous = backups.filter((b) => b !== "Periodic");
  return [
    "# Production settings (see docs/infrastructure.md); each can be set in the environment.",
    `# Backup policy: ${backups.join(" | ")}. Continuous7Days: point-in-time restore, no backup-storage charge.${settings.changeFeedMode === "allVersionsAndDeletes" ? " The all-versions-and-deletes change feed requires continuous backup." : ""}`,
    `BACKUP_POLICY="\${BACKUP_POLICY:-${settings.backupPolicy}}"`,
    `# Zones in every region that has them, fixed when a region is added (${commentText(settings.zoneRedundancyReason)}).`,
    `ZONE_REDUNDANT="\${ZONE_REDUNDANT:-${settings.zoneRedundant}}"`,
    "# Service-managed failover of the write region (single write region).",
    `AUTOMATIC_FAILOVER="\${AUTOMATIC_FAILOVER:-${settings.automaticFailover}}"`,
    "# Key (local) authentication off: Microsoft Entra ID with data-plane role assignments only.",
    `DISABLE_LOCAL_AUTH="\${DISABLE_LOCAL_AUTH:-${settings.disableLocalAuth}}"`,
    "# ENABLED | DISABLED (DISABLED needs a private endpoint, not created here).",
    `PUBLIC_NETWORK_ACCESS="\${PUBLIC_NETWORK_ACCESS:-${settings.publicNetworkAccess.toUpperCase()}}"`,
    "# Space-separated Microsoft Entra object ids granted Cosmos DB Built-in Data Contributor.",
    `DATA_CONTRIBUTOR_PRINCIPAL_IDS="\${DATA_CONTRIBUTOR_PRINCIPAL_IDS:-${settings.dataContributorPrincipalIds.join(" ")}}"`,
    "",
    'case "$BACKUP_POLICY" in',
    `  ${continuous.join(" | ")}) backup=(--backup-policy-type Continuous --continuous-tier "$BACKUP_POLICY") ;;`,
    ...(backups.includes("Periodic") ? ["  Periodic) backup=(--backup-policy-type Periodic) ;;"] : []),
    `  *) echo "BACKUP_POLICY must be one of ${backups.join(", ")}" >&2; exit 1 ;;`,
    "esac",
    "for setting in ZONE_REDUNDANT AUTOMATIC_FAILOVER DISABLE_LOCAL_AUTH; do",
    '  case "${!setting}" in',
    "    true | false) ;;",
    '    *) echo "$setting must be true or false" >&2; exit 1 ;;',
    "  esac",
    "done",
    'case "$PUBLIC_NETWORK_ACCESS" in',
    "  ENABLED | DISABLED) ;;",
    '  *) echo "PUBLIC_NETWORK_ACCESS must be ENABLED or DISABLED" >&2; exit 1 ;;',
    "esac",
    'read -r -a data_contributors <<< "$DATA_CONTRIBUTOR_PRINCIPAL_IDS"',
    'if [ "$ZONE_REDUNDANT" = true ]; then zone=True; else zone=False; fi',
  ];
}

const ACCOUNT_ID_LINE =
  'ACCOUNT_ID="$(az cosmosdb show --resource-group "$RESOURCE_GROUP" --name "$ACCOUNT_NAME" --query id --output tsv)"';

/** Role assignments for the data contributors, and the all-versions-and-deletes step. */
function afterContainersLines(settings: ProductionSettings): string[] {
  return [
    "",
    "# Cosmos DB Built-in Data Contributor for each principal (data-plane role-based access).",
    ...(settings.enableAllVersionsAndDeletesAfterDeployment
      ? [ACCOUNT_ID_LINE]
      : ['if [ "${#data_contributors[@]}" -gt 0 ]; then', `  ${ACCOUNT_ID_LINE}`, "fi"]),
    'for principal in ${data_contributors[@]+"${data_contributors[@]}"}; do',
    "  " +
      command([
        "az cosmosdb sql role assignment create",
        '--resource-group "$RESOURCE_GROUP"',
        '--account-name "$ACCOUNT_NAME"',
        `--role-definition-id "$ACCOUNT_ID/sqlRoleDefinitions/${DATA_CONTRIBUTOR_ROLE_ID}"`,
        '--principal-id "$principal"',
        '--scope "$ACCOUNT_ID"',
      ]).replace(/\n {2}/g, "\n    "),
    "done",
    ...(settings.enableAllVersionsAndDeletesAfterDeployment
      ? [
          "",
          "# Turn on the all-versions-and-deletes change feed: not possible at account creation; takes up",
          "# to 30 minutes, during which the account accepts no other change.",
          command([
            "az rest --method patch",
            `--url "https://management.azure.com\${ACCOUNT_ID}?api-version=${ALL_VERSIONS_AND_DELETES.apiVersion}"`,
            `--body ${shellQuote(JSON.stringify({ properties: { [ALL_VERSIONS_AND_DELETES.property]: true } }))}`,
          ]),
        ]
      : []),
  ];
}

/**
 * How the script is run: the environment variables it requires (LOCATION only when the workload
 * names no region to default to), and `--quota-increased` when some throughput needs a quota
 * increase first.
 * @example scriptUsage(plan) // "RESOURCE_GROUP=<group> ACCOUNT_NAME=<name> LOCATION=<region> ./create-containers.sh"
 */
export function scriptUsage(plan: InfrastructurePlan): string {
  const location = plan.primaryRegion === undefined ? "LOCATION=<region>" : "[LOCATION=<region>]";
  const quota = plan.quotaIncreases.length > 0 ? ` [${QUOTA_FLAG}]` : "";
  return `RESOURCE_GROUP=<group> ACCOUNT_NAME=<name> ${location} ./create-containers.sh${quota}`;
}

/** The flag (or `QUOTA_INCREASED=true`) that lets the script provision throughput over the default maximum. */
export const QUOTA_FLAG = "--quota-increased";

/**
 * Throughput over the default maximum fails in the middle of a deployment, after the account was
 * created: the script refuses to start unless told the quota was raised (`--quota-increased` or
 * QUOTA_INCREASED=true), before any change.
 */
function quotaCheckLines(plan: InfrastructurePlan): string[] {
  if (plan.quotaIncreases.length === 0) return [];
  return [
    `# ${commentText(quotaSummary(plan) ?? "")}`,
    `# Run with ${QUOTA_FLAG} (or QUOTA_INCREASED=true) once it has been raised.`,
    'QUOTA_INCREASED="${QUOTA_INCREASED:-false}"',
    'for argument in "$@"; do',
    '  case "$argument" in',
    `    ${QUOTA_FLAG}) QUOTA_INCREASED=true ;;`,
    `    *) echo "unknown argument $argument (usage: ${scriptUsage(plan)})" >&2; exit 2 ;;`,
    "  esac",
    "done",
    'if [ "$QUOTA_INCREASED" != true ]; then',
    `  echo ${shellQuote(`${quotaSummary(plan) ?? ""} Run again with ${QUOTA_FLAG} (or QUOTA_INCREASED=true) once it has been.`)} >&2`,
    "  exit 1",
    "fi",
    "",
  ];
}

/**
 * A container the ARM REST API creates (`az rest` with its full definition): a hierarchical key,
 * or search policies, which `az cosmosdb sql container create` does not take and which cannot be
 * added after creation.
 */
function viaRest(container: ContainerPlan): boolean {
  const d = container.definition;
  return (
    d.partitionKey.kind === "MultiHash" ||
    d.vectorEmbeddingPolicy !== undefined ||
    d.fullTextPolicy !== undefined
  );
}

/** `create-containers.sh` for a model. */
export function renderAzureCli(model: Model, options: IacOptions = {}): string {
  const plan = planInfrastructure(model, options);
  const settings = productionSettingsOf(plan, options.production);
  const hasMultiHash = plan.containers.some(viaRest);
  const accountFlags = [
    "az cosmosdb create",
    '--resource-group "$RESOURCE_GROUP"',
    '--name "$ACCOUNT_NAME"',
    "--kind GlobalDocumentDB",
    `--default-consistency-level ${armConsistency(plan.consistency)}`,
    ...(plan.consistency === "bounded"
      ? [
          `--max-staleness-prefix ${BOUNDED_STALENESS.maxStalenessPrefix}`,
          `--max-interval ${BOUNDED_STALENESS.maxIntervalInSeconds}`,
        ]
      : []),
    '"${locations[@]}"',
    ...(plan.multiRegionWrites ? ["--enable-multiple-write-locations true"] : []),
    ...(plan.capabilities.length > 0 ? [`--capabilities ${plan.capabilities.join(" ")}`] : []),
    '"${backup[@]}"',
    '--enable-automatic-failover "$AUTOMATIC_FAILOVER"',
    '--disable-local-auth "$DISABLE_LOCAL_AUTH"',
    '--disable-key-based-metadata-write-access "$DISABLE_LOCAL_AUTH"',
    `--minimal-tls-version ${settings.minimalTlsVersion}`,
    '--public-network-access "$PUBLIC_NETWORK_ACCESS"',
  ];
  const lines: string[] = [
    "#!/usr/bin/env bash",
    "# Azure Cosmos DB for NoSQL: account, database and containers of the model.",
    `# Generated by cosmos-modeler. Usage: ${scriptUsage(plan)}`,
    "# Optional settings (DATABASE_NAME, the production settings below) are environment variables too.",
    ...plan.notes.map((n) => `# Note: ${commentText(n)}`),
    "set -euo pipefail",
    "",
    ...quotaCheckLines(plan),
    'RESOURCE_GROUP="${RESOURCE_GROUP:?set RESOURCE_GROUP to an existing resource group}"',
    'ACCOUNT_NAME="${ACCOUNT_NAME:?set ACCOUNT_NAME to the account name (3-44 lowercase letters, digits and hyphens)}"',
    ...(plan.primaryRegion === undefined
      ? ['LOCATION="${LOCATION:?set LOCATION to the region of the account}"']
      : [`DEFAULT_LOCATION=${shellQuote(plan.primaryRegion)}`, 'LOCATION="${LOCATION:-$DEFAULT_LOCATION}"']),
    `DEFAULT_DATABASE_NAME=${shellQuote(plan.databaseName)}`,
    'DATABASE_NAME="${DATABASE_NAME:-$DEFAULT_DATABASE_NAME}"',
    `# Further regions, in failover priority order.${plan.regions > 1 ? ` The workload asks for ${plan.regions} regions in all.` : ""}`,
    `ADDITIONAL_LOCATIONS=(${plan.additionalRegions.map(shellQuote).join(" ")})`,
    "",
    ...productionSettingLines(settings),
    ...(hasMultiHash
      ? ['SUBSCRIPTION_ID="${SUBSCRIPTION_ID:-$(az account show --query id --output tsv)}"']
      : []),
    "",
    'locations=(--locations regionName="$LOCATION" failoverPriority=0 isZoneRedundant="$zone")',
    "priority=1",
    'for region in ${ADDITIONAL_LOCATIONS[@]+"${ADDITIONAL_LOCATIONS[@]}"}; do',
    '  locations+=(--locations regionName="$region" failoverPriority="$priority" isZoneRedundant="$zone")',
    "  priority=$((priority + 1))",
    "done",
    "",
    command(accountFlags),
    "",
    command([
      "az cosmosdb sql database create",
      '--resource-group "$RESOURCE_GROUP"',
      '--account-name "$ACCOUNT_NAME"',
      '--name "$DATABASE_NAME"',
      ...throughputFlags(plan.databaseThroughput),
    ]),
  ];
  for (const container of plan.containers) {
    lines.push(
      "",
      `# Container ${commentText(container.definition.id)}`,
      ...container.notes.map((n) => `# Note: ${commentText(n)}`),
      viaRest(container) ? multiHashContainer(container) : hashContainer(container),
    );
  }
  lines.push(...afterContainersLines(settings), ...dedicatedGatewayLines(plan));
  return `${lines.join("\n")}\n`;
}

/** The dedicated gateway of the model's integrated cache (az cosmosdb service create). */
function dedicatedGatewayLines(plan: InfrastructurePlan): string[] {
  const gateway = plan.dedicatedGateway;
  if (gateway === undefined) return [];
  return [
    "",
    `# Dedicated gateway with the integrated cache (${gateway.instanceCount} x ${gateway.instanceSize} per region): the cached reads connect to its endpoint, the account's with documents.azure.com replaced by sqlx.cosmos.azure.com.`,
    command([
      "az cosmosdb service create",
      '--resource-group "$RESOURCE_GROUP"',
      '--account-name "$ACCOUNT_NAME"',
      `--name ${GATEWAY_SERVICE.name}`,
      `--kind ${GATEWAY_SERVICE.serviceType}`,
      `--count ${gateway.instanceCount}`,
      `--size ${shellQuote(gateway.instanceSize)}`,
    ]),
  ];
}
