/**
 * The one error class of the data-access runtime, and what it reads from the errors of
 * `@azure/cosmos`. This folder ships as source into every generated project (it imports nothing but
 * `@azure/cosmos` and its own files), and cosmos-modeler's core uses the same pure helpers.
 *
 * Every request the runtime sends goes through `toDataAccessError` when it fails (see
 * `guarded-container.ts`): a caller sees one error type whose `code` says what happened and whose
 * `statusCode`, `substatus`, `activityId`, `requestCharge` and `retryAfterMs` keep what the
 * service answered; the SDK's error is the `cause`.
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
  /**
   * The item exists already (409 on a create), or a read-modify-write kept losing the race (412
   * or 409 on every attempt).
   */
  | "conflict"
  /** A conditional request whose condition (ETag, patch condition) did not hold (412). */
  | "precondition"
  /**
   * The service throttled the request (429) and kept doing so for as long as the runtime's retry
   * options allow; `retryAfterMs` is the service's last delay.
   */
  | "throttled"
  /** The item or the request is larger than the service accepts (413). */
  | "tooLarge"
  /**
   * An item id or partition key value the service cannot store or address (a character of
   * `/ \ # ?` in an id, an id ending in a space, a value too long); no request was sent.
   */
  | "badKey"
  /**
   * A failure worth trying again later: the network (ECONNRESET, a timeout) or the service
   * (408, 410, 449, 500, 502, 503, 504). Retried by the runtime when the request is idempotent.
   */
  | "transient"
  /** Any other answer of the service (400, 401, 403...): `statusCode` says which. */
  | "requestFailed"
  /** A conditional increment would cross its floor or ceiling (stock below 0). */
  | "boundViolated"
  /** An increment that is no finite number, or one given to a write that is no patch. */
  | "badIncrement"
  /** An operation of a transactional batch failed; none was applied. */
  | "batchFailed"
  /** A change-feed batch kept failing and went to the dead-letter store. */
  | "deadLettered"
  /**
   * A write of records the model embeds in their parent's item and writes with the parent's
   * create: they have no item to land in on their own (pass them to the parent's create).
   */
  | "writtenWithParent"
  /** A continuation token this read did not return (another read's, or changed). */
  | "badContinuationToken"
  /** A full-text search given no term, or more terms than its query takes. */
  | "badSearchTerms";

/** What the service answered, as far as it is known. */
export interface ServiceAnswer {
  /** The HTTP status (404, 409, 429...). */
  readonly statusCode?: number;
  /** The service's substatus (1002, 3200...). */
  readonly substatus?: number;
  /** The activity id of the request, to quote to Azure support. */
  readonly activityId?: string;
  /** The request units the failed request cost. */
  readonly requestCharge?: number;
  /** How long the service asked to wait before trying again (a 429), in milliseconds. */
  readonly retryAfterMs?: number;
}

/** Options of a DataAccessError: the cause, what it concerned, and the service's answer. */
export interface DataAccessErrorOptions extends ServiceAnswer {
  readonly cause?: unknown;
  readonly context?: Readonly<Record<string, unknown>>;
}

/** A failure of the data-access layer, with a code, the cause and what it concerned. */
export class DataAccessError extends Error {
  readonly code: DataAccessErrorCode;
  readonly context: Readonly<Record<string, unknown>>;
  readonly statusCode: number | undefined;
  readonly substatus: number | undefined;
  readonly activityId: string | undefined;
  readonly requestCharge: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(code: DataAccessErrorCode, message: string, options: DataAccessErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DataAccessError";
    this.code = code;
    this.context = options.context ?? {};
    this.statusCode = options.statusCode;
    this.substatus = options.substatus;
    this.activityId = options.activityId;
    this.requestCharge = options.requestCharge;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The HTTP status of an `@azure/cosmos` error (`ErrorResponse.code`) or a DataAccessError, if any. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (typeof statusCode === "number") return statusCode;
  return typeof code === "number" ? code : undefined;
}

function headerOf(error: unknown, name: string): unknown {
  if (typeof error !== "object" || error === null) return undefined;
  const headers = (error as { headers?: unknown }).headers;
  return typeof headers === "object" && headers !== null
    ? (headers as Record<string, unknown>)[name]
    : undefined;
}

function finiteNumber(value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** The request charge an error reports (a 404 or 412 is charged too); 0 when unknown. */
export function chargeOf(error: unknown): number {
  if (typeof error !== "object" || error === null) return 0;
  return (
    finiteNumber(headerOf(error, "x-ms-request-charge")) ??
    finiteNumber((error as { requestCharge?: unknown }).requestCharge) ??
    0
  );
}

/**
 * The delay the service asked for before a retry: `retryAfterInMs` of the SDK's error, else its
 * `x-ms-retry-after-ms` header (a batch or bulk operation result says `retryAfterMilliseconds`).
 */
export function retryAfterOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const fields = error as {
    retryAfterMs?: unknown;
    retryAfterInMs?: unknown;
    retryAfterMilliseconds?: unknown;
  };
  const value =
    finiteNumber(fields.retryAfterMs) ??
    finiteNumber(fields.retryAfterInMs) ??
    finiteNumber(fields.retryAfterMilliseconds) ??
    finiteNumber(headerOf(error, "x-ms-retry-after-ms"));
  return value === undefined || value < 0 ? undefined : value;
}

/** Error codes of Node and of the SDK's HTTP pipeline that mean the request may not have arrived. */
const NETWORK_ERROR_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "ENETDOWN",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "REQUEST_SEND_ERROR",
  "TimeoutError",
]);

/** Statuses worth trying again as they are: timeout, gone (a partition moved), retry-with, 5xx. */
const TRANSIENT_STATUSES = new Set([408, 410, 449, 500, 502, 503, 504]);

/** True when the error, or an error it was caused by, is a failure of the network. */
function isNetworkError(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 4) return false;
  const { code, name, cause } = error as { code?: unknown; name?: unknown; cause?: unknown };
  if (typeof code === "string" && NETWORK_ERROR_CODES.has(code)) return true;
  if (name === "AbortError" || name === "TimeoutError") return true;
  return isNetworkError(cause, depth + 1);
}

/**
 * True for failures worth retrying as they are: throttling (429), the network, timeouts (408), a
 * partition moving (410), retry-with (449) and service errors (5xx). The SDK already retries
 * some of them itself.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof DataAccessError) {
    if (error.code === "transient" || error.code === "throttled") return true;
    if (error.code !== "requestFailed") return false;
  }
  const status = statusOf(error);
  if (status === 429 || (status !== undefined && TRANSIENT_STATUSES.has(status))) return true;
  return status === undefined && isNetworkError(error);
}

/**
 * Removes secrets an error message may quote: an account key of a connection string, the
 * signature of an authorization header (the service quotes what it signed on a 401).
 */
export function redactSecrets(text: string): string {
  return text
    .replace(/(AccountKey\s*=\s*)[^;\s"']+/gi, "$1<redacted>")
    .replace(/(sig(?:=|%3D))[^&\s"',;}]+/gi, "$1<redacted>")
    .replace(/(authorization["']?\s*[:=]\s*["']?)[^\s"',;}]+/gi, "$1<redacted>")
    .replace(/(masterKey["']?\s*[:=]\s*["']?)[^\s"',;}]+/gi, "$1<redacted>");
}

/**
 * What a failed batch or bulk call of the SDK said: `@azure/cosmos` 4.x rethrows the service's
 * error of `items.batch` and `items.bulk` as a plain `Error` ("Batch request error: ...",
 * "Bulk request errored with: ...") without its status, so the status is read from the service's
 * message.
 */
function statusFromMessage(message: string): number | undefined {
  if (!/^(Batch request error|Bulk request errored)/.test(message)) return undefined;
  if (/request rate is large|\bTooManyRequests\b/i.test(message)) return 429;
  if (/request size is too large|\bRequestEntityTooLarge\b/i.test(message)) return 413;
  if (/already exists|\bConflict\b/.test(message)) return 409;
  if (/precondition/i.test(message)) return 412;
  if (/resource not found|\bNotFound\b/i.test(message)) return 404;
  if (/\bServiceUnavailable\b/.test(message)) return 503;
  if (/\bRequestTimeout\b/.test(message)) return 408;
  return undefined;
}

/** The DataAccessError code of an HTTP status the service answered. */
export function codeOfStatus(status: number): DataAccessErrorCode {
  switch (status) {
    case 404:
      return "notFound";
    case 409:
      return "conflict";
    case 412:
      return "precondition";
    case 413:
      return "tooLarge";
    case 429:
      return "throttled";
    default:
      return TRANSIENT_STATUSES.has(status) ? "transient" : "requestFailed";
  }
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "bad request",
  401: "unauthorized",
  403: "forbidden",
  404: "not found",
  408: "request timeout",
  409: "conflict",
  410: "gone",
  412: "precondition failed",
  413: "too large",
  429: "throttled",
  449: "retry with",
  500: "internal server error",
  503: "service unavailable",
};

/** The first line of a message, without secrets, at most 300 characters. */
function summary(message: string): string {
  const line = redactSecrets(message.split(/\r?\n/)[0] ?? "").trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/**
 * The DataAccessError of a failed request: the SDK's `ErrorResponse`, a batch or bulk error, a
 * network error, or anything else a request threw. A DataAccessError is returned as it is.
 * `operation` names the request ("read posts/p1"); `context` is kept on the error.
 * @example toDataAccessError(sdkError, "create posts/p1").code // "conflict" for a 409
 */
export function toDataAccessError(
  error: unknown,
  operation: string,
  context: Readonly<Record<string, unknown>> = {},
): DataAccessError {
  if (error instanceof DataAccessError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const fields = (typeof error === "object" && error !== null ? error : {}) as {
    substatus?: unknown;
    activityId?: unknown;
  };
  const status = statusOf(error) ?? (isNetworkError(error) ? undefined : statusFromMessage(message));
  const activityId =
    (typeof fields.activityId === "string" ? fields.activityId : undefined) ??
    (typeof headerOf(error, "x-ms-activity-id") === "string"
      ? (headerOf(error, "x-ms-activity-id") as string)
      : undefined) ??
    /ActivityId:\s*([0-9a-f-]{36})/i.exec(message)?.[1];
  const substatus = finiteNumber(fields.substatus) ?? finiteNumber(headerOf(error, "x-ms-substatus"));
  const requestCharge = chargeOf(error);
  const retryAfterMs = retryAfterOf(error);
  const code: DataAccessErrorCode =
    status !== undefined ? codeOfStatus(status) : isNetworkError(error) ? "transient" : "requestFailed";
  const networkCode = (error as { code?: unknown } | null)?.code;
  const what =
    status !== undefined
      ? `${status}${substatus === undefined ? "" : `/${substatus}`} ${STATUS_TEXT[status] ?? "error"}`
      : typeof networkCode === "string"
        ? `network error ${networkCode}`
        : "failed";
  const where = activityId === undefined ? "" : ` (activity ${activityId})`;
  return new DataAccessError(code, `${operation}: ${what}${where}: ${summary(message)}`, {
    cause: error,
    context,
    ...(status === undefined ? {} : { statusCode: status }),
    ...(substatus === undefined ? {} : { substatus }),
    ...(activityId === undefined ? {} : { activityId }),
    ...(requestCharge === 0 ? {} : { requestCharge }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}
