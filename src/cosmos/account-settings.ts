/**
 * Azure Cosmos DB account settings a production deployment chooses (backup, zone redundancy,
 * failover, authentication, network), as the generated Bicep, Terraform and Azure CLI script use
 * them. Every fact names the Microsoft page it comes from and the date it was checked
 * ({@link ACCOUNT_SETTINGS_CHECKED}).
 */

/** Date on which the facts below were checked against their sources. */
export const ACCOUNT_SETTINGS_CHECKED = "2026-11-24";

const CONTINUOUS_BACKUP =
  "https://learn.microsoft.com/azure/cosmos-db/continuous-backup-restore-introduction";
const CHANGE_FEED_MODES = "https://learn.microsoft.com/azure/cosmos-db/nosql/change-feed-modes";
const RELIABILITY = "https://learn.microsoft.com/azure/reliability/reliability-cosmos-db";
const DATA_PLANE_ROLES =
  "https://learn.microsoft.com/azure/cosmos-db/nosql/security/reference-data-plane-roles";
const DATA_PLANE_ACTIONS =
  "https://learn.microsoft.com/azure/cosmos-db/nosql/security/reference-data-plane-actions";
const DISABLE_KEY_AUTH =
  "https://learn.microsoft.com/azure/cosmos-db/nosql/security/how-to-disable-key-based-authentication";
const ACCOUNT_TEMPLATE =
  "https://learn.microsoft.com/azure/templates/microsoft.documentdb/2024-11-15/databaseaccounts";

/**
 * The backup policies an account can have. Continuous backup (point-in-time restore) comes in a
 * 7-day and a 30-day tier; "the 7-day retention tier isn't charged" for backup storage (the 30-day
 * tier is, per GB and region), a restore is charged in both. Periodic backup keeps copies at an
 * interval (geo-redundant storage by default). An account can move from periodic to continuous,
 * never back.
 * Source: continuous-backup-restore-introduction (ms.date 2024-04-15), checked 2026-11-24.
 */
export const BACKUP_POLICIES = ["Continuous7Days", "Continuous30Days", "Periodic"] as const;
export type BackupPolicyName = (typeof BACKUP_POLICIES)[number];

/** The default: continuous, 7 days (point-in-time restore at no backup-storage charge). */
export const DEFAULT_BACKUP_POLICY: BackupPolicyName = "Continuous7Days";

/**
 * The all-versions-and-deletes change feed requires continuous backup on the account; it can
 * read only changes inside the continuous backup window. It is turned on for an existing account
 * (portal "Features", or `"enableAllVersionsAndDeletesChangeFeed": true` in the account's
 * properties with API version 2024-12-01-preview or later); "enabling this feature during account
 * creation isn't supported", and accounts with partition merge enabled aren't supported.
 * Source: change-feed-modes (ms.date 2025-04-08), checked 2026-11-24.
 */
export const ALL_VERSIONS_AND_DELETES = {
  requiresContinuousBackup: true,
  property: "enableAllVersionsAndDeletesChangeFeed",
  apiVersion: "2024-12-01-preview",
  source: CHANGE_FEED_MODES,
} as const;

/**
 * Zone redundancy is chosen per region when the region is added to the account (an existing
 * region must be removed and added back to change it; a serverless account only at creation).
 * "Regions where zone redundancy is enabled are charged at a premium. However, the premium pricing
 * for availability zones is waived for accounts configured with multi-region writes, and for
 * collections configured to use autoscale throughput mode." Only regions with availability zones
 * accept it.
 * Source: reliability-cosmos-db (ms.date 2026-04-09), checked 2026-11-24.
 */
export const ZONE_REDUNDANCY = {
  chosenWhenRegionIsAdded: true,
  premiumWaivedFor: ["multi-region writes", "autoscale throughput"],
  source: RELIABILITY,
} as const;

/**
 * Service-managed failover ("enableAutomaticFailover") moves the write region to the next
 * failover priority when Microsoft declares the write region down; it applies to accounts with a
 * single write region and several regions.
 * Source: reliability-cosmos-db (ms.date 2026-04-09), checked 2026-11-24.
 */
export const AUTOMATIC_FAILOVER_SOURCE = RELIABILITY;

/**
 * Cosmos DB Built-in Data Contributor, the data-plane role that reads and writes items, runs
 * queries and reads the change feed: role definition id `00000000-0000-0000-0000-000000000002`
 * (`Microsoft.DocumentDB/databaseAccounts/readMetadata`, `.../containers/*`,
 * `.../containers/items/*`).
 * Source: reference-data-plane-roles (ms.date 2024-10-01), checked 2026-11-24.
 */
export const DATA_CONTRIBUTOR_ROLE_ID = "00000000-0000-0000-0000-000000000002";
export const DATA_CONTRIBUTOR_ROLE_SOURCE = DATA_PLANE_ROLES;

/**
 * Data-plane role-based access has no action that creates databases or containers or changes
 * throughput (the data actions are items, queries, change feed, stored procedures and conflicts):
 * with key authentication disabled, every container, lease containers included, is created by
 * the control plane (these templates), never by the application at start-up.
 * Source: reference-data-plane-actions (ms.date 2024-10-01), checked 2026-11-24.
 */
export const DATA_PLANE_CREATES_NO_CONTAINERS_SOURCE = DATA_PLANE_ACTIONS;

/**
 * Disabling key-based authentication sets `disableLocalAuth` (only Microsoft Entra ID is
 * accepted) and `disableKeyBasedMetadataWriteAccess` (keys cannot change databases, containers or
 * throughput).
 * Source: how-to-disable-key-based-authentication (ms.date 2024-10-01), checked 2026-11-24.
 */
export const DISABLE_KEY_AUTH_SOURCE = DISABLE_KEY_AUTH;

/**
 * Minimal TLS version: `Tls12` ("the default value is Tls 1.2"; older values exist for old
 * clients only).
 * Source: Microsoft.DocumentDB/databaseAccounts 2024-11-15 template reference, checked 2026-11-24.
 */
export const MINIMAL_TLS_VERSION = "Tls12";
export const ACCOUNT_TEMPLATE_SOURCE = ACCOUNT_TEMPLATE;

/** Public network access values of the account (`SecuredByPerimeter` needs a network perimeter). */
export const PUBLIC_NETWORK_ACCESS = ["Enabled", "Disabled"] as const;
export type PublicNetworkAccess = (typeof PUBLIC_NETWORK_ACCESS)[number];

export const ACCOUNT_SETTINGS_SOURCES = [
  CONTINUOUS_BACKUP,
  CHANGE_FEED_MODES,
  RELIABILITY,
  DATA_PLANE_ROLES,
  DATA_PLANE_ACTIONS,
  DISABLE_KEY_AUTH,
  ACCOUNT_TEMPLATE,
] as const;
