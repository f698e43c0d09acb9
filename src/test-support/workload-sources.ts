/**
 * Where the differential bench (src/bench/differential.ts) gets its workloads: each source turns
 * a seed into a workload document and its text, the same for the same seed. Sources are drawn in
 * turn, so a second, independent generator doubles the kinds of workloads judged.
 */
import fc from "fast-check";
import { verifiedWorkloads } from "./design-verification.js";
import type { Mapping } from "./mutation-documents.js";
import { workloadText } from "./workload-arbitrary.js";

/** A workload drawn from a source: its document (what mutations edit) and its YAML text. */
export interface DrawnWorkload {
  readonly document: Mapping;
  readonly text: string;
}

/** A generator of workloads: `draw(seed)` gives the same workload for the same seed. */
export interface WorkloadSource {
  readonly name: string;
  readonly draw: (seed: number) => DrawnWorkload;
}

/**
 * The fast-check generator of the tests (`verifiedWorkloads`: one to three entities), one
 * workload per seed: `fc.sample(verifiedWorkloads, { numRuns: 1, seed })[0]`.
 */
export const ARBITRARY_SOURCE: WorkloadSource = {
  name: "arbitrary",
  draw: (seed) => {
    const [document] = fc.sample(verifiedWorkloads, { numRuns: 1, seed });
    if (document === undefined) throw new Error(`no workload for seed ${seed}`);
    return { document, text: workloadText(document) };
  },
};

/**
 * A source over a generator function of the shape `(seed) => { document, text }` (the extra
 * fields it returns, such as `features`, are ignored).
 * @example generatorSource("independent", generateIndependentWorkload)
 */
export function generatorSource(
  name: string,
  generate: (seed: number) => { readonly document: unknown; readonly text: string },
): WorkloadSource {
  return {
    name,
    draw: (seed) => {
      const { document, text } = generate(seed);
      if (typeof document !== "object" || document === null || Array.isArray(document))
        throw new Error(`${name} seed ${seed}: the document is not a mapping`);
      return { document: structuredClone(document) as Mapping, text };
    },
  };
}

/** The sources the differential bench draws from, in turn (add a generator here: one line). */
export async function workloadSources(): Promise<WorkloadSource[]> {
  return [
    ARBITRARY_SOURCE,
    generatorSource("independent", (await import("./independent-workloads.js")).generateIndependentWorkload),
  ];
}
