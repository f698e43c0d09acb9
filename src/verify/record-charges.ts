/**
 * The measured charge of every read request a verify run makes whose plan is one request (a point
 * read, or a query answered in one logical partition from the index), with the operation's
 * features as the request met them: the item's or the results' size as returned (without the
 * service's system properties, which the estimator adds itself), the number of results. These are
 * the lines `calibrate` fits the request-charge model to (src/estimator/calibration.ts). A run on
 * the embedded endpoint records its lines as not charge-bearing (it answers every request with
 * 1 RU): `calibrate` refuses them. Fan-outs, filters the index does not serve, follow-up reads
 * and writes (whose charge includes their maintenance) are not recorded: their features are not
 * what one request met.
 */
import type { Operation } from "../estimator/operation.js";
import type { ReadPlan } from "../planner/types.js";

/** One recorded request: the estimator's input, the charge measured, where. */
export interface RecordedCharge {
  readonly operation: Operation;
  readonly measuredRU: number;
  readonly scenario: string;
}

/** Properties the service adds to every item (the estimator counts them as SYSTEM_PROPERTIES_BYTES). */
const SYSTEM_PROPERTIES = new Set(["_rid", "_self", "_etag", "_attachments", "_ts", "_lsn"]);

/** The UTF-8 size of an item as JSON, without the service's system properties. */
export function itemBytes(item: unknown): number {
  if (typeof item !== "object" || item === null) return Buffer.byteLength(JSON.stringify(item) ?? "", "utf8");
  const own = Object.fromEntries(Object.entries(item).filter(([key]) => !SYSTEM_PROPERTIES.has(key)));
  return Buffer.byteLength(JSON.stringify(own), "utf8");
}

/**
 * The recorded line of one read request, or undefined when its plan is not one request whose
 * features the answer shows (see the module's comment).
 */
export function recordRead(
  plan: ReadPlan,
  items: readonly unknown[],
  requestCharge: number,
): RecordedCharge | undefined {
  if (plan.operations.length !== 1) return undefined;
  const [step] = plan.operations;
  if (step === undefined || step.perResult === true) return undefined;
  const planned = step.estimatedFrom;
  const consistency = planned?.consistency;
  const scenario = `${plan.patternId}: ${step.kind} on ${step.container}`;
  if (step.kind === "pointRead") {
    const [item] = items;
    if (item === undefined) return undefined; // a missing item is charged otherwise
    return {
      operation: {
        op: "read",
        itemBytes: itemBytes(item),
        ...(consistency === undefined ? {} : { consistency }),
      },
      measuredRU: requestCharge,
      scenario,
    };
  }
  if (step.kind !== "query" || (step.scope !== "single" && step.scope !== "prefix")) return undefined;
  // a query the index does not fully serve loads items it does not return: not seen here
  if ((planned?.scannedNotReturned ?? 0) > 0 || (planned?.scannedBytes ?? 0) > 0) return undefined;
  if ((planned?.aggregated ?? 0) > 0) return undefined;
  return {
    operation: {
      op: "query",
      returned: items.length,
      returnedBytes: items.reduce((sum: number, item) => sum + itemBytes(item), 0),
      partitions: 1,
      ...(consistency === undefined ? {} : { consistency }),
    },
    measuredRU: requestCharge,
    scenario,
  };
}

/**
 * The recording's lines (JSON lines `calibrate` reads): each request's features, its measured
 * charge, where it was measured, and whether the endpoint's charges are Cosmos DB's.
 */
export function recordingLines(
  charges: readonly RecordedCharge[],
  endpoint: { readonly kind: "embedded" | "real"; readonly url: string },
): string {
  const local = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/i.test(endpoint.url);
  const where = endpoint.kind === "embedded" ? "embedded" : local ? "emulator" : "azure";
  return charges
    .map((charge) =>
      JSON.stringify({
        ...charge.operation,
        measuredRU: charge.measuredRU,
        scenario: charge.scenario,
        source: `verify ${endpoint.url}`,
        endpoint: where,
        ...(endpoint.kind === "embedded" ? { chargeBearing: false } : {}),
      }),
    )
    .map((line) => `${line}\n`)
    .join("");
}
