#!/usr/bin/env node
/**
 * The `cosmos-modeler` command line: a thin layer over the pure core (STYLE.md rule 1).
 * Each command lives in `commands/`; `run-cli.ts` wires them and turns failures into exit codes.
 * `design` runs in a worker thread with a heap budget (heap-budget.ts).
 */
import { heapBudgetMb, runInHeapLimitedWorker, runsInHeapLimitedWorker } from "./heap-budget.js";
import { runCli } from "./run-cli.js";

process.exitCode = runsInHeapLimitedWorker(process.argv)
  ? await runInHeapLimitedWorker(process.argv, heapBudgetMb(process.env))
  : await runCli(process.argv);
