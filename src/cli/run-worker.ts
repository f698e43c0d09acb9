/**
 * A worker thread that runs CLI commands in process for the fuzzer (`bench/cli-fuzz.ts`): each
 * message `{ id, argv }` is run with {@link runCli} and answered with `{ id, code, stdout,
 * stderr }`. The parent owns the clock: a command that does not answer in time is a hang, and the
 * parent terminates the thread (which stops even a busy loop) and starts another.
 */
import { parentPort } from "node:worker_threads";
import { runCli } from "./run-cli.js";

/** What the parent sends. */
export interface WorkerCommand {
  readonly id: number;
  /** Arguments after the program name, e.g. `["check", "w.yaml", "--json"]`. */
  readonly args: readonly string[];
}

/** What the worker answers. */
export interface WorkerResult {
  readonly id: number;
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

const port = parentPort;
if (port !== null) {
  port.on("message", (command: WorkerCommand) => {
    let stdout = "";
    let stderr = "";
    const start = performance.now();
    void runCli(["node", "cosmos-modeler", ...command.args], {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
    })
      // runCli reports every failure itself; a rejection here is a bug of the harness, shown as -1.
      .catch((error: unknown) => {
        stderr += `run-worker: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`;
        return -1;
      })
      .then((code) => {
        const result: WorkerResult = { id: command.id, code, stdout, stderr, ms: performance.now() - start };
        port.postMessage(result);
      });
  });
}
