/**
 * A container whose every request is checked, retried and typed: the one place between the
 * runtime and `@azure/cosmos`. `createRuntime` hands out only guarded containers, so each call
 * path (point reads and writes, patches, queries and their pages, transactional batches, bulk
 * reads, change-feed reads) gets the same behaviour, including call paths added later:
 *
 * - ids and partition key values are checked before any request (`badKey`, key-limits.ts);
 * - a 429 is sent again after the service's delay, and a transient failure of an idempotent
 *   request after a backoff, within the runtime's RetryOptions (`withRetries`);
 * - a transactional batch whose response says 429 (for the batch or one operation) is sent
 *   again whole; the reads of a bulk call that answer 429 are sent again, the others kept;
 * - every failure reaches the caller as a DataAccessError (`toDataAccessError`), with the status,
 *   substatus, activity id and request charge the service gave.
 *
 * The guard is a Proxy over the SDK's objects: what it does not handle (container.read(),
 * getFeedRanges()...) is the SDK's own.
 */
import type {
  ChangeFeedIteratorOptions,
  ChangeFeedPullModelIterator,
  Container,
  FeedOptions,
  Item,
  Items,
  OperationInput,
  OperationResponse,
  PartitionKey,
  PatchRequestBody,
  QueryIterator,
  RequestOptions,
  Response,
  SqlQuerySpec,
} from "@azure/cosmos";
import { ChangeFeedStartFrom } from "@azure/cosmos";
import { DataAccessError } from "./errors.js";
import { checkRequestKey } from "./key-limits.js";
import { withRetries, type RetryOptions } from "./retry.js";

const GUARDED = Symbol.for("cosmos-modeler.guardedContainer");

/** True when the container is guarded already. */
function isGuarded(container: Container): boolean {
  return (container as unknown as Record<symbol, unknown>)[GUARDED] === true;
}

/** The SDK's member as a function bound to its object, or the value. */
function passThrough(target: object, property: string | symbol): unknown {
  const value: unknown = Reflect.get(target, property, target);
  return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}

/**
 * The container with its requests checked, retried and typed (see the file's comment). A guarded
 * container is returned as it is, so guarding twice keeps the first options.
 * @example const posts = guardContainer(database.container("posts"), { maxWaitMs: 10_000 });
 */
export function guardContainer(container: Container, options: RetryOptions = {}): Container {
  if (isGuarded(container)) return container;
  let items: Items | undefined;
  const name = (): string => {
    const id: unknown = Reflect.get(container, "id", container);
    return typeof id === "string" ? id : "container";
  };
  return new Proxy(container, {
    get(target, property) {
      if (property === GUARDED) return true;
      if (property === "item") {
        return (id: string, partitionKey?: PartitionKey): Item =>
          guardItem(target.item(id, partitionKey), `${name()}/${id}`, id, partitionKey, options);
      }
      if (property === "items") return (items ??= guardItems(target.items, name(), options));
      return passThrough(target, property);
    },
  });
}

/** True when the access condition (ETag) of request options makes a repeat unsafe. */
function conditional(options: RequestOptions | undefined): boolean {
  return options?.accessCondition !== undefined;
}

/**
 * True when a patch applied twice gives what it gives once: no increment, no append to an array
 * ("add" at "/-"), no condition (a repeat after an applied patch would fail its condition).
 */
function idempotentPatch(body: PatchRequestBody | undefined): boolean {
  if (body === undefined) return true;
  if (!Array.isArray(body) && body.condition !== undefined) return false;
  const operations = Array.isArray(body) ? body : body.operations;
  return operations.every(
    (operation) => operation.op !== "incr" && !(operation.op === "add" && operation.path.endsWith("/-")),
  );
}

function guardItem(
  item: Item,
  what: string,
  id: string,
  partitionKey: PartitionKey | undefined,
  options: RetryOptions,
): Item {
  const context = { id, ...(partitionKey === undefined ? {} : { partitionKey }) };
  const send = async <T>(verb: string, idempotent: boolean, request: () => Promise<T>): Promise<T> => {
    const operation = `${verb} ${what}`;
    checkRequestKey(operation, id, partitionKey);
    return withRetries(request, { operation, idempotent, context }, options);
  };
  return new Proxy(item, {
    get(target, property) {
      switch (property) {
        case "read":
          return (requestOptions?: RequestOptions) => send("read", true, () => target.read(requestOptions));
        case "replace":
          return async (body: { id?: string }, requestOptions?: RequestOptions) => {
            checkRequestKey(`replace ${what}`, body.id);
            return send("replace", !conditional(requestOptions), () => target.replace(body, requestOptions));
          };
        case "delete":
          return (requestOptions?: RequestOptions) =>
            send("delete", !conditional(requestOptions), () => target.delete(requestOptions));
        case "patch":
          return (body: PatchRequestBody, requestOptions?: RequestOptions) =>
            send("patch", idempotentPatch(body) && !conditional(requestOptions), () =>
              target.patch(body, requestOptions),
            );
        default:
          return passThrough(target, property);
      }
    },
  });
}

/** True when every operation of a batch or bulk call may be applied twice. */
function idempotentOperations(operations: readonly OperationInput[]): boolean {
  return operations.every((operation) => {
    if ("ifMatch" in operation && operation.ifMatch !== undefined) return false;
    switch (operation.operationType) {
      case "Read":
      case "Upsert":
      case "Replace":
      case "Delete":
        return true;
      case "Patch":
        return idempotentPatch(operation.resourceBody);
      default:
        return false;
    }
  });
}

/** Checks the ids and partition key values of batch or bulk operations before the request. */
function checkOperations(operation: string, operations: readonly OperationInput[]): void {
  for (const input of operations) {
    const body = "resourceBody" in input ? (input.resourceBody as { id?: unknown } | undefined) : undefined;
    checkRequestKey(operation, "id" in input ? input.id : body?.id, input.partitionKey);
  }
}

/**
 * Copies of the operations for one attempt: `@azure/cosmos` rewrites an operation's
 * `partitionKey` in place (to its JSON), so a second attempt with the same objects would send a
 * key encoded twice.
 */
function freshOperations(operations: readonly OperationInput[]): OperationInput[] {
  return operations.map((operation) => ({ ...operation }));
}

/** The throttling error of an operation result that says 429 (bulk and batch answer per operation). */
function throttledResult(
  operation: string,
  result: OperationResponse,
  headers: Readonly<Record<string, unknown>> = {},
): DataAccessError {
  const fields = result as OperationResponse & { retryAfterMilliseconds?: unknown; subStatusCode?: unknown };
  const retryAfter = Number(fields.retryAfterMilliseconds ?? headers["x-ms-retry-after-ms"]);
  const activityId = headers["x-ms-activity-id"];
  return new DataAccessError("throttled", `${operation}: 429 throttled`, {
    statusCode: 429,
    ...(typeof fields.subStatusCode === "number" ? { substatus: fields.subStatusCode } : {}),
    ...(typeof activityId === "string" ? { activityId } : {}),
    requestCharge: result.requestCharge,
    ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterMs: retryAfter } : {}),
  });
}

function guardItems(items: Items, container: string, options: RetryOptions): Items {
  const queried = (
    spec: string | SqlQuerySpec,
    feedOptions: FeedOptions | undefined,
  ): QueryIterator<unknown> =>
    guardQuery(
      (continuationToken) =>
        items.query<unknown>(
          spec,
          continuationToken === undefined ? feedOptions : { ...feedOptions, continuationToken },
        ),
      `query ${container}`,
      feedOptions?.continuationToken,
      options,
    );
  return new Proxy(items, {
    get(target, property) {
      switch (property) {
        case "create":
        case "upsert":
          return async (body: { id?: string }, requestOptions?: RequestOptions) => {
            const operation = `${property} ${container}/${String(body.id)}`;
            checkRequestKey(operation, body.id);
            // A create sent again after a lost answer would find its own item (409): never repeated
            // after a transient failure.
            const idempotent = property === "upsert" && !conditional(requestOptions);
            return withRetries(
              () =>
                property === "create"
                  ? target.create(body, requestOptions)
                  : target.upsert(body, requestOptions),
              { operation, idempotent, context: { id: body.id } },
              options,
            );
          };
        case "query":
          return (spec: string | SqlQuerySpec, feedOptions?: FeedOptions) => {
            checkRequestKey(`query ${container}`, undefined, feedOptions?.partitionKey);
            return queried(spec, feedOptions);
          };
        case "readAll":
          return (feedOptions?: FeedOptions) =>
            guardQuery(
              (continuationToken) =>
                target.readAll(
                  continuationToken === undefined ? feedOptions : { ...feedOptions, continuationToken },
                ),
              `read all of ${container}`,
              feedOptions?.continuationToken,
              options,
            );
        case "batch":
          return (
            operations: OperationInput[],
            partitionKey?: PartitionKey,
            requestOptions?: RequestOptions,
          ) => batch(target, container, operations, partitionKey, requestOptions, options);
        case "bulk":
          return (operations: OperationInput[], bulkOptions?: object, requestOptions?: RequestOptions) =>
            bulk(target, container, operations, bulkOptions, requestOptions, options);
        case "getChangeFeedIterator":
          return (feedOptions?: ChangeFeedIteratorOptions) =>
            guardChangeFeed(target, container, feedOptions ?? {}, options);
        default:
          return passThrough(target, property);
      }
    },
  });
}

/**
 * A transactional batch: sent again whole while the service answers 429 for it or for one of its
 * operations (an atomic batch with a throttled operation applied nothing). Other failed
 * operations are the caller's to read in the response, as the SDK returns them.
 */
async function batch(
  items: Items,
  container: string,
  operations: readonly OperationInput[],
  partitionKey: PartitionKey | undefined,
  requestOptions: RequestOptions | undefined,
  options: RetryOptions,
): Promise<Response<OperationResponse[]>> {
  const operation = `transactional batch of ${operations.length} in ${container}`;
  checkRequestKey(operation, undefined, partitionKey);
  checkOperations(operation, operations);
  return withRetries(
    async () => {
      const response = await items.batch(freshOperations(operations), partitionKey, requestOptions);
      const results = response.result ?? [];
      const throttled = results.find((result) => result.statusCode === 429);
      const headers = (response.headers ?? {}) as Record<string, unknown>;
      if (throttled !== undefined) throw throttledResult(operation, throttled, headers);
      if (response.code === 429)
        throw throttledResult(operation, { statusCode: 429, requestCharge: 0 }, headers);
      return response;
    },
    { operation, idempotent: idempotentOperations(operations), context: { partitionKey } },
    options,
  );
}

/**
 * A bulk call (the runtime's readMany): the operations the service answers 429 are sent again,
 * the others kept, until none is throttled or the bound is reached (`throttled`). The answers
 * come in the order of the operations; an answer sent again carries the charge of its 429s too.
 */
async function bulk(
  items: Items,
  container: string,
  operations: readonly OperationInput[],
  bulkOptions: object | undefined,
  requestOptions: RequestOptions | undefined,
  options: RetryOptions,
): Promise<OperationResponse[]> {
  const operation = `bulk of ${operations.length} in ${container}`;
  checkOperations(operation, operations);
  const answers = new Array<OperationResponse>(operations.length);
  const throttledCharge = new Array<number>(operations.length).fill(0);
  let pending = operations.map((_, index) => index);
  return withRetries(
    async () => {
      const sent = pending.map((index) => operations[index]).filter((input) => input !== undefined);
      const responses = await items.bulk(freshOperations(sent), bulkOptions, requestOptions);
      const throttled: number[] = [];
      let first: OperationResponse | undefined;
      pending.forEach((index, position) => {
        const response = responses[position];
        if (response === undefined) return;
        if (response.statusCode === 429) {
          throttled.push(index);
          throttledCharge[index] = (throttledCharge[index] ?? 0) + response.requestCharge;
          first ??= response;
        } else {
          answers[index] = {
            ...response,
            requestCharge: response.requestCharge + (throttledCharge[index] ?? 0),
          };
        }
      });
      pending = throttled;
      if (first !== undefined) throw throttledResult(operation, first);
      return answers;
    },
    { operation, idempotent: idempotentOperations(operations) },
    options,
  );
}

/**
 * A query iterator whose pages are retried: a failed page is asked again of a new iterator from
 * the continuation of the last page read (a query iterator may not survive a failed request). A
 * query that gave no continuation while it has more results cannot be resumed: its failure is
 * typed, not retried.
 */
function guardQuery<T>(
  open: (continuationToken: string | undefined) => QueryIterator<T>,
  operation: string,
  start: string | undefined,
  options: RetryOptions,
): QueryIterator<T> {
  let current = open(start);
  let resumeFrom = start;
  let resumable = true;
  const fetchNext = () =>
    withRetries(
      async (attempt) => {
        if (attempt > 1) current = open(resumeFrom);
        const response = await current.fetchNext();
        resumeFrom = response.continuationToken ?? undefined;
        resumable = resumeFrom !== undefined || !response.hasMoreResults;
        return response;
      },
      { operation, idempotent: true },
      // A page that cannot be asked again is sent once.
      resumable ? options : { ...options, maxAttempts: 1 },
    );
  const fetchAll = () =>
    withRetries(
      async (attempt) => {
        if (attempt > 1) current = open(start);
        return current.fetchAll();
      },
      { operation, idempotent: true },
      options,
    );
  return new Proxy(current, {
    get(_, property) {
      switch (property) {
        case "fetchNext":
          return fetchNext;
        case "fetchAll":
          return fetchAll;
        case "getAsyncIterator":
          return async function* pages() {
            while (current.hasMoreResults()) yield await fetchNext();
          };
        case "reset":
          return () => {
            current = open(start);
            resumeFrom = start;
            resumable = true;
          };
        default:
          return passThrough(current, property);
      }
    },
  });
}

/**
 * A change-feed iterator whose reads are retried: a failed read is asked again of a new iterator
 * from the continuation of the last read (from where the iterator started before the first).
 */
function guardChangeFeed<T>(
  items: Items,
  container: string,
  feedOptions: ChangeFeedIteratorOptions,
  options: RetryOptions,
): ChangeFeedPullModelIterator<T> {
  let current = items.getChangeFeedIterator<T>(feedOptions);
  let continuation: string | undefined;
  const operation = `read the change feed of ${container}`;
  const readNext = () =>
    withRetries(
      async (attempt) => {
        if (attempt > 1) {
          current = items.getChangeFeedIterator<T>(
            continuation === undefined
              ? feedOptions
              : { ...feedOptions, changeFeedStartFrom: ChangeFeedStartFrom.Continuation(continuation) },
          );
        }
        const response = await current.readNext();
        if (typeof response.continuationToken === "string") continuation = response.continuationToken;
        return response;
      },
      { operation, idempotent: true },
      options,
    );
  return new Proxy(current, {
    get(_, property) {
      switch (property) {
        case "readNext":
          return readNext;
        case "getAsyncIterator":
          return async function* reads() {
            while (current.hasMoreResults) yield await readNext();
          };
        default:
          return passThrough(current, property);
      }
    },
  });
}
