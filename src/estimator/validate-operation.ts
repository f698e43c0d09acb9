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
import type { Operation, OperationKind } from "./operation.js";

/** The operation kinds the estimator prices. */
export const OPERATION_KINDS: readonly OperationKind[] = [
  "read",
  "create",
  "replace",
  "upsert",
  "delete",
  "patch",
  "query",
];

/** The fields of the format, in the order docs/json-output.md lists them (and issues follow). */
const KNOWN_FIELDS = [
  "op",
  "itemBytes",
  "indexedValues",
  "changedValues",
  "consistency",
  "returned",
  "returnedBytes",
  "scannedNotReturned",
  "scannedBytes",
  "partitions",
] as const;
const KNOWN_FIELD_NAMES: readonly string[] = KNOWN_FIELDS;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Validates `value` as an operation. `index` (when given) prefixes issue paths as `[index]`.
 * @example validateOperation({ op: "read", itemBytes: 819 }) // ok, { op: "read", itemBytes: 819 }
 */
export function validateOperation(value: unknown, index?: number): Result<Operation> {
  const prefix: IssuePath = index === undefined ? [] : [index];
  const at = (field: string): IssuePath => [...prefix, field];
  const sink = createIssueSink();
  const error = (code: IssueDetail, field: string, message: string, suggestion?: string): void =>
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

  const op = record["op"];
  if (op === undefined) {
    error("operation.missingOp", "op", `op is required: one of ${OPERATION_KINDS.join(", ")}`);
  } else if (typeof op !== "string" || !(OPERATION_KINDS as readonly string[]).includes(op)) {
    error(
      "operation.invalidOp",
      "op",
      `op must be one of ${OPERATION_KINDS.join(", ")}; got ${JSON.stringify(op)}`,
      typeof op === "string" ? didYouMean(op, OPERATION_KINDS) : undefined,
    );
  } else {
    operation.op = op as OperationKind;
  }

  for (const field of KNOWN_FIELDS) {
    const raw = record[field];
    if (field === "op" || raw === undefined || raw === null) continue;
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
    sink.warning(
      "operation.changedExceedsIndexed",
      at("changedValues"),
      `changedValues (${operation.changedValues}) exceeds indexedValues (${operation.indexedValues}); the estimate uses ${operation.indexedValues}`,
    );
  }

  for (const key of Object.keys(record)) {
    if (KNOWN_FIELD_NAMES.includes(key)) continue;
    const close = suggestName(key, KNOWN_FIELD_NAMES);
    if (close === undefined) continue;
    sink.warning(
      "operation.unknownField",
      at(key),
      `field "${key}" is not part of the operation format and is ignored`,
      `did you mean "${close}"?`,
    );
  }

  const issues = sink.issues();
  if (sink.hasErrors() || operation.op === undefined) return { ok: false, issues };
  return { ok: true, value: { ...operation, op: operation.op } as Operation, issues };
}
