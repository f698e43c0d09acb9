/**
 * Azure Cosmos DB for NoSQL limits used by the planner, the cost model and the design checks.
 * Every constant names the Microsoft page it comes from and the date it was checked
 * ({@link LIMITS_CHECKED}, unless the constant names a later date).
 */

/** Date on which the limits below were checked against their sources. */
export const LIMITS_CHECKED = "2026-11-22";

const CONCEPTS_LIMITS = "https://learn.microsoft.com/azure/cosmos-db/concepts-limits";
const PARTITIONING_OVERVIEW = "https://learn.microsoft.com/azure/cosmos-db/partitioning-overview";
const SCALING_BEST_PRACTICES =
  "https://learn.microsoft.com/azure/cosmos-db/scaling-provisioned-throughput-best-practices";
const AUTOSCALE_FAQ = "https://learn.microsoft.com/azure/cosmos-db/autoscale-faq";
const SERVERLESS = "https://learn.microsoft.com/azure/cosmos-db/serverless";
const HIERARCHICAL_KEYS = "https://learn.microsoft.com/azure/cosmos-db/hierarchical-partition-keys";
const TRANSACTIONAL_BATCH = "https://learn.microsoft.com/azure/cosmos-db/nosql/transactional-batch";
const RESOURCE_MODEL = "https://learn.microsoft.com/azure/cosmos-db/resource-model";
const UNDERSTAND_YOUR_BILL = "https://learn.microsoft.com/azure/cosmos-db/understand-your-bill";
const HOW_PRICING_WORKS = "https://learn.microsoft.com/azure/cosmos-db/how-pricing-works";
const QUERY_CONSTANTS = "https://learn.microsoft.com/azure/cosmos-db/nosql/query/constants";
const TIME_TO_LIVE = "https://learn.microsoft.com/azure/cosmos-db/nosql/time-to-live";
const THROUGHPUT_API =
  "https://learn.microsoft.com/powershell/module/az.cosmosdb/update-azcosmosdbsqlcontainerthroughput";
const AZURE_REGIONS = "https://azure.microsoft.com/explore/global-infrastructure/geographies";
const REQUEST_UNITS = "https://learn.microsoft.com/azure/cosmos-db/request-units";

/**
 * Largest item: 2 MB, measured as the UTF-8 length of the item's JSON.
 * Source: concepts-limits, checked 2026-11-22.
 */
export const MAX_ITEM_BYTES = 2 * 1024 * 1024;

/**
 * Longest item id: 1,023 bytes of UTF-8.
 * Source: concepts-limits (per-item limits), checked 2026-11-28.
 */
export const MAX_ID_BYTES = 1023;

/**
 * Longest partition key value: 2,048 bytes with large partition keys (the `version: 2` key
 * definition the generated infrastructure uses; 101 bytes otherwise), for each value of a
 * hierarchical key.
 * Source: concepts-limits (per-item limits), checked 2026-11-28.
 */
export const MAX_PARTITION_KEY_VALUE_BYTES = 2048;

/**
 * Largest logical partition (all items of one partition key value): 20 GB.
 * Source: concepts-limits and partitioning-overview, checked 2026-11-22.
 */
export const MAX_LOGICAL_PARTITION_GB = 20;

/**
 * Largest physical partition: 50 GB of storage.
 * Source: scaling-provisioned-throughput-best-practices (ms.date 2025-07-23), checked 2026-11-22.
 */
export const MAX_PHYSICAL_PARTITION_GB = 50;

/**
 * Most throughput one physical partition serves: 10,000 RU/s. A single logical partition lives
 * on one physical partition, so it can never get more than this.
 * Source: scaling-provisioned-throughput-best-practices (ms.date 2025-07-23), checked 2026-11-22.
 */
export const MAX_PHYSICAL_PARTITION_RUS = 10_000;

/**
 * Hierarchical partition keys: at most 3 levels (new containers only, NoSQL API only).
 * Source: hierarchical-partition-keys, checked 2026-11-22.
 */
export const MAX_HIERARCHICAL_KEY_LEVELS = 3;

/**
 * Autoscale scales between 10% and 100% of its maximum RU/s, and each hour is billed on the
 * highest RU/s reached, never less than 10% of the maximum.
 * Source: autoscale-faq (ms.date 2024-07-26), checked 2026-11-22.
 */
export const AUTOSCALE_MIN_FRACTION_OF_MAX = 0.1;

/**
 * Smallest autoscale maximum: 1,000 RU/s (so the floor is 100 RU/s).
 * Source: autoscale-faq (ms.date 2024-07-26), checked 2026-11-22.
 */
export const AUTOSCALE_MIN_MAX_RUS = 1_000;

/**
 * Autoscale storage limit: max RU/s / 10 GB (1,000 RU/s max holds 100 GB); above that the
 * maximum must be raised to storage GB x 10.
 * Source: autoscale-faq (ms.date 2024-07-26), checked 2026-11-22.
 */
export const AUTOSCALE_MAX_RUS_PER_GB = 10;

/**
 * Manual throughput minimum of a container: max(400, storage GB x 1, highest RU/s ever / 100).
 * Source: scaling-provisioned-throughput-best-practices and concepts-limits, checked 2026-11-22.
 */
export const MANUAL_MIN_RUS = 400;
/** RU/s that each GB stored adds to the manual minimum (see {@link MANUAL_MIN_RUS}). */
export const MANUAL_MIN_RUS_PER_GB = 1;
/**
 * Manual throughput is set in steps of 100 RU/s; an autoscale maximum in steps of 1,000 RU/s.
 * Source: concepts-limits and https://learn.microsoft.com/azure/cosmos-db/provision-throughput-autoscale,
 * checked 2026-11-22.
 */
export const MANUAL_RUS_STEP = 100;
/** See {@link MANUAL_RUS_STEP}. */
export const AUTOSCALE_MAX_RUS_STEP = 1_000;

/** Bytes in the GB that storage limits and prices count (binary: 1024^3). */
export const BYTES_PER_GB = 1024 ** 3;

/** The manual minimum is at least the highest RU/s ever provisioned divided by this. */
export const MANUAL_MIN_DIVISOR_OF_HIGHEST_EVER = 100;

/**
 * Serverless: at most 5,000 RU/s per physical partition, a single region, no minimum charge.
 * The serverless storage limit per container is not in the reference facts this project checked,
 * so it is not modeled (the physical-partition limits above still apply).
 * Source: serverless (ms.date 2023-03-16), checked 2026-11-22.
 */
export const SERVERLESS_MAX_PHYSICAL_PARTITION_RUS = 5_000;
/** Serverless accounts run in one Azure region. Source: serverless (2023-03-16), checked 2026-11-22. */
export const SERVERLESS_MAX_REGIONS = 1;
/**
 * A serverless container grows to 1 TB (20 physical partitions of 50 GB; its RU/s capacity grows
 * with them). Source: https://learn.microsoft.com/azure/cosmos-db/serverless-performance (the
 * table's last row, "<= 1 TB"), checked 2026-11-24.
 */
export const SERVERLESS_MAX_CONTAINER_GB = 1024;

/**
 * Most RU/s one container with dedicated throughput, or one database with shared throughput, can
 * be provisioned with by default: 1,000,000 (a manual RU/s or an autoscale maximum). More needs an
 * Azure support ticket ("Maximum RUs per container ... increase by filing an Azure support ticket").
 * Source: https://learn.microsoft.com/azure/cosmos-db/concepts-limits (provisioned throughput
 * table, footnote 1), checked 2026-11-24.
 */
export const MAX_CONTAINER_RUS = 1_000_000;
/** See {@link MAX_CONTAINER_RUS}. */
export const MAX_SHARED_DATABASE_RUS = 1_000_000;
/** What to ask for to go over {@link MAX_CONTAINER_RUS}, in the documentation's words. */
export const MAX_CONTAINER_RUS_TICKET =
  "an Azure support ticket to increase the maximum RUs per container (or per database for shared throughput)";

/**
 * Most RU/s any container or shared-throughput database can be given, support ticket or not:
 * 2,147,483,647 (2^31 - 1). The throughput and the autoscale maximum are 32-bit integers in the
 * Azure management API and its tools (`-Throughput <Int32>` and `-AutoscaleMaxThroughput <Int32>`
 * of Az.CosmosDB; `int? Throughput` of the .NET SDK's `ThroughputProperties`), so a larger value
 * cannot be written in a template or a command, let alone provisioned.
 * Source: https://learn.microsoft.com/powershell/module/az.cosmosdb/update-azcosmosdbsqlcontainerthroughput
 * and https://learn.microsoft.com/dotnet/api/microsoft.azure.cosmos.throughputproperties, checked
 * 2026-11-24.
 */
export const MAX_PROVISIONED_RUS = 2_147_483_647;

/**
 * Databases and containers one account holds: 500 together, a limit that cannot be increased.
 * Source: concepts-limits ("Resource limits": "Maximum number of databases & containers per
 * account 500 ... This limit cannot be increased"), checked 2026-11-24.
 */
export const MAX_ACCOUNT_CONTAINERS = 500;
/**
 * Containers one database with shared throughput holds: 25.
 * Source: concepts-limits ("Per-account limits"), checked 2026-11-24.
 */
export const MAX_SHARED_DATABASE_CONTAINERS = 25;

/**
 * Regions one account spans. Cosmos DB documents no limit of its own ("Maximum number of regions:
 * No limit (All Azure regions)"), so the bound is the number of Azure regions: Microsoft lists
 * "more than 60". 100 is above that count with room for the regions opened since, and still
 * refuses region counts no account could have.
 * Sources: concepts-limits ("Per-account limits") and
 * https://azure.microsoft.com/explore/global-infrastructure/geographies, checked 2026-11-24.
 */
export const MAX_ACCOUNT_REGIONS = 100;

/**
 * Largest storage of one container, derived: the storage itself is unlimited ("Maximum storage
 * per container: Unlimited"), but every GB stored needs at least {@link MANUAL_MIN_RUS_PER_GB}
 * RU/s of manual throughput (10 with autoscale), and no container can be given more than
 * {@link MAX_PROVISIONED_RUS}: 2,147,483,647 GB (about 2 EB).
 * Source: concepts-limits (the provisioned throughput table and the minimum throughput rules),
 * checked 2026-11-24.
 */
export const MAX_CONTAINER_STORAGE_GB = MAX_PROVISIONED_RUS / MANUAL_MIN_RUS_PER_GB;

/**
 * Most physical partitions one container can have, derived: a container has as many as its
 * storage needs at {@link MAX_PHYSICAL_PARTITION_GB} each or its RU/s at
 * {@link MAX_PHYSICAL_PARTITION_RUS} each, and both are bounded by {@link MAX_PROVISIONED_RUS}
 * (see {@link MAX_CONTAINER_STORAGE_GB}): ceil(2,147,483,647 / 50) = 42,949,673.
 */
export const MAX_PHYSICAL_PARTITIONS = Math.ceil(
  Math.max(
    MAX_CONTAINER_STORAGE_GB / MAX_PHYSICAL_PARTITION_GB,
    MAX_PROVISIONED_RUS / MAX_PHYSICAL_PARTITION_RUS,
  ),
);

/**
 * Most RU/s one account can be provisioned with in one region, derived: at most
 * {@link MAX_ACCOUNT_CONTAINERS} containers and databases, each with at most
 * {@link MAX_PROVISIONED_RUS}. Writes are applied in every region, so this bounds the writes of
 * the whole account; reads are served by the region they are sent to.
 */
export const MAX_ACCOUNT_RUS = MAX_ACCOUNT_CONTAINERS * MAX_PROVISIONED_RUS;

/**
 * Transactional batch: at most 100 operations, all on one logical partition, all or nothing.
 * Source: nosql/transactional-batch, checked 2026-11-22.
 */
export const MAX_TRANSACTIONAL_BATCH_OPERATIONS = 100;

/**
 * A patch request holds at most 10 operations (appending N records to a bucket's array takes
 * ceil(N / 10) patches). The data-access runtime, which imports nothing of the core, states the
 * same figure in `src/runtime/requests.ts`; a test keeps them equal.
 * Source: https://learn.microsoft.com/azure/cosmos-db/partial-document-update#supported-operations (checked 2026-11-23).
 */
export const MAX_PATCH_OPERATIONS = 10;

/**
 * Physical partitions created with a new container: manual RU/s / 6,000, autoscale (or shared
 * database throughput) max RU/s / 10,000, rounded up; raising RU/s later splits to
 * ceil(RU/s / 10,000).
 * Source: scaling-provisioned-throughput-best-practices (ms.date 2025-07-23), checked 2026-11-22.
 */
export const INITIAL_RUS_PER_PARTITION_MANUAL = 6_000;
/** See {@link INITIAL_RUS_PER_PARTITION_MANUAL}. */
export const INITIAL_RUS_PER_PARTITION_AUTOSCALE = 10_000;

/**
 * Bytes the system properties (`_rid`, `_self`, `_etag`, `_attachments`, `_ts`) add to every
 * stored item, besides the user's `id`. Estimated, not documented: the lengths of their usual
 * values (`_rid` 24 chars, `_self` ~58, `_etag` a quoted GUID ~40, `_attachments`
 * "attachments/", `_ts` 10 digits) plus the property names, quotes and commas come to about
 * 200 bytes, and the benchmark file (bench/data/ru-measurements.jsonl) lists the
 * documentation's "1 KB", "4 KB", "64 KB" and "100 KB" items as 819, 3891, 65331 and 102195
 * bytes of user JSON, i.e. nominal size minus 205 bytes.
 * Source: resource-model (the property list), checked 2026-11-22.
 */
export const SYSTEM_PROPERTIES_BYTES = 205;

/**
 * Bytes the planner gives the value of a key property it adds to an item (`id`, `type`, a
 * synthetic partition key): ids are usually GUIDs or composed keys of about this length.
 * Estimated, not documented (`planner/item-shape.ts`).
 */
export const KEY_PROPERTY_VALUE_BYTES = 40;

/**
 * The least every stored item adds to its record, whatever the model: the `id` and `type`
 * properties the planner gives every item (`"id":` and `"type":` with their quotes and comma,
 * and a value of {@link KEY_PROPERTY_VALUE_BYTES}: 94 bytes) and the system properties
 * ({@link SYSTEM_PROPERTIES_BYTES}): 299 bytes. A record larger than `MAX_ITEM_BYTES` minus this
 * fits in no item (`workload/check-references.ts`); partition key properties, copies, counters
 * and embeds a model adds come on top (`evaluate.itemTooLarge`).
 */
export const ITEM_OVERHEAD_BYTES =
  "id".length +
  4 +
  KEY_PROPERTY_VALUE_BYTES +
  "type".length +
  4 +
  KEY_PROPERTY_VALUE_BYTES +
  SYSTEM_PROPERTIES_BYTES;

/**
 * Hours in the month Microsoft's billing examples use (400 RU/s = $23.36 per 730-hour month).
 * Source: understand-your-bill (ms.date 2022-03-31), checked 2026-11-22.
 */
export const HOURS_PER_MONTH = 730;

/**
 * Seconds in that month (730 x 3,600 = 2,628,000, 30.4 days): the one month every figure uses,
 * from monthly growth and TTLs to the bill.
 */
export const SECONDS_PER_MONTH = HOURS_PER_MONTH * 3_600;

/**
 * Free tier: the first 1,000 RU/s and 25 GB of one account per subscription are free.
 * Source: how-pricing-works (ms.date 2025-06-25), checked 2026-11-22.
 */
export const FREE_TIER_RUS = 1_000;
/** See {@link FREE_TIER_RUS}. */
export const FREE_TIER_GB = 25;

/**
 * Largest whole number Cosmos DB holds exactly, 2^53 - 1 = 9,007,199,254,740,991: its numbers are
 * IEEE 754 double-precision floating-point numbers, which hold every integer up to this and not
 * all beyond (the range JSON numbers interoperate in, RFC 8259 section 6). A count, rate or size
 * above it could not be stored, counted or compared exactly by the service, so inputs are
 * refused above it; below it, every product of a few inputs stays finite.
 * Source: nosql/query/constants (ms.date 2024-02-27), checked 2026-11-23.
 */
export const MAX_EXACT_NUMBER = Number.MAX_SAFE_INTEGER;

/**
 * Largest time to live of an item or a container's default: 2,147,483,647 seconds (about 68
 * years). Source: nosql/time-to-live (ms.date 2024-08-08), checked 2026-11-23.
 */
export const MAX_TTL_SECONDS = 2_147_483_647;

/**
 * How a figure stands against its Cosmos DB limit: `ok` (under it with room), `near` (under it,
 * but within the margin below) or `over`. Every document and the report show these three levels
 * from the evaluation's typed checks, never recomputed.
 */
export type LimitStatus = "ok" | "near" | "over";

/**
 * RU/s of one (logical or physical) partition are near the 10,000 RU/s limit from 75% of it.
 * A judgement of this tool, not a documented Cosmos DB figure: the RU estimates carry a measured
 * band up to 1.17 (point reads) and 1.37 (inserts) times the estimate (90% of the calibration's
 * leave-one-source-out ratios, src/estimator/coefficients.ts `bands`), so a partition estimated at
 * 75% of the limit may need 0.75 x 1.37 = 103% of it at the top of the band; Microsoft documents throttling (429) at
 * 100% of a partition's RU/s and gives no lower alert threshold
 * (https://learn.microsoft.com/azure/cosmos-db/monitor-normalized-request-units, checked 2026-11-24).
 */
export const NEAR_PARTITION_RUS_SHARE = 0.75;

/**
 * The share of a partition's limits a design keeps under by default (`scale.targetUtilization`):
 * the hottest logical partition's RU/s at peak with every request at the top of its RU range, and
 * the largest logical partition's GB at the horizon, each at most 80% of 10,000 RU/s and of 20 GB.
 * A judgement of this tool, not a documented Cosmos DB figure: the margin left for traffic above
 * the stated peak and growth beyond the horizon, once the estimate's own error is counted (the
 * range). Microsoft's alert for logical partitions approaching 20 GB fires from 70%
 * (`NEAR_LOGICAL_PARTITION_GB_SHARE`), and it documents throttling (429) at 100% of a partition's
 * RU/s with no lower threshold (monitor-normalized-request-units, checked 2026-11-24).
 */
export const DEFAULT_TARGET_UTILIZATION = 0.8;

/**
 * A logical partition's storage is near the 20 GB limit from 70% of it (14 GB): the threshold of
 * Microsoft's alert for logical partition keys approaching 20 GB.
 * Source: https://learn.microsoft.com/azure/cosmos-db/how-to-alert-on-logical-partition-key-storage-size,
 * checked 2026-11-24.
 */
export const NEAR_LOGICAL_PARTITION_GB_SHARE = 0.7;

/**
 * A logical partition that would reach 20 GB within 30 days of writes at the peak rate is near the
 * limit whatever it holds today (a warning of the evaluation): a month is the time a team needs to
 * re-key a container (a new container and a copy of the data: partition keys cannot change).
 * A judgement of this tool. Source of the constraint: partitioning-overview, checked 2026-11-24.
 */
export const LOGICAL_PARTITION_GROWTH_WARNING_HOURS = 24 * 30;

/**
 * The status of `value` against `limit`: over it, near it from `nearShare` of it, else ok.
 * @example limitStatus(9_988, 10_000, NEAR_PARTITION_RUS_SHARE) // "near"
 */
export function limitStatus(value: number, limit: number, nearShare: number): LimitStatus {
  if (value > limit) return "over";
  return value >= limit * nearShare ? "near" : "ok";
}

/**
 * Characters Cosmos DB does not allow in a resource id (container names and item ids), and the
 * longest resource name. Sources: https://learn.microsoft.com/rest/api/cosmos-db/resources and
 * concepts-limits, checked 2026-11-22.
 */
export const FORBIDDEN_ID_CHARACTERS = ["/", "\\", "?", "#"] as const;
/** See {@link FORBIDDEN_ID_CHARACTERS}. */
export const MAX_RESOURCE_NAME_LENGTH = 255;

/**
 * Properties Cosmos DB writes itself on every item (system properties); a model cannot define them.
 * Source: resource-model, checked 2026-11-22.
 */
export const SYSTEM_PROPERTIES = ["_rid", "_self", "_etag", "_ts", "_attachments", "_lsn"] as const;

/**
 * RU of the cheapest point read (1 KB item) and of a 1 KB create: the least a request costs
 * (with {@link MAX_ACCOUNT_RUS}, MIN_READ_RU bounds the requests per second an account can serve).
 * Sources: https://learn.microsoft.com/azure/cosmos-db/optimize-cost-reads-writes (1 KB point read
 * = 1 RU) and https://learn.microsoft.com/azure/cosmos-db/plan-manage-costs (1 KB create = 5 RU),
 * checked 2026-11-22.
 */
export const MIN_READ_RU = 1;
/** See {@link MIN_READ_RU}. */
export const MIN_WRITE_RU = 5;

/** Where each limit comes from (for documents that cite their numbers). */
export const LIMIT_SOURCES = {
  conceptsLimits: CONCEPTS_LIMITS,
  partitioningOverview: PARTITIONING_OVERVIEW,
  scalingBestPractices: SCALING_BEST_PRACTICES,
  autoscaleFaq: AUTOSCALE_FAQ,
  serverless: SERVERLESS,
  hierarchicalPartitionKeys: HIERARCHICAL_KEYS,
  transactionalBatch: TRANSACTIONAL_BATCH,
  resourceModel: RESOURCE_MODEL,
  understandYourBill: UNDERSTAND_YOUR_BILL,
  howPricingWorks: HOW_PRICING_WORKS,
  queryConstants: QUERY_CONSTANTS,
  timeToLive: TIME_TO_LIVE,
  throughputApi: THROUGHPUT_API,
  azureRegions: AZURE_REGIONS,
  requestUnits: REQUEST_UNITS,
} as const;

/** All limits in one object, for code that prefers `LIMITS.maxItemBytes`. */
export const LIMITS = {
  checked: LIMITS_CHECKED,
  maxItemBytes: MAX_ITEM_BYTES,
  maxLogicalPartitionGB: MAX_LOGICAL_PARTITION_GB,
  maxPhysicalPartitionGB: MAX_PHYSICAL_PARTITION_GB,
  maxPhysicalPartitionRus: MAX_PHYSICAL_PARTITION_RUS,
  maxHierarchicalKeyLevels: MAX_HIERARCHICAL_KEY_LEVELS,
  autoscaleMinFractionOfMax: AUTOSCALE_MIN_FRACTION_OF_MAX,
  autoscaleMinMaxRus: AUTOSCALE_MIN_MAX_RUS,
  autoscaleMaxRusPerGB: AUTOSCALE_MAX_RUS_PER_GB,
  manualMinRus: MANUAL_MIN_RUS,
  manualMinRusPerGB: MANUAL_MIN_RUS_PER_GB,
  manualMinDivisorOfHighestEver: MANUAL_MIN_DIVISOR_OF_HIGHEST_EVER,
  serverlessMaxPhysicalPartitionRus: SERVERLESS_MAX_PHYSICAL_PARTITION_RUS,
  serverlessMaxRegions: SERVERLESS_MAX_REGIONS,
  serverlessMaxContainerGB: SERVERLESS_MAX_CONTAINER_GB,
  maxContainerRus: MAX_CONTAINER_RUS,
  maxSharedDatabaseRus: MAX_SHARED_DATABASE_RUS,
  maxTransactionalBatchOperations: MAX_TRANSACTIONAL_BATCH_OPERATIONS,
  initialRusPerPartitionManual: INITIAL_RUS_PER_PARTITION_MANUAL,
  initialRusPerPartitionAutoscale: INITIAL_RUS_PER_PARTITION_AUTOSCALE,
  systemPropertiesBytes: SYSTEM_PROPERTIES_BYTES,
  hoursPerMonth: HOURS_PER_MONTH,
  secondsPerMonth: SECONDS_PER_MONTH,
  freeTierRus: FREE_TIER_RUS,
  freeTierGB: FREE_TIER_GB,
  maxExactNumber: MAX_EXACT_NUMBER,
  maxTtlSeconds: MAX_TTL_SECONDS,
  maxProvisionedRus: MAX_PROVISIONED_RUS,
  maxAccountContainers: MAX_ACCOUNT_CONTAINERS,
  maxSharedDatabaseContainers: MAX_SHARED_DATABASE_CONTAINERS,
  maxAccountRegions: MAX_ACCOUNT_REGIONS,
  maxContainerStorageGB: MAX_CONTAINER_STORAGE_GB,
  maxPhysicalPartitions: MAX_PHYSICAL_PARTITIONS,
  maxAccountRus: MAX_ACCOUNT_RUS,
  nearPartitionRusShare: NEAR_PARTITION_RUS_SHARE,
  nearLogicalPartitionGBShare: NEAR_LOGICAL_PARTITION_GB_SHARE,
  logicalPartitionGrowthWarningHours: LOGICAL_PARTITION_GROWTH_WARNING_HOURS,
  maxResourceNameLength: MAX_RESOURCE_NAME_LENGTH,
  minReadRu: MIN_READ_RU,
  minWriteRu: MIN_WRITE_RU,
} as const;

/**
 * The lowest manual RU/s a container may be set to.
 * @example minimumManualRus(1_000) // 1000 (1 TB needs 1,000 RU/s); minimumManualRus(5) // 400
 */
export function minimumManualRus(storageGB: number, highestEverRus = 0): number {
  return Math.max(
    MANUAL_MIN_RUS,
    Math.ceil(storageGB * MANUAL_MIN_RUS_PER_GB),
    Math.ceil(highestEverRus / MANUAL_MIN_DIVISOR_OF_HIGHEST_EVER),
  );
}

/**
 * The lowest autoscale maximum RU/s that can hold `storageGB`: 1,000 RU/s or storage GB x 10.
 * @example minimumAutoscaleMaxRus(250) // 2500
 */
export function minimumAutoscaleMaxRus(storageGB: number): number {
  return Math.max(AUTOSCALE_MIN_MAX_RUS, Math.ceil(storageGB * AUTOSCALE_MAX_RUS_PER_GB));
}

/** The RU/s floor an autoscale container is billed at each hour: 10% of its maximum. */
export function autoscaleFloorRus(maxRus: number): number {
  return maxRus * AUTOSCALE_MIN_FRACTION_OF_MAX;
}

/**
 * Physical partitions of a container: the more of what its throughput and its storage need
 * (a new container gets RU/s / 6,000 partitions with manual throughput, RU/s / 10,000 with
 * autoscale; each physical partition holds at most 50 GB).
 * @example physicalPartitionsFor({ rus: 30_000, mode: "manual", storageGB: 10 }) // 5
 */
export function physicalPartitionsFor(input: {
  readonly rus: number;
  readonly mode: "manual" | "autoscale";
  readonly storageGB: number;
}): number {
  const perPartition =
    input.mode === "manual" ? INITIAL_RUS_PER_PARTITION_MANUAL : INITIAL_RUS_PER_PARTITION_AUTOSCALE;
  return Math.max(
    1,
    Math.ceil(input.rus / perPartition),
    Math.ceil(input.storageGB / MAX_PHYSICAL_PARTITION_GB),
  );
}
