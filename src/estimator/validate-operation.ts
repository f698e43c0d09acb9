/**
 * Checks one estimator input (the `estimate-ru` line format of docs/json-output.md) and turns it
 * into an {@link Operation}, reporting every problem at once. Fields the format does not know are
 * ignored (so the benchmark file, with `measuredRU` and `scenario`, can be fed in as is), but a
 * field that looks like a misspelling of a known one gets a warning.
 */
import { CONSISTENCY_LEVELS } from "../cosmos/consistency.js";
import { MAX_ITEM_BYTES } from "../cosmos/limits.js";
import { createIssueSink, type IssueDetail, type IssuePath, type Result } from "../common/issues.js";
import { didYouMean, suggestName } from "../source/suggest.js";
import type { Consistency } from "../cosmos/consistency.js";
import type { Operation, OperationKind, SingleOperationKind, TransactionKind } from "./operation.js";

/** The single operation kinds the estimator prices. */
export const OPERATION_KINDS: readonly SingleOperationKind[] = [
  "read",
  "create",
  "replace",
  "upsert",
  "delete",
  "patch",
  "query",
];

/** Several operations in one request: a transactional batch or a stored procedure. */
export const TRANSACTION_KINDS: readonly TransactionKind[] = ["batch", "storedProcedure"];

const ALL_KINDS: readonly OperationKind[] = [...OPERATION_KINDS, ...TRANSACTION_KINDS];

/**
 * Most operations in one transactional batch.
 * Source: https://learn.microsoft.com/azure/cosmos-db/nosql/transactional-batch (ms.date
 * 2025-07-16, "a current limit of 100 operations per transactional batch"), checked 2026-11-24.
 */
export const MAX_BATCH_OPERATIONS = 100;

/** The point operations a transactional batch can hold (no queries). */
const BATCH_OPERATION_KINDS: readonly SingleOperationKind[] = [
  "read",
  "create",
  "replace",
  "upsert",
  "delete",
  "patch",
];

/** The fields of the format, in the order docs/json-output.md lists them (and issues follow). */
const KNOWN_FIELDS = [
  "op",
  "operations",
  "itemBytes",
  "indexedValues",
  "changedValues",
  "consistency",
  "returned",
  "returnedBytes",
  "scannedNotReturned",
  "scannedBytes",
  "aggregated",
  "aggregatedBytes",
  "partitionKeyOnly",
  "partitions",
] as const;
const KNOWN_FIELD_NAMES: readonly string[] = KNOWN_FIELDS;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Reports an error at a field of the operation. */
type FieldError = (code: IssueDetail, field: string, message: string, suggestion?: string) => void;

/**
 * Validates `value` as an operation. `index` (when given) prefixes issue paths as `[index]`.
 * @example validateOperation({ op: "read", itemBytes: 819 }) // ok, { op: "read", itemBytes: 819 }
 */
export function validateOperation(value: unknown, index?: number): Result<Operation> {
  const prefix: IssuePath = index === undefined ? [] : [index];
  const at = (field: string): IssuePath => [...prefix, field];
  const sink = createIssueSink();
  const error: FieldError = (code, field, message, suggestion) =>
    sink.error(code, at(field), message, suggestion);

  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    sink.error(
      "operation.notAnObject",
      prefix,
      'an operation is a JSON object such as {"op": "read", "itemBytes": 1024}',
    );
    return { ok: false, issues: sink.issues() };
  }
  const record = value as Record<string, unknown>;
  const operation: Partial<Mutable<Operation>> = {};
  const op = validateKind(record["op"], error);
  if (op !== undefined) operation.op = op;
  const inner = validateInnerOperations(record["operations"], op, at("operations"), sink);
  if (inner !== undefined) operation.operations = inner;
  for (const field of KNOWN_FIELDS) {
    const raw = record[field];
    if (field === "op" || field === "operations" || raw === undefined || raw === null) continue;
    validateField(operation, field, raw, error);
  }
  checkSizes(operation, error, (field, message) =>
    sink.warning("operation.changedExceedsIndexed", at(field), message),
  );
  warnUnknownFields(record, (key, message, suggestion) =>
    sink.warning("operation.unknownField", at(key), message, suggestion),
  );

  const issues = sink.issues();
  if (sink.hasErrors() || operation.op === undefined) return { ok: false, issues };
  return { ok: true, value: { ...operation, op: operation.op } as Operation, issues };
}

/** The operation's kind (`op`), or undefined after reporting why it has none. */
function validateKind(op: unknown, error: FieldError): OperationKind | undefined {
  if (op === undefined) {
    error("operation.missingOp", "op", `op is required: one of ${ALL_KINDS.join(", ")}`);
    return undefined;
  }
  if (typeof op !== "string" || !(ALL_KINDS as readonly string[]).includes(op)) {
    error(
      "operation.invalidOp",
      "op",
      `op must be one of ${ALL_KINDS.join(", ")}; got ${JSON.stringify(op)}`,
      typeof op === "string" ? didYouMean(op, ALL_KINDS) : undefined,
    );
    return undefined;
  }
  return op as OperationKind;
}

/** Sets `field` of `operation` from `raw` when it is valid (consistency, partitions, or a number). */
function validateField(
  operation: Partial<Mutable<Operation>>,
  field: Exclude<(typeof KNOWN_FIELDS)[number], "op" | "operations">,
  raw: unknown,
  error: FieldError,
): void {
  if (field === "consistency") {
    if (typeof raw !== "string" || !(CONSISTENCY_LEVELS as readonly string[]).includes(raw)) {
      error(
        "operation.invalidConsistency",
        field,
        `consistency must be one of ${CONSISTENCY_LEVELS.join(", ")}; got ${JSON.stringify(raw)}`,
        typeof raw === "string" ? didYouMean(raw, CONSISTENCY_LEVELS) : undefined,
      );
    } else {
      operation.consistency = raw as Consistency;
    }
  } else if (field === "partitionKeyOnly") {
    if (typeof raw !== "boolean") {
      error("operation.invalidBoolean", field, `${field} must be true or false; got ${JSON.stringify(raw)}`);
    } else {
      operation.partitionKeyOnly = raw;
    }
  } else if (field === "partitions") {
    if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 1) {
      error(
        "operation.invalidPartitions",
        field,
        `partitions must be a whole number of physical partitions, at least 1; got ${JSON.stringify(raw)}`,
      );
    } else {
      operation.partitions = raw;
    }
  } else if (typeof raw !== "number" || !Number.isFinite(raw) || raw < 0) {
    error(
      "operation.invalidNumber",
      field,
      `${field} must be a non-negative number; got ${JSON.stringify(raw)}`,
    );
  } else {
    operation[field] = raw;
  }
}

/** The item size limit (an error) and changed values beyond the indexed ones (a warning). */
function checkSizes(
  operation: Partial<Mutable<Operation>>,
  error: FieldError,
  warning: (field: string, message: string) => void,
): void {
  if (operation.itemBytes !== undefined && operation.itemBytes > MAX_ITEM_BYTES) {
    error(
      "operation.itemTooLarge",
      "itemBytes",
      `itemBytes ${operation.itemBytes} exceeds the ${MAX_ITEM_BYTES}-byte (2 MB) item size limit of Cosmos DB`,
    );
  }
  if (
    operation.changedValues !== undefined &&
    operation.indexedValues !== undefined &&
    operation.changedValues > operation.indexedValues
  ) {
    warning(
      "changedValues",
      `changedValues (${operation.changedValues}) exceeds indexedValues (${operation.indexedValues}); the estimate uses ${operation.indexedValues}`,
    );
  }
}

/** A warning for each field of `record` the format does not know but is close to one it does. */
function warnUnknownFields(
  record: Record<string, unknown>,
  warning: (key: string, message: string, suggestion: string) => void,
): void {
  for (const key of Object.keys(record)) {
    if (KNOWN_FIELD_NAMES.includes(key)) continue;
    const close = suggestName(key, KNOWN_FIELD_NAMES);
    if (close === undefined) continue;
    warning(
      key,
      `field "${key}" is not part of the operation format and is ignored`,
      `did you mean "${close}"?`,
    );
  }
}

/**
 * The `operations` of a batch or stored procedure: required there (1 or more single operations;
 * a batch holds at most 100 point operations), refused on a single operation.
 */
function validateInnerOperations(
  raw: unknown,
  op: OperationKind | undefined,
  path: IssuePath,
  sink: ReturnType<typeof createIssueSink>,
): readonly Operation[] | undefined {
  const transaction = op !== undefined && (TRANSACTION_KINDS as readonly string[]).includes(op);
  if (!transaction) {
    if (raw !== undefined && op !== undefined) {
      sink.error(
        "operation.invalidOperations",
        path,
        `operations belongs to a batch or storedProcedure, not to a single ${op}`,
      );
    }
    return undefined;
  }
  const limit = op === "batch" ? MAX_BATCH_OPERATIONS : Number.POSITIVE_INFINITY;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > limit) {
    sink.error(
      "operation.invalidOperations",
      path,
      `a ${op} needs operations: a list of 1${op === "batch" ? ` to ${MAX_BATCH_OPERATIONS}` : " or more"} single operations such as [{"op": "read"}, {"op": "create", "itemBytes": 500}]`,
    );
    return undefined;
  }
  const allowed: readonly string[] = op === "batch" ? BATCH_OPERATION_KINDS : OPERATION_KINDS;
  const operations: Operation[] = [];
  raw.forEach((value, index) => {
    const kind =
      typeof value === "object" && value !== null ? (value as Record<string, unknown>)["op"] : undefined;
    if (
      typeof kind === "string" &&
      (ALL_KINDS as readonly string[]).includes(kind) &&
      !allowed.includes(kind)
    ) {
      sink.error(
        "operation.invalidOperations",
        [...path, index, "op"],
        `a ${op} can hold ${allowed.join(", ")}; got ${kind}`,
      );
      return;
    }
    const result = validateOperation(value);
    for (const issue of result.issues) sink.add({ ...issue, path: [...path, index, ...issue.path] });
    if (result.ok) operations.push(result.value);
  });
  return operations;
}
