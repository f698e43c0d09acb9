/**
 * The built CLI run in a worker thread of the test's process, synchronously, like `spawnSync`:
 * the thread imports `dist/cli/run-cli.js` once (the `runCli` that `dist/cli/main.js` calls, and
 * that the fuzzer runs thousands of commands through), so a test file with many commands pays
 * the CLI's start (about 1.5 s of CPU: every command's modules) once, not once per command.
 *
 * What only a real process shows stays with `spawnSync` in the tests: standard input, the
 * environment, the heap budget of `design` (main.ts runs it in a heap-limited worker), a kill,
 * and `verify`, which prints its progress to the process's stderr.
 */
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { ROOT } from "./built-cli.js";

/** What a command printed and its exit status, as `spawnSync` gives them. */
export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The thread: runs each command it is sent, answers on the command's port, then wakes the caller. */
const THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const loaded = import(workerData.runCli);
parentPort.on("message", async ({ args, port, signal }) => {
  let stdout = "";
  let stderr = "";
  let status;
  try {
    const { runCli } = await loaded;
    status = await runCli(["node", "cosmos-modeler", ...args], {
      stdout: (text) => { stdout += text; },
      stderr: (text) => { stderr += text; },
    });
  } catch (error) {
    status = -1;
    stderr += "cli-thread: " + (error instanceof Error ? error.stack : String(error)) + "\\n";
  }
  port.postMessage({ status, stdout, stderr });
  port.close();
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
`;

let thread: Worker | undefined;

/**
 * Runs `cosmos-modeler ...args` in the CLI thread (started on first use) and waits for it.
 * Throws when the command does not answer within `timeoutMs`.
 * @example runCliInThread(["check", "examples/blogging/workload.yaml", "--json"]).status // 0
 */
export function runCliInThread(args: readonly string[], timeoutMs = 120_000): CliRun {
  if (thread === undefined) {
    thread = new Worker(THREAD, {
      eval: true,
      workerData: { runCli: pathToFileURL(join(ROOT, "dist", "cli", "run-cli.js")).href },
    });
    // The thread never keeps the test's process alive.
    thread.unref();
  }
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  thread.postMessage({ args: [...args], port: port2, signal }, [port2]);
  const woken = Atomics.wait(signal, 0, 0, timeoutMs);
  const answer = receiveMessageOnPort(port1);
  port1.close();
  if (woken === "timed-out" || answer === undefined) {
    // A command that hangs takes the thread with it: the next command starts another.
    void thread.terminate();
    thread = undefined;
    throw new Error(`cosmos-modeler ${args.join(" ")} did not answer within ${timeoutMs} ms`);
  }
  return answer.message as CliRun;
}
