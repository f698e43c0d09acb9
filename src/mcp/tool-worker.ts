/**
 * The entry of a worker thread that runs one long tool (design, evaluation, verification) for
 * the MCP server, so the server's request loop stays free to answer `ping` and cancellations.
 * It receives the tool's name, the session folder and the already confined arguments, posts
 * progress as it goes, and posts the result (a domain failure is a result, not an exception).
 */
import { parentPort, workerData } from "node:worker_threads";
import { CosmosModelerError } from "../common/errors.js";
import { failure } from "./support/results.js";
import { TOOLS } from "./tools/index.js";
import type { WorkerMessage, WorkerTask } from "./run-in-worker.js";

const post = (message: WorkerMessage): void => parentPort?.postMessage(message);
const task = workerData as WorkerTask;

async function main(): Promise<void> {
  const tool = TOOLS.find((candidate) => candidate.name === task.tool);
  if (tool === undefined) throw new Error(`no tool ${task.tool}`);
  try {
    const result = await tool.run(
      {
        dir: task.dir,
        config: task.config,
        display: (path) => task.displayed[path] ?? path,
        progress: (done, total, message) => post({ kind: "progress", done, total, message }),
      },
      task.args as never,
    );
    post({ kind: "result", result });
  } catch (error) {
    if (error instanceof CosmosModelerError) {
      post({ kind: "result", result: failure(`${error.code}: ${error.message}`) });
      return;
    }
    post({ kind: "error", message: error instanceof Error ? error.message : String(error) });
  }
}

void main();
