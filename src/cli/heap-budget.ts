/**
 * The memory budget of `design` (issue 14: every command under 1 GiB on a 2-core machine). The
 * design search allocates far more than it keeps (the live heap of a 500-entity design stays
 * under 100 MB), and V8 lets the heap grow towards its default limit (about 4 GB here) before
 * collecting it: measured 1.1 GiB resident on random 500-entity workloads (bench design-speed).
 * So `design` runs in a worker thread whose old generation is capped at `DESIGN_HEAP_MB`: V8
 * then collects earlier. Measured on the design-speed bench's 500-entity workloads (seed 4):
 * capped at 896 MB they peak at 0.95 GB resident at most (uncapped: up to 1.14 GB); 640 MB is
 * too little for one of them (its live heap passes 640 MB in one group's search). A design that
 * needs more than the budget is an internal error to report (exit 70), never a native crash.
 */
import { Worker } from "node:worker_threads";
import { CosmosModelerError } from "../common/errors.js";
import { cliStreams } from "./support/streams.js";
import { reportFailure } from "./support/report-failure.js";

/** Old-generation heap of the worker that runs `design`, MB (`COSMOS_MODELER_HEAP_MB` overrides it). */
export const DESIGN_HEAP_MB = 896;

/**
 * The budget in effect: `COSMOS_MODELER_HEAP_MB` when it is a positive whole number, else the default.
 * @example heapBudgetMb({ COSMOS_MODELER_HEAP_MB: "2048" }) // 2048
 */
export function heapBudgetMb(env: Readonly<Record<string, string | undefined>>): number {
  const given = Number(env.COSMOS_MODELER_HEAP_MB);
  return Number.isSafeInteger(given) && given > 0 ? given : DESIGN_HEAP_MB;
}

/** Commands run in the heap-limited worker. */
const HEAP_LIMITED_COMMANDS: ReadonlySet<string> = new Set(["design"]);

/** What the worker posts: a piece of output, or the exit status at the end. */
export type HeapWorkerMessage =
  | { readonly kind: "stdout" | "stderr"; readonly text: string }
  | { readonly kind: "exit"; readonly code: number };

/**
 * True when `argv` (as `process.argv`) runs a command of the budget. Standard input (`-`) stays in
 * the main thread, which owns it.
 */
export function runsInHeapLimitedWorker(argv: readonly string[]): boolean {
  const command = argv.slice(2).find((arg) => !arg.startsWith("-"));
  return command !== undefined && HEAP_LIMITED_COMMANDS.has(command) && !argv.slice(2).includes("-");
}

/**
 * Runs the CLI on `argv` in a worker thread (`heap-worker.js`) with the heap budget, forwarding
 * its output in order, and returns its exit status.
 */
export function runInHeapLimitedWorker(argv: readonly string[], heapMb: number): Promise<number> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL("./heap-worker.js", import.meta.url), {
      workerData: { argv: [...argv], stderrIsTerminal: cliStreams().stderrIsTerminal?.() ?? false },
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
      // Not the process's own flags: a preload given to the process (the benches' usage report)
      // runs once, in the main thread, not again in the worker.
      execArgv: [],
      stdout: false,
      stderr: false,
    });
    let code: number | undefined;
    worker.on("message", (message: HeapWorkerMessage) => {
      if (message.kind === "exit") code = message.code;
      else cliStreams()[message.kind](message.text);
    });
    worker.on("error", (error: Error & { code?: string }) => {
      const outOfMemory = error.code === "ERR_WORKER_OUT_OF_MEMORY";
      code = reportFailure(
        outOfMemory
          ? new Error(
              `the command needed more than its memory budget of ${heapMb} MB (COSMOS_MODELER_HEAP_MB sets another)`,
            )
          : error instanceof CosmosModelerError
            ? error
            : new Error(error.message),
        { debug: argv.includes("--debug"), json: argv.includes("--json") },
      );
    });
    worker.on("exit", () => resolve(code ?? 70));
  });
}
