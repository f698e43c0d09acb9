/**
 * Design speed: designs generated workloads of 20 and 200 entities (2.5 patterns per entity) and
 * reports the time. Targets (issue 4): 200 entities in under 5 s on this machine, and 10x the
 * workload at most 10x the time.
 */
import { designModel } from "../design/design-model.js";
import { generateWorkload } from "../design/generate-workload.js";
import type { Bench } from "./bench.js";

const SMALL = 20;
const LARGE = 200;
const LIMIT_MS = 5_000;

/** Fastest wall time of `runs` designs, in ms (the least disturbed by the machine's other work). */
function timeDesign(entities: number, runs: number): { ms: number; containers: number; patterns: number } {
  const workload = generateWorkload(entities);
  const times: number[] = [];
  let containers = 0;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    containers = designModel(workload).model.containers.length;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    ms: times[Math.floor(times.length / 2)] ?? 0,
    containers,
    patterns: workload.accessPatterns.length,
  };
}

export const bench: Bench = {
  name: "design speed (generated workloads)",
  async run() {
    // Warm up both sizes (JIT), then take the fastest run: the small design takes tens of ms, so
    // it gets more runs to keep the ratio from following the machine's noise.
    timeDesign(SMALL, 2);
    timeDesign(LARGE, 1);
    const small = timeDesign(SMALL, 15);
    const large = timeDesign(LARGE, 5);
    const ratio = large.ms / Math.max(small.ms, 1e-9);
    const passed = large.ms < LIMIT_MS && ratio <= LARGE / SMALL;
    const report = [
      `${SMALL} entities, ${small.patterns} patterns: ${small.ms.toFixed(0)} ms (fastest of 15), ${small.containers} containers`,
      `${LARGE} entities, ${large.patterns} patterns: ${large.ms.toFixed(0)} ms (fastest of 5), ${large.containers} containers`,
      `time ratio ${ratio.toFixed(1)}x for ${LARGE / SMALL}x the workload (target <= ${LARGE / SMALL}x); ${LARGE} entities ${large.ms < LIMIT_MS ? "under" : "OVER"} ${LIMIT_MS / 1000} s`,
      passed ? "targets met" : "targets MISSED",
    ].join("\n");
    return { passed, ran: true, report };
  },
};
