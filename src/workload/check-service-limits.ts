/**
 * What no Azure Cosmos DB account could hold or serve, whatever its settings: a workload that
 * asks for it is refused with the limit and its source (`workload.beyondServiceLimit`), instead
 * of being designed into a model no one can deploy. Each bound is derived from documented limits
 * in `cosmos/limits.ts`; everything under them gets an answer.
 */
import type { IssueSink } from "../common/issues.js";
import { formatInteger } from "../common/format-number.js";
import {
  BYTES_PER_GB,
  LIMIT_SOURCES,
  MAX_ACCOUNT_CONTAINERS,
  MAX_ACCOUNT_RUS,
  MAX_CONTAINER_STORAGE_GB,
  MAX_PROVISIONED_RUS,
  MIN_READ_RU,
} from "../cosmos/limits.js";
import { itemsAtHorizon } from "./horizon.js";
import type { WorkloadPieces } from "./load-workload.js";
import type { Scale } from "./types.js";

/** Why one container holds at most {@link MAX_CONTAINER_STORAGE_GB}, for messages. */
const CONTAINER_STORAGE_REASON = `storage is unlimited, but every GB needs at least 1 RU/s of manual throughput and a container's RU/s are a 32-bit integer in the Azure management API, at most ${formatInteger(MAX_PROVISIONED_RUS)} (${LIMIT_SOURCES.conceptsLimits}; ${LIMIT_SOURCES.throughputApi})`;

/** Why an account serves at most {@link MAX_ACCOUNT_RUS} RU/s per region, for messages. */
const ACCOUNT_RUS_REASON = `an account holds at most ${MAX_ACCOUNT_CONTAINERS} containers and databases (a limit that cannot be raised), each with at most ${formatInteger(MAX_PROVISIONED_RUS)} RU/s, so at most ${formatInteger(MAX_ACCOUNT_RUS)} RU/s per region, and every request costs at least ${MIN_READ_RU} RU (${LIMIT_SOURCES.conceptsLimits}; ${LIMIT_SOURCES.throughputApi}; ${LIMIT_SOURCES.requestUnits})`;

/**
 * Reports every entity whose data at the horizon, every request whose records, and the request
 * rate of the whole workload that no account could hold or serve.
 */
export function checkServiceLimits(pieces: WorkloadPieces, scale: Scale, sink: IssueSink): void {
  checkEntityStorage(pieces, scale, sink);
  checkRequestBytes(pieces, sink);
  checkAccountRate(pieces, scale, sink);
}

/** An entity's items at the horizon live in one container (its copies each in one too). */
function checkEntityStorage(pieces: WorkloadPieces, scale: Scale, sink: IssueSink): void {
  for (const entity of pieces.entities.values()) {
    const { items, formula } = itemsAtHorizon(entity, scale.horizonMonths);
    const gb = (items * entity.avgBytes) / BYTES_PER_GB;
    if (gb <= MAX_CONTAINER_STORAGE_GB) continue;
    sink.error(
      {
        code: "workload.beyondServiceLimit",
        limit: "containerStorage",
        value: gb,
        maximum: MAX_CONTAINER_STORAGE_GB,
      },
      ["entities", entity.name],
      `${entity.name} holds ${formatLarge(gb)} GB at the end of the ${scale.horizonMonths}-month horizon (${formula} = ${formatLarge(items)} items of ${formatInteger(entity.avgBytes)} bytes), more than one container can hold: ${formatInteger(MAX_CONTAINER_STORAGE_GB)} GB (${CONTAINER_STORAGE_REASON})`,
      "check count, growthPerMonth, avgBytes and scale.horizonMonths, or set ttlSeconds so that items expire",
    );
  }
}

/**
 * `batch` is the records one request of a write pattern writes, each its own item operation (a
 * bulk ingest, not a transactional batch: atomicity is `atomicWith`). No request can write more
 * data than a container holds.
 */
function checkRequestBytes(pieces: WorkloadPieces, sink: IssueSink): void {
  for (const { index, pattern } of pieces.patterns) {
    if (pattern.type !== "write") continue;
    const entity = pieces.entities.get(pattern.entity);
    if (entity === undefined) continue;
    const gb = (pattern.batch * entity.avgBytes) / BYTES_PER_GB;
    if (gb <= MAX_CONTAINER_STORAGE_GB) continue;
    sink.error(
      {
        code: "workload.beyondServiceLimit",
        limit: "requestBytes",
        value: gb,
        maximum: MAX_CONTAINER_STORAGE_GB,
      },
      ["accessPatterns", index, "batch"],
      `one request of ${pattern.id} writes ${formatLarge(pattern.batch)} records of ${formatInteger(entity.avgBytes)} bytes, ${formatLarge(gb)} GB, more than one container can hold: ${formatInteger(MAX_CONTAINER_STORAGE_GB)} GB (${CONTAINER_STORAGE_REASON})`,
      "batch is the records one request writes; check it and the entity's avgBytes",
    );
  }
}

/**
 * The requests per second at peak that reach the service, at their fewest: a write request
 * writes `batch` records, merged `bufferedRecords` at a time at best; reads are spread over the
 * regions (each region serves its own reads with its own RU/s, writes are applied in every
 * region). Each costs at least 1 RU, and one region of an account serves at most
 * {@link MAX_ACCOUNT_RUS}.
 */
function checkAccountRate(pieces: WorkloadPieces, scale: Scale, sink: IssueSink): void {
  const perPattern = pieces.patterns.map(({ index, pattern }) => ({
    index,
    id: pattern.id,
    field: pattern.type === "write" && pattern.batch > 1 ? "batch" : "rps",
    perRegion:
      pattern.type === "write"
        ? (pattern.rps.peak * pattern.batch) / pattern.bufferedRecords
        : pattern.rps.peak / scale.regions,
  }));
  const total = perPattern.reduce((sum, pattern) => sum + pattern.perRegion, 0);
  const rus = total * MIN_READ_RU;
  const largest = perPattern.reduce<(typeof perPattern)[number] | undefined>(
    (best, pattern) => (best === undefined || pattern.perRegion > best.perRegion ? pattern : best),
    undefined,
  );
  if (largest === undefined || rus <= MAX_ACCOUNT_RUS) return;
  sink.error(
    { code: "workload.beyondServiceLimit", limit: "accountThroughput", value: rus, maximum: MAX_ACCOUNT_RUS },
    largest.field === "batch"
      ? ["accessPatterns", largest.index, "batch"]
      : ["accessPatterns", largest.index, "rps", "peak"],
    `at peak the access patterns send at least ${formatLarge(total)} requests per second to each region (writes x batch / bufferedRecords, plus reads / ${scale.regions} region(s)), the largest share from ${largest.id}; no account serves that many: ${ACCOUNT_RUS_REASON}`,
    "check the peak rates (requests per second) and batch sizes",
  );
}

/** `12,345` up to a quadrillion, then `1.2e+21`: a number no one counts digit by digit. */
function formatLarge(value: number): string {
  return value < 1e15 ? formatInteger(value) : value.toPrecision(3);
}
