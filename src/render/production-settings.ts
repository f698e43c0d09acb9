/**
 * The production settings the Bicep, Terraform and Azure CLI artifacts share: backup policy, zone
 * redundancy, service-managed failover, key authentication, minimal TLS, public network access
 * and the principals granted data access. Each is a parameter of the artifact; this module
 * decides its default and the reason, once, so the three forms agree.
 */
import {
  ALL_VERSIONS_AND_DELETES,
  BACKUP_POLICIES,
  DEFAULT_BACKUP_POLICY,
  MINIMAL_TLS_VERSION,
  type BackupPolicyName,
  type PublicNetworkAccess,
} from "../cosmos/account-settings.js";
import type { InfrastructureOptions, InfrastructurePlan } from "./infrastructure.js";

/** How the application reads the change feed (the model will carry it; until then an option). */
export type ChangeFeedMode = "latestVersion" | "allVersionsAndDeletes";

/** Overrides of the defaults; every field is optional. */
export interface ProductionOptions {
  /** "allVersionsAndDeletes" requires continuous backup: "Periodic" is then not offered. */
  readonly changeFeedMode?: ChangeFeedMode;
  readonly backupPolicy?: BackupPolicyName;
  readonly zoneRedundant?: boolean;
  readonly automaticFailover?: boolean;
  readonly disableLocalAuth?: boolean;
  readonly publicNetworkAccess?: PublicNetworkAccess;
  /** Microsoft Entra object ids granted Cosmos DB Built-in Data Contributor. */
  readonly dataContributorPrincipalIds?: readonly string[];
}

/** What the infrastructure renderers take: the plan's options plus the production settings. */
export interface IacOptions extends InfrastructureOptions {
  readonly production?: ProductionOptions;
}

/** The production settings of an account, each the default of a parameter of the artifacts. */
export interface ProductionSettings {
  readonly changeFeedMode: ChangeFeedMode;
  /** The backup policies the parameter allows (continuous only for all versions and deletes). */
  readonly allowedBackupPolicies: readonly BackupPolicyName[];
  readonly backupPolicy: BackupPolicyName;
  readonly zoneRedundant: boolean;
  /** Why zone redundancy defaults to what it does (the price rule). */
  readonly zoneRedundancyReason: string;
  readonly automaticFailover: boolean;
  readonly disableLocalAuth: boolean;
  readonly minimalTlsVersion: typeof MINIMAL_TLS_VERSION;
  readonly publicNetworkAccess: PublicNetworkAccess;
  readonly dataContributorPrincipalIds: readonly string[];
  /** The change feed needs a step after deployment (all versions and deletes). */
  readonly enableAllVersionsAndDeletesAfterDeployment: boolean;
}

/**
 * Zone redundancy costs a premium except for multi-region-write accounts and autoscale
 * throughput (see `ZONE_REDUNDANCY`). It defaults to on where it costs nothing more, so the bill
 * the evaluation shows stays the bill; elsewhere it is a parameter to turn on knowingly.
 */
function zoneRedundancyDefault(plan: InfrastructurePlan): { readonly on: boolean; readonly reason: string } {
  if (plan.serverless) {
    return {
      on: false,
      reason:
        "default off: a serverless account pays the zone-redundancy premium, and gets zones only at creation",
    };
  }
  if (plan.multiRegionWrites) {
    return { on: true, reason: "default on: the premium is waived for accounts with multi-region writes" };
  }
  const throughputs = [
    ...plan.containers.map((c) => c.throughput),
    ...(plan.databaseThroughput === undefined ? [] : [plan.databaseThroughput]),
  ].filter((t) => t !== undefined);
  const everyContainerProvisioned = plan.containers.every(
    (c) => c.throughput !== undefined || plan.databaseThroughput !== undefined,
  );
  if (everyContainerProvisioned && throughputs.every((t) => t.kind === "autoscale")) {
    return {
      on: true,
      reason: "default on: the premium is waived for autoscale throughput, which every container uses",
    };
  }
  return {
    on: false,
    reason:
      "default off: manual throughput in a single write region pays the zone-redundancy premium, which the evaluated bill does not include",
  };
}

/** The production settings of `plan` with `options` applied over the defaults. */
export function productionSettingsOf(
  plan: InfrastructurePlan,
  options: ProductionOptions = {},
): ProductionSettings {
  const changeFeedMode = options.changeFeedMode ?? "latestVersion";
  const allowedBackupPolicies: readonly BackupPolicyName[] =
    changeFeedMode === "allVersionsAndDeletes"
      ? BACKUP_POLICIES.filter((p) => p !== "Periodic")
      : BACKUP_POLICIES;
  const requested = options.backupPolicy ?? DEFAULT_BACKUP_POLICY;
  const backupPolicy = allowedBackupPolicies.includes(requested) ? requested : DEFAULT_BACKUP_POLICY;
  const zone = zoneRedundancyDefault(plan);
  const zoneRedundant = options.zoneRedundant ?? zone.on;
  return {
    changeFeedMode,
    allowedBackupPolicies,
    backupPolicy,
    zoneRedundant,
    zoneRedundancyReason:
      options.zoneRedundant === undefined ? zone.reason : `set to ${options.zoneRedundant ? "on" : "off"}`,
    // Service-managed failover applies to single-write-region accounts.
    automaticFailover: options.automaticFailover ?? !plan.multiRegionWrites,
    disableLocalAuth: options.disableLocalAuth ?? true,
    minimalTlsVersion: MINIMAL_TLS_VERSION,
    publicNetworkAccess: options.publicNetworkAccess ?? "Enabled",
    dataContributorPrincipalIds: options.dataContributorPrincipalIds ?? [],
    enableAllVersionsAndDeletesAfterDeployment: changeFeedMode === "allVersionsAndDeletes",
  };
}

/**
 * The step after deployment that turns on the all-versions-and-deletes change feed (it cannot be
 * turned on at account creation; see `ALL_VERSIONS_AND_DELETES`).
 */
export const ALL_VERSIONS_AND_DELETES_STEP =
  `turn on the all-versions-and-deletes change feed (it cannot be turned on at creation): portal > Features, or ` +
  `az rest --method patch --url "https://management.azure.com<account id>?api-version=${ALL_VERSIONS_AND_DELETES.apiVersion}" ` +
  `--body '{"properties":{"${ALL_VERSIONS_AND_DELETES.property}":true}}'`;
