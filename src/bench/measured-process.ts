/**
 * Runs a Node.js script in a child process and measures it: wall time (from the parent, Node's
 * start-up included), peak resident set size (the child's own `process.resourceUsage().maxRSS`,
 * reported by report-usage.ts at exit) and how it ended. The child is killed at `timeoutMs`, so
 * a bench ends in bounded time whatever the code under test does.
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface Measured {
  readonly wallMs: number;
  /** Peak RSS in MiB; undefined when the child died before its exit handlers ran (a crash, a kill). */
  readonly maxRssMiB: number | undefined;
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

const PRELOAD = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), "report-usage.js")).href;

/**
 * Runs `node <nodeArgs> <script> <args>` with the usage preload; `stdout: false` discards the
 * child's stdout.
 */
export function runMeasured(
  script: string,
  args: readonly string[],
  options: { readonly timeoutMs: number; readonly stdout?: boolean; readonly nodeArgs?: readonly string[] },
): Measured {
  const start = performance.now();
  const result = spawnSync(
    process.execPath,
    [...(options.nodeArgs ?? []), "--import", PRELOAD, script, ...args],
    {
      stdio: ["ignore", options.stdout === false ? "ignore" : "pipe", "pipe", "pipe"],
      timeout: options.timeoutMs,
      killSignal: "SIGKILL",
      maxBuffer: 512 * 1024 * 1024,
      encoding: "utf8",
    },
  );
  const wallMs = performance.now() - start;
  const usage = String(result.output?.[3] ?? "");
  let maxRssMiB: number | undefined;
  try {
    const parsed = JSON.parse(usage) as { maxRssKiB?: unknown };
    if (typeof parsed.maxRssKiB === "number") maxRssMiB = parsed.maxRssKiB / 1024;
  } catch {
    maxRssMiB = undefined;
  }
  return {
    wallMs,
    maxRssMiB,
    status: result.status,
    signal: result.signal,
    timedOut: result.error !== undefined && "code" in result.error && result.error.code === "ETIMEDOUT",
    stdout: String(result.stdout ?? ""),
    stderr: String(result.stderr ?? ""),
  };
}
