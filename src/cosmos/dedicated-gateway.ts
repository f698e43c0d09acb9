/**
 * Facts about the dedicated gateway and its integrated cache (Azure Cosmos DB for NoSQL), each
 * with its source and the date it was checked. Their prices per node-hour are in the price table
 * (`cosmos/prices.ts`, `dedicatedGateway...PerNodeHour`), overridable with `--prices`.
 */
import type { Consistency } from "./consistency.js";

/** Date on which the facts below were checked against their sources. */
export const DEDICATED_GATEWAY_CHECKED = "2026-11-28";

const DEDICATED_GATEWAY = "https://learn.microsoft.com/azure/cosmos-db/dedicated-gateway";
const INTEGRATED_CACHE = "https://learn.microsoft.com/azure/cosmos-db/integrated-cache";
const SERVICES_TEMPLATE =
  "https://learn.microsoft.com/azure/templates/microsoft.documentdb/2024-11-15/databaseaccounts/services";

/** The node sizes a dedicated gateway can be provisioned in (all nodes of a cluster alike). */
export type GatewaySize = "D4s" | "D8s" | "D16s";

export const GATEWAY_SIZES: readonly GatewaySize[] = ["D4s", "D8s", "D16s"];

export interface GatewayNodeSize {
  readonly size: GatewaySize;
  readonly vCpus: number;
  readonly memoryGB: number;
  /** Memory the integrated cache uses: about half of the node's. */
  readonly cacheGB: number;
  /** The value of `instanceSize` in the management API, Bicep, Terraform (azapi) and the CLI. */
  readonly instanceSize: `Cosmos.${GatewaySize}`;
}

/**
 * Share of a node's memory the integrated cache uses: "approximately 50% of the memory and the
 * rest is reserved for metadata and routing requests to backend partitions".
 * Source: dedicated-gateway (ms.date 2024-10-08), checked 2026-11-28.
 */
export const CACHE_SHARE_OF_MEMORY = 0.5;

/**
 * The sizes and their vCPU and memory: D4s 4 vCPU 16 GB, D8s 8 vCPU 32 GB, D16s 16 vCPU 64 GB.
 * A size cannot be changed once created (the cluster is deprovisioned and provisioned again).
 * Source: dedicated-gateway (ms.date 2024-10-08), checked 2026-11-28; instance sizes
 * `Cosmos.D4s | Cosmos.D8s | Cosmos.D16s` from the services template (API 2024-11-15).
 */
export const GATEWAY_NODE_SIZES: Readonly<Record<GatewaySize, GatewayNodeSize>> = {
  D4s: {
    size: "D4s",
    vCpus: 4,
    memoryGB: 16,
    cacheGB: 16 * CACHE_SHARE_OF_MEMORY,
    instanceSize: "Cosmos.D4s",
  },
  D8s: {
    size: "D8s",
    vCpus: 8,
    memoryGB: 32,
    cacheGB: 32 * CACHE_SHARE_OF_MEMORY,
    instanceSize: "Cosmos.D8s",
  },
  D16s: {
    size: "D16s",
    vCpus: 16,
    memoryGB: 64,
    cacheGB: 64 * CACHE_SHARE_OF_MEMORY,
    instanceSize: "Cosmos.D16s",
  },
};

/**
 * Nodes for production: "for production, you should provision three or more nodes for high
 * availability" (one node is for development). The issue asked for 2; the page says 3, and the
 * design follows the page. Source: dedicated-gateway (ms.date 2024-10-08), checked 2026-11-28.
 */
export const MIN_PRODUCTION_GATEWAY_NODES = 3;

/**
 * Nodes a dedicated gateway cluster may have without a support request: "up to five nodes by
 * default". Source: dedicated-gateway (ms.date 2024-10-08), checked 2026-11-28.
 */
export const MAX_GATEWAY_NODES = 5;

/**
 * Only reads at session or eventual consistency use the integrated cache; consistent prefix,
 * bounded staleness and strong reads bypass it and are served (and charged) by the backend.
 * Source: integrated-cache, "Integrated cache consistency" (ms.date 2025-06-30), checked 2026-11-28.
 */
export const CACHEABLE_CONSISTENCIES: readonly Consistency[] = ["session", "eventual"];

/**
 * Point reads and queries that hit the integrated cache are charged 0 RU; a miss is served by the
 * backend at its full charge. Each node has its own cache: a key cached on one node is not
 * necessarily cached on the others, and any node may route any request. Entries are evicted
 * least recently used when the cache is full; a cached answer is returned only while it is
 * younger than the request's `MaxIntegratedCacheStaleness` (0 to 10 years, default 5 minutes).
 * Only gateway-mode connections to the dedicated gateway endpoint use it.
 * Source: integrated-cache (ms.date 2025-06-30) and dedicated-gateway (ms.date 2024-10-08),
 * checked 2026-11-28.
 */
export const CACHE_HIT_RU = 0;

/** The largest `MaxIntegratedCacheStaleness`: 10 years (integrated-cache, checked 2026-11-28). */
export const MAX_INTEGRATED_CACHE_STALENESS_SECONDS = 10 * 365 * 24 * 3_600;

/**
 * In an account with several regions, "identical dedicated gateway clusters are provisioned in
 * each region": the nodes (and their bill) are multiplied by the regions.
 * Source: dedicated-gateway, "Dedicated gateway in multi-region accounts", checked 2026-11-28.
 */
export const GATEWAY_CLUSTER_PER_REGION = true;

/**
 * The management resource: `Microsoft.DocumentDB/databaseAccounts/services`, named
 * `SqlDedicatedGateway`, with `serviceType: 'SqlDedicatedGateway'`, `dedicatedGatewayType:
 * 'IntegratedCache'`, `instanceSize` and `instanceCount` (int, at least 0). API 2024-11-15, the
 * version the rest of the Bicep uses. Source: the services template (below) and the generated
 * Bicep types of Azure/bicep-types-az (microsoft.documentdb/2024-11-15/types.md), checked 2026-11-28.
 */
export const GATEWAY_SERVICE = {
  type: "Microsoft.DocumentDB/databaseAccounts/services",
  apiVersion: "2024-11-15",
  name: "SqlDedicatedGateway",
  serviceType: "SqlDedicatedGateway",
  dedicatedGatewayType: "IntegratedCache",
} as const;

/** Where the facts of this module come from. */
export const DEDICATED_GATEWAY_SOURCES: readonly string[] = [
  DEDICATED_GATEWAY,
  INTEGRATED_CACHE,
  SERVICES_TEMPLATE,
];
