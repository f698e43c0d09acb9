/**
 * The request-charge (RU) model of one Cosmos DB operation, calibrated on public measurements
 * (coefficients and their evidence: coefficients.ts; accuracy: `npm run bench`).
 *
 * Formula (KB = KiB of the stored item, JSON + system properties; m = 2 for strong or bounded
 * staleness reads and queries, else 1):
 * - read:    m x max(1, pointReadBase + pointReadPerKB x KB)
 * - create, upsert without changedValues (an insert), delete:
 *            writeBase + writePerKB x max(0, KB - 1) + writePerIndexedValue x indexedValues
 *            (the base covers the first KB, as the service's size table starts at 1 KB)
 * - replace, patch, upsert with changedValues (an update):
 *            replaceFactor x (writeBase + writePerKB x max(0, KB - 1))
 *            + writePerIndexedValue x indexTermsPerChangedValue x changedValues
 *            (+ patchPerChangedProperty x max(1, changedValues) for a patch: the service's
 *            base charge per modified property, documented in understand-request-unit-consumption)
 * - query:   m x (queryPerPartition x partitions
 *                 + queryPerReturnedItem x (returned + aggregated)
 *                 + queryPerReturnedKB x (returnedKB + aggregatedKB)
 *                 + queryPerScannedItem x scannedNotReturned + queryPerScannedKB x scannedKB)
 *            (an aggregate's matching items are found through the index like returned items; a
 *            scan loads items the index cannot exclude and checks them one by one; a query whose
 *            only filter is the partition key, `partitionKeyOnly`, reads its items in the
 *            partition's order without an index lookup: its returned items pay
 *            queryPerReturnedKB but not queryPerReturnedItem, coefficients.ts)
 * - batch, storedProcedure (one request, one logical partition):
 *            the largest per-request base of its operations, once
 *            + each operation's charge beyond its own base (+ scriptOverhead for a stored
 *            procedure), where an operation's base is what it pays per request whatever its size:
 *            writeBase for an insert or delete, replaceFactor x writeBase for an update,
 *            pointReadBase for a point read, queryPerPartition x partitions for a query (times m
 *            for reads). A transaction of one operation costs that operation (plus the script).
 *
 * Defaults for missing fields (each also widens the range to the values shown in brackets):
 * - itemBytes: 819 (a "1 KB" item of the documentation) [51 .. 3891 bytes: 0.25 .. 4 KB stored];
 * - indexedValues (automatic indexing of every property): itemBytes / 32, at least 1, the
 *   density of Microsoft's worked examples [itemBytes / 128 .. itemBytes / 16];
 * - changedValues of an update: 1, as the capacity planner assumes, capped by indexedValues
 *   [0 .. indexedValues];
 * - returned: 1 [0 .. 1]; returnedBytes: returned x 1 KB [x 0.25 KB .. x 4 KB];
 * - aggregated: 0; aggregatedBytes: aggregated x 1 KB [x 0.25 KB .. x 4 KB];
 * - scannedNotReturned / scannedBytes: 0 when both are absent (the index serves the filter);
 *   when only one is given, the other assumes 1 KB per scanned item;
 * - partitions: 1; consistency: session.
 * The range is the estimate at the low and high assumptions, times the family's empirical band
 * (the narrowest band covering 90% of the calibration rows' ratios measured / estimate under
 * leave-one-source-out refits; coefficients.ts), and for scans the per-item vs
 * per-byte spread; a point read's low never goes under the 1 RU minimum.
 */
import { consistencyReadMultiplier } from "../cosmos/consistency.js";
import { DEFAULT_RU_COEFFICIENTS, storedKB, type Band, type RuCoefficients } from "./coefficients.js";
import type { Operation, RuEstimate } from "./operation.js";

const DEFAULT_ITEM_BYTES = 819;
const DEFAULT_ITEM_BYTES_RANGE = { low: 51, high: 3891 } as const;
const DEFAULT_RETURNED_ITEM_BYTES = 1024;
const RETURNED_ITEM_BYTES_RANGE = { low: 256, high: 4096 } as const;

type Scenario = "low" | "central" | "high";
const SCENARIOS = ["low", "central", "high"] as const;

/**
 * Estimates the request charge of `op` with its range.
 * @example estimateRequestCharge({ op: "read", itemBytes: 819 }) // { estimate: 1, low: 1, high: 1.17 }
 */
export function estimateRequestCharge(
  op: Operation,
  coefficients: RuCoefficients = DEFAULT_RU_COEFFICIENTS,
): RuEstimate {
  if (op.op === "batch" || op.op === "storedProcedure") return transaction(op, coefficients);
  const [low, estimate, high] = SCENARIOS.map((scenario) => chargeAt(op, scenario, coefficients));
  const band = bandOf(op, coefficients);
  // A point read never costs less than the documented minimum (1 RU, times the consistency factor).
  const floor = op.op === "read" ? readMultiplier(op) * coefficients.pointReadMinimum : 0;
  return {
    estimate: estimate ?? 0,
    low: Math.min(estimate ?? 0, Math.max(floor, (low ?? 0) * band.low)),
    high: Math.max(estimate ?? 0, (high ?? 0) * band.high),
  };
}

/**
 * A batch or stored procedure: its operations' estimates less the per-request base each would
 * pay alone, the request's base once, and the script's overhead. The range adds up the
 * operations' ranges the same way, widened by the transaction band.
 */
function transaction(op: Operation, c: RuCoefficients): RuEstimate {
  const operations = op.operations ?? [];
  const bases = operations.map((inner) => requestBase(inner, c));
  const shared = Math.max(0, ...bases);
  const script = op.op === "storedProcedure" ? c.scriptOverhead : 0;
  const parts = operations.map((inner, index) => {
    const alone = estimateRequestCharge(inner, c);
    const base = bases[index] ?? 0;
    return { estimate: alone.estimate - base, low: alone.low - base, high: alone.high - base };
  });
  const sum = (key: keyof RuEstimate): number =>
    shared + script + parts.reduce((total, part) => total + Math.max(0, part[key]), 0);
  const estimate = sum("estimate");
  return {
    estimate,
    low: Math.min(estimate, sum("low") * c.bands.transaction.low),
    high: Math.max(estimate, sum("high") * c.bands.transaction.high),
  };
}

/** What one operation pays per request, whatever its size (the part a transaction shares). */
function requestBase(op: Operation, c: RuCoefficients): number {
  switch (op.op) {
    case "read":
      return readMultiplier(op) * c.pointReadBase;
    case "query":
      return readMultiplier(op) * c.queryPerPartition * (op.partitions ?? 1);
    case "create":
    case "delete":
    case "upsert":
    case "replace":
    case "patch":
      return op.op === "replace" ||
        op.op === "patch" ||
        (op.op === "upsert" && op.changedValues !== undefined)
        ? c.replaceFactor * c.writeBase
        : c.writeBase;
    case "batch":
    case "storedProcedure":
      return 0;
    default:
      return op.op satisfies never;
  }
}

/** The charge under the low, central or high assumptions for missing inputs (no band). */
function chargeAt(op: Operation, scenario: Scenario, c: RuCoefficients): number {
  switch (op.op) {
    case "read":
      return readMultiplier(op) * pointRead(itemBytesOf(op, scenario), c);
    case "create":
    case "delete":
      return insert(op, scenario, c);
    case "upsert":
      return op.changedValues === undefined ? insert(op, scenario, c) : update(op, scenario, c);
    case "replace":
    case "patch":
      return update(op, scenario, c);
    case "query":
      return readMultiplier(op) * query(op, scenario, c);
    case "batch":
    case "storedProcedure":
      return transaction(op, c)[scenario === "central" ? "estimate" : scenario];
    default:
      return op.op satisfies never;
  }
}

function bandOf(op: Operation, c: RuCoefficients): Band {
  switch (op.op) {
    case "read":
      return c.bands.read;
    case "create":
      return c.bands.insert;
    case "upsert":
      return op.changedValues === undefined ? c.bands.insert : c.bands.uncalibratedWrite;
    case "replace":
    case "patch":
    case "delete":
      return c.bands.uncalibratedWrite;
    case "query":
      return c.bands.query;
    case "batch":
    case "storedProcedure":
      return c.bands.transaction;
    default:
      return op.op satisfies never;
  }
}

function readMultiplier(op: Operation): number {
  return consistencyReadMultiplier(op.consistency ?? "session");
}

function pointRead(itemBytes: number, c: RuCoefficients): number {
  return Math.max(c.pointReadMinimum, c.pointReadBase + c.pointReadPerKB * storedKB(itemBytes));
}

function insert(op: Operation, scenario: Scenario, c: RuCoefficients): number {
  const itemBytes = itemBytesOf(op, scenario);
  return sizeDrivenWrite(itemBytes, c) + c.writePerIndexedValue * indexedValuesOf(op, itemBytes, scenario, c);
}

function update(op: Operation, scenario: Scenario, c: RuCoefficients): number {
  const itemBytes = itemBytesOf(op, scenario);
  const indexed = indexedValuesOf(op, itemBytes, scenario, c);
  const changed = Math.min(indexed, op.changedValues ?? { low: 0, central: 1, high: indexed }[scenario]);
  const patchBase = op.op === "patch" ? c.patchPerChangedProperty * Math.max(1, changed) : 0;
  return (
    c.replaceFactor * sizeDrivenWrite(itemBytes, c) +
    c.writePerIndexedValue * c.indexTermsPerChangedValue * changed +
    patchBase
  );
}

/**
 * The size-driven part of a write: the base covers a stored item of up to 1 KB, each KB beyond it
 * adds writePerKB (the service's size table starts at 1 KB, 4.95 RU, and the smallest measured
 * items, 153 to 819 bytes of JSON, cost what a 1 KB item does: coefficients.ts).
 */
function sizeDrivenWrite(itemBytes: number, c: RuCoefficients): number {
  return c.writeBase + c.writePerKB * Math.max(0, storedKB(itemBytes) - 1);
}

function itemBytesOf(op: Operation, scenario: Scenario): number {
  if (op.itemBytes !== undefined) return op.itemBytes;
  return scenario === "central" ? DEFAULT_ITEM_BYTES : DEFAULT_ITEM_BYTES_RANGE[scenario];
}

function indexedValuesOf(op: Operation, itemBytes: number, scenario: Scenario, c: RuCoefficients): number {
  if (op.indexedValues !== undefined) return op.indexedValues;
  const bytesPerValue = {
    low: c.bytesPerIndexedValueRange.sparse,
    central: c.bytesPerIndexedValue,
    high: c.bytesPerIndexedValueRange.dense,
  }[scenario];
  return Math.max(1, itemBytes / bytesPerValue);
}

function query(op: Operation, scenario: Scenario, c: RuCoefficients): number {
  const partitions = op.partitions ?? 1;
  const returned = op.returned ?? (scenario === "low" ? 0 : 1);
  const returnedBytes =
    op.returnedBytes ??
    returned * (scenario === "central" ? DEFAULT_RETURNED_ITEM_BYTES : RETURNED_ITEM_BYTES_RANGE[scenario]);
  // When only one of scannedNotReturned / scannedBytes is given, the other assumes 1 KB per item
  // in every scenario (taking the returned items' size instead would make a query look cheaper
  // when it returns more); the scan's per-item vs per-byte spread below already brackets it.
  const scannedItems = op.scannedNotReturned ?? (op.scannedBytes ?? 0) / DEFAULT_RETURNED_ITEM_BYTES;
  const scannedBytes = op.scannedBytes ?? scannedItems * DEFAULT_RETURNED_ITEM_BYTES;
  // The scan cost: the mean of "all per item" and "all per byte" (each twice the coefficient);
  // the low and high scenarios take the cheaper and the dearer of the two.
  const perItem = 2 * c.queryPerScannedItem * scannedItems;
  const perByte = 2 * c.queryPerScannedKB * (scannedBytes / 1024);
  const scan = {
    low: Math.min(perItem, perByte),
    central: (perItem + perByte) / 2,
    high: Math.max(perItem, perByte),
  }[scenario];
  const aggregated = op.aggregated ?? 0;
  const aggregatedBytes =
    op.aggregatedBytes ??
    aggregated * (scenario === "central" ? DEFAULT_RETURNED_ITEM_BYTES : RETURNED_ITEM_BYTES_RANGE[scenario]);
  // Items read by the partition key alone are not looked up through the index (see the header).
  const lookedUp = (op.partitionKeyOnly === true ? 0 : returned) + aggregated;
  return (
    c.queryPerPartition * partitions +
    c.queryPerReturnedItem * lookedUp +
    c.queryPerReturnedKB * ((returnedBytes + aggregatedBytes) / 1024) +
    scan
  );
}
