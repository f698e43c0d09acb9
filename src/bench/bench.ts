/**
 * The shape of a bench module: `npm run bench` runs every module listed in main.ts.
 */

/** Where the bench finds its inputs. */
export interface BenchContext {
  /** shared/benchmarks beside the repository (may not exist). */
  readonly benchmarksDir: string;
}

export interface BenchResult {
  /** False when the module's targets are missed; `npm run bench` then exits 1. */
  readonly passed: boolean;
  /** False when its inputs were missing and it did not run (not a failure). */
  readonly ran: boolean;
  /** The text printed for the module. */
  readonly report: string;
}

export interface Bench {
  readonly name: string;
  run(context: BenchContext): Promise<BenchResult>;
}
