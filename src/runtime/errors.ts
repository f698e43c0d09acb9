/**
 * The one error class of the data-access runtime, and what it reads from the errors of
 * `@azure/cosmos`. This folder ships as source into every generated project (it imports nothing but
 * `@azure/cosmos` and its own files), and cosmos-modeler's core uses the same pure helpers.
 */

/** What went wrong, as a code a caller can switch on. */
export type DataAccessErrorCode =
  /** A key template is malformed (unbalanced braces, a name that is not an identifier). */
  | "badTemplate"
  /** A key template needs a value the record does not hold. */
  | "missingTemplateValue"
  /** An item needs related data (a copied record, a replica number, a bucket) that was not passed. */
  | "missingRelatedData"
  /** A shard count that is not a positive integer. */
  | "badShards"
  /** The model has no such item type. */
  | "unknownItemType"
  /** An item that must exist does not (404). */
  | "notFound"
  /** A read-modify-write kept losing the race (412 or 409 on every attempt). */
  | "conflict"
  /** A conditional increment would cross its floor or ceiling (stock below 0). */
  | "boundViolated"
  /** An increment that is no finite number, or one given to a write that is no patch. */
  | "badIncrement"
  /** An operation of a transactional batch failed; none was applied. */
  | "batchFailed"
  /** A change-feed batch kept failing and went to the dead-letter store. */
  | "deadLettered"
  /** A continuation token this read did not return (another read's, or changed). */
  | "badContinuationToken";

/** A failure of the data-access layer, with a code, the cause and what it concerned. */
export class DataAccessError extends Error {
  readonly code: DataAccessErrorCode;
  readonly context: Readonly<Record<string, unknown>>;

  constructor(
    code: DataAccessErrorCode,
    message: string,
    options: { readonly cause?: unknown; readonly context?: Readonly<Record<string, unknown>> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DataAccessError";
    this.code = code;
    this.context = options.context ?? {};
  }
}

/** The HTTP status of an `@azure/cosmos` error (`ErrorResponse.code`), if any. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (typeof statusCode === "number") return statusCode;
  return typeof code === "number" ? code : undefined;
}

/** The request charge an `@azure/cosmos` error reports (a 404 or 412 is charged too). */
export function chargeOf(error: unknown): number {
  if (typeof error !== "object" || error === null) return 0;
  const charge = (error as { headers?: Record<string, unknown> }).headers?.["x-ms-request-charge"];
  const value = Number(charge);
  return Number.isFinite(value) ? value : 0;
}

/**
 * True for failures worth retrying as they are: throttling (429), timeouts (408), a partition
 * moving (410) and service errors (500, 503). The SDK already retries 429 a few times itself.
 */
export function isTransient(error: unknown): boolean {
  const status = statusOf(error);
  return status === 408 || status === 410 || status === 429 || status === 500 || status === 503;
}
