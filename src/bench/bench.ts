/**
 * The shape of a bench module: `npm run bench` runs every module listed in main.ts.
 */
import { join } from "node:path";

/** Where the bench finds its inputs, all inside the repository. */
export interface BenchContext {
  /** The repository checkout (where `node_modules` and `src` are). */
  readonly root: string;
  /** `bench/data`: ru-measurements.jsonl and blogging-case-study.json (see its README.md). */
  readonly dataDir: string;
  /** `examples`: the example workloads (`blogging/workload.yaml`). */
  readonly examplesDir: string;
  /** `test/fixtures/examples`: the examples' models (`blogging/model-v1.yaml` ... `model-v3.yaml`). */
  readonly modelsDir: string;
}

/** The bench's inputs in the repository checkout at `root`. */
export function repositoryBenchContext(root: string): BenchContext {
  return {
    root,
    dataDir: join(root, "bench", "data"),
    examplesDir: join(root, "examples"),
    modelsDir: join(root, "test", "fixtures", "examples"),
  };
}

export interface BenchResult {
  /** False when the module's targets are missed; `npm run bench` then exits 1. */
  readonly passed: boolean;
  /** False when its inputs were missing and it did not run (`npm run bench` then exits 1). */
  readonly ran: boolean;
  /** The text printed for the module. */
  readonly report: string;
}

export interface Bench {
  readonly name: string;
  run(context: BenchContext): Promise<BenchResult>;
}
