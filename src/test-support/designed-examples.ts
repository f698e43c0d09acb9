/**
 * Test support: the design of an example workload, computed once per process. `designModel` of
 * the six examples takes about 12 s of CPU (multitenant-saas and social-reactions 4 s each), and
 * eight test files ask for the same designs; the files of vitest's shared project run in the
 * same process (`isolate: false`), so the module-level cache below serves them all.
 *
 * The workload and the design are deep-frozen: a test or a product function that changed them
 * would change what the other files see, so it throws instead (ES modules are strict).
 * Tests of the design itself (determinism, budgets, options) still call `designModel`.
 */
import { designModel, type DesignResult } from "../design/design-model.js";
import type { Workload } from "../workload/types.js";
import { readExampleWorkload } from "./model-examples.js";

/** An example's workload and its design (or its naive model, `baseline`). */
export interface DesignedExample {
  readonly workload: Workload;
  readonly design: DesignResult;
}

const workloads = new Map<string, Workload>();
const designs = new Map<string, DesignedExample>();

/** Freezes `value` and everything it holds (Maps and Sets are frozen as objects, not emptied). */
function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (typeof value !== "object" || value === null || seen.has(value)) return value;
  seen.add(value);
  if (value instanceof Map) {
    for (const [key, entry] of value as Map<unknown, unknown>) {
      deepFreeze(key, seen);
      deepFreeze(entry, seen);
    }
  } else if (value instanceof Set) {
    for (const entry of value as Set<unknown>) deepFreeze(entry, seen);
  }
  for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key], seen);
  return Object.freeze(value);
}

/** The example workload `name` (examples/<name>/workload.yaml), loaded once and frozen. */
export function exampleWorkload(name: string): Workload {
  let found = workloads.get(name);
  if (found === undefined) {
    found = deepFreeze(readExampleWorkload(name));
    workloads.set(name, found);
  }
  return found;
}

/**
 * The design of the example workload `name` with the default options (`baseline`: the naive
 * model), computed once per process and frozen.
 * @example designedExample("blogging").design.model.containers.length
 */
export function designedExample(
  name: string,
  options: { readonly baseline?: boolean } = {},
): DesignedExample {
  const baseline = options.baseline === true;
  const key = `${name}${baseline ? " baseline" : ""}`;
  let found = designs.get(key);
  if (found === undefined) {
    const workload = exampleWorkload(name);
    found = deepFreeze({ workload, design: designModel(workload, { baseline }) });
    designs.set(key, found);
  }
  return found;
}
