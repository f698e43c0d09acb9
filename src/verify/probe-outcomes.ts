/**
 * What a probe of a verify run found (`run-probes.ts`): a union on `probe`, each with its figures,
 * so the text report, the JSON output and the MCP tool read fields, never parse a message.
 */
import type { ItemTypeRef } from "./probe-plan.js";

/** passed / failed, or not checkable on this endpoint (`detail` says why). */
export type ProbeStatus = "passed" | "failed" | "notCheckable";

interface ProbeFields {
  readonly status: ProbeStatus;
  /** Failed: what differs (or the first error); not checkable: why. */
  readonly detail?: string;
  readonly elapsedMs: number;
}

/** A counter, as `container/itemType.property` counts `child`. */
export interface CounterRef {
  readonly holder: ItemTypeRef;
  readonly property: string;
  readonly child: string;
}

export type ProbeOutcome =
  | ({
      readonly probe: "concurrentCounter";
      readonly counter: CounterRef;
      /** Children created at once, and holder edits raced with them. */
      readonly children: number;
      readonly edits: number;
      readonly failedWrites: number;
      readonly expected: number;
      /** The counter on each holder item (replicas: several); empty when no holder was found. */
      readonly counted: readonly number[];
    } & ProbeFields)
  | ({
      readonly probe: "childLifecycle";
      readonly counter: CounterRef;
      /** The steps run: created, changed (when the workload changes the child), removed, restored. */
      readonly steps: readonly ("created" | "changed" | "removed" | "restored")[];
      readonly expected: readonly number[];
      /** The counter after each step (the first holder item's; null when none was found). */
      readonly counted: readonly (number | null)[];
      /** Per copy item type: live copies of the child after each step (none after the removal). */
      readonly copies: readonly { readonly copy: ItemTypeRef; readonly found: readonly number[] }[];
    } & ProbeFields)
  | ({
      readonly probe: "paging";
      readonly patternId: string;
      /** The page size the probe asked for, and the pages it took. */
      readonly pageSize: number;
      readonly pages: number;
      /** Items over all small pages, items read in large pages, and distinct items of the small pages. */
      readonly items: number;
      readonly expected: number;
      readonly distinct: number;
    } & ProbeFields)
  | ({
      readonly probe: "feedRestart";
      readonly counter: CounterRef;
      /** Handler failures injected (one), and the counter after the restart (expected 2). */
      readonly failuresInjected: number;
      readonly expected: number;
      readonly counted: number | null;
    } & ProbeFields);

/** The probes that only a real account runs, and why (the embedded endpoint's change feed). */
export const REAL_ACCOUNT_PROBES: Readonly<Partial<Record<ProbeOutcome["probe"], string>>> = {
  feedRestart:
    "the embedded endpoint's change feed returns everything on its first read and never a later change, so a processor stopped and restarted from its checkpoint cannot be observed: run verify on a real account (--connection-string, or COSMOS_ENDPOINT and COSMOS_KEY)",
};

/** A probe's title for reports. */
export function probeTitle(outcome: ProbeOutcome): string {
  switch (outcome.probe) {
    case "concurrentCounter":
      return `${counterText(outcome.counter)}: ${outcome.children} ${outcome.counter.child} created while the holder is edited ${outcome.edits} times`;
    case "childLifecycle":
      return `${counterText(outcome.counter)}: a ${outcome.counter.child} ${outcome.steps.join(", ")}`;
    case "paging":
      return `${outcome.patternId}: every page at ${outcome.pageSize} per page, each item once`;
    case "feedRestart":
      return `${counterText(outcome.counter)}: a handler failing once, a processor stopped and restarted`;
    default:
      return outcome satisfies never;
  }
}

export function counterText(counter: CounterRef): string {
  return `${counter.holder.container}/${counter.holder.itemType}.${counter.property}`;
}

/** The figures of a probe in one line (what was expected, what was found). */
export function probeFigures(outcome: ProbeOutcome): string {
  switch (outcome.probe) {
    case "concurrentCounter":
      return `expected ${outcome.expected}, counted ${outcome.counted.length === 0 ? "no holder" : outcome.counted.join(", ")}; ${outcome.failedWrites} writes failed`;
    case "childLifecycle":
      return `counter ${outcome.counted.map((c) => (c === null ? "-" : String(c))).join(" -> ")} (expected ${outcome.expected.join(" -> ")})${outcome.copies
        .map((c) => `; copies in ${c.copy.container}/${c.copy.itemType}: ${c.found.join(" -> ")}`)
        .join("")}`;
    case "paging":
      return `${outcome.items} items in ${outcome.pages} pages, ${outcome.distinct} distinct, ${outcome.expected} expected`;
    case "feedRestart":
      return `${outcome.failuresInjected} failure injected; counted ${outcome.counted ?? "-"} after the restart (expected ${outcome.expected})`;
    default:
      return outcome satisfies never;
  }
}
