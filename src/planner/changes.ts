/**
 * What a write changes: the kind of change it makes to its items and the share of its requests
 * that change an attribute (the workload's `changes` frequencies).
 */
import type { WritePattern } from "../workload/types.js";
import type { PlanEnvironment } from "./environment.js";

/** Share of write requests of `pattern` that change `attribute` (workload spec: rare 1/100, frequent 1/2). */
export function changeProbability(env: PlanEnvironment, pattern: WritePattern, attribute: string): number {
  if (pattern.operation === "create" || pattern.operation === "delete") return 0;
  const listed = pattern.changes?.includes(attribute);
  if (pattern.changes !== undefined && listed !== true) return 0;
  switch (env.context.attribute(pattern.entity, attribute)?.changes ?? "never") {
    case "rare":
      return 0.01;
    case "frequent":
      return 0.5;
    case "never":
      // The pattern names the attribute explicitly: every write of it may change it.
      return listed === true ? 1 : 0;
    default:
      return 0;
  }
}

/** The kind of change a write makes to its items (an upsert counts as a create). */
export type ChangeKind = "create" | "update" | "delete";

/** The kind of change a write pattern makes (an upsert counts as a create). */
export function changeKind(pattern: WritePattern): ChangeKind {
  switch (pattern.operation) {
    case "create":
    case "upsert":
      return "create";
    case "delete":
      return "delete";
    case "replace":
    case "patch":
      return "update";
    default:
      return pattern.operation satisfies never;
  }
}

/**
 * Share of the requests of `pattern` that change at least one of `attributes` (each changes
 * independently with its own probability).
 */
export function anyChangeProbability(
  env: PlanEnvironment,
  pattern: WritePattern,
  attributes: readonly string[],
): number {
  const shares = attributes.map((name) => changeProbability(env, pattern, name)).filter((p) => p > 0);
  if (shares.length <= 1) return shares[0] ?? 0;
  return 1 - shares.reduce((stays, share) => stays * (1 - share), 1);
}
