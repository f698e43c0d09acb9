/**
 * Runs a long tool in a worker thread: the request loop keeps answering `ping` while it works,
 * a cancellation (`notifications/cancelled`, which aborts the request's signal) terminates the
 * thread at once, and the worker's progress is passed on. The worker's standard output goes to
 * standard error, so nothing it prints can corrupt the protocol on standard output.
 */
import { Worker } from "node:worker_threads";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CosmosModelerError } from "../common/errors.js";
import type { ReportProgress, ServerConfig } from "./support/tool-definition.js";

/** What the worker is asked to do. */
export interface WorkerTask {
  readonly tool: string;
  readonly dir: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** How each confined path argument is shown to the user (relative to the session folder). */
  readonly displayed: Readonly<Record<string, string>>;
  readonly config: ServerConfig;
}

/** What the worker posts back. */
export type WorkerMessage =
  | {
      readonly kind: "progress";
      readonly done: number;
      readonly total: number | undefined;
      readonly message: string;
    }
  | { readonly kind: "result"; readonly result: CallToolResult }
  | { readonly kind: "error"; readonly message: string };

const WORKER_URL = new URL("./tool-worker.js", import.meta.url);

/**
 * Runs `task` in a new worker thread. Rejects with `mcp.cancelled` when `signal` aborts (the
 * thread is terminated), with `mcp.toolFailed` when the tool throws.
 */
export function runInWorker(
  task: WorkerTask,
  options: { readonly signal: AbortSignal; readonly onProgress: ReportProgress },
): Promise<CallToolResult> {
  return new Promise((resolvePromise, reject) => {
    if (options.signal.aborted) {
      reject(new CosmosModelerError("mcp.cancelled", `${task.tool} was cancelled`));
      return;
    }
    const worker = new Worker(WORKER_URL, { workerData: task, stdout: true, stderr: true });
    worker.stdout.pipe(process.stderr);
    worker.stderr.pipe(process.stderr);
    let settled = false;
    const settle = (done: () => void): void => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener("abort", onAbort);
      done();
    };
    const onAbort = (): void => {
      settle(() => reject(new CosmosModelerError("mcp.cancelled", `${task.tool} was cancelled`)));
      void worker.terminate();
    };
    options.signal.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (message: WorkerMessage) => {
      switch (message.kind) {
        case "progress":
          if (!settled) options.onProgress(message.done, message.total, message.message);
          return;
        case "result":
          settle(() => resolvePromise(message.result));
          void worker.terminate();
          return;
        case "error":
          settle(() =>
            reject(new CosmosModelerError("mcp.toolFailed", `${task.tool} failed: ${message.message}`)),
          );
          void worker.terminate();
          return;
        default:
          message satisfies never;
      }
    });
    worker.on("error", (error) =>
      settle(() => reject(new CosmosModelerError("mcp.toolFailed", `${task.tool} failed: ${error.message}`))),
    );
    worker.on("exit", (code) =>
      settle(() =>
        reject(new CosmosModelerError("mcp.toolFailed", `${task.tool} stopped (worker exit code ${code})`)),
      ),
    );
  });
}
