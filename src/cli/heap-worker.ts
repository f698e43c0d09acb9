/**
 * The worker thread of a heap-limited command (heap-budget.ts): runs the CLI on the argv it is
 * given and posts its output and exit status to the main thread, which prints them.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { HeapWorkerMessage } from "./heap-budget.js";
import { runCli } from "./run-cli.js";

const port = parentPort;
if (port !== null) {
  const post = (message: HeapWorkerMessage): void => port.postMessage(message);
  const { argv, stderrIsTerminal } = workerData as {
    readonly argv: readonly string[];
    readonly stderrIsTerminal: boolean;
  };
  const code = await runCli(argv, {
    stdout: (text) => post({ kind: "stdout", text }),
    stderr: (text) => post({ kind: "stderr", text }),
    stderrIsTerminal: () => stderrIsTerminal,
  });
  post({ kind: "exit", code });
}
