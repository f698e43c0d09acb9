/**
 * Relative changes of numbers in a patch write: `{ incr: -2, min: 0 }` instead of an absolute
 * value. The service adds it atomically (`incr`), so concurrent writers never overwrite each
 * other (two orders cannot both sell the last unit); `min` and `max` are a floor and a ceiling
 * the patch is conditional on (`boundViolated` when the result would cross them).
 */
import type { PatchOperation, PatchRequestBody } from "@azure/cosmos";
import { DataAccessError } from "./errors.js";
import { pointer } from "./requests.js";
import { patchCondition, propertyRef } from "./sql.js";

/** A relative change of a number attribute, with an optional floor and ceiling of the result. */
export interface Increment {
  readonly incr: number;
  readonly min?: number;
  readonly max?: number;
}

/** The record of a patch: the listed number attributes may be increments. */
export type WithIncrements<R, K extends keyof R> = Omit<R, K> & { readonly [P in K]?: R[P] | Increment };

/** True for `{ incr: number, ... }`. */
export function isIncrement(value: unknown): value is Increment {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { incr?: unknown }).incr === "number"
  );
}

function finite(value: number, what: string, attribute: string): number {
  if (!Number.isFinite(value)) {
    throw new DataAccessError(
      "badIncrement",
      `${what} of "${attribute}" must be a finite number, got ${String(value)}`,
      {
        context: { attribute },
      },
    );
  }
  return value;
}

/**
 * The patch of attribute values: `set` for values, `incr` for increments, and the condition that
 * keeps each increment within its bounds (`c.stock >= 2` for `{ incr: -2, min: 0 }`), with the
 * predicate `guard` (the item is no tombstone) when given.
 * @example patchOf({ stock: { incr: -2, min: 0 } }) // { operations: [{ op: "incr", path: "/stock", value: -2 }], condition: "FROM c  WHERE (c.stock >= 2)" }
 */
export function patchOf(
  values: Readonly<Record<string, unknown>>,
  guard?: string,
): {
  readonly operations: PatchOperation[];
  readonly condition?: string;
} {
  const increments: PatchOperation[] = [];
  const sets: PatchOperation[] = [];
  const conditions: string[] = guard === undefined ? [] : [guard];
  for (const [name, value] of Object.entries(values)) {
    if (!isIncrement(value)) {
      sets.push({ op: "set", path: pointer(name), value });
      continue;
    }
    const by = finite(value.incr, "the increment", name);
    increments.push({ op: "incr", path: pointer(name), value: by });
    const ref = propertyRef(name);
    if (value.min !== undefined) conditions.push(`${ref} >= ${finite(value.min, "the floor", name) - by}`);
    if (value.max !== undefined) conditions.push(`${ref} <= ${finite(value.max, "the ceiling", name) - by}`);
  }
  // Increments first: a condition guards the first request of a patch split in tens.
  const operations = [...increments, ...sets];
  return conditions.length === 0
    ? { operations }
    : { operations, condition: patchCondition(conditions.join(" AND ")) };
}

/** The request body of `patchOf` for `@azure/cosmos`. */
export function patchBody(patch: ReturnType<typeof patchOf>): PatchRequestBody {
  return patch.condition === undefined
    ? patch.operations
    : { operations: patch.operations, condition: patch.condition };
}
