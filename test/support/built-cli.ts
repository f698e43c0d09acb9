/**
 * The built CLI (`dist/cli/main.js`) for end-to-end tests: `npm test` builds first; vitest's global
 * setup (global-setup.ts) builds when dist/ is older than a source file, before any test runs.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CLI = join(ROOT, "dist", "cli", "main.js");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds dist/ unless it is newer than every source file. Emits without type checking (`--noCheck`):
 * `npm run typecheck` checks the same files, and work in progress with a type error still runs.
 */
export function ensureBuilt(): void {
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= newestSource(join(ROOT, "src"))) return;
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const built = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--noCheck"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`build failed:\n${built.stdout}${built.stderr}`);
}

/** Runs the CLI; throws with its output when it exits with another status than `expected`. */
export function runCli(args: readonly string[], expected = 0): { stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: "utf8" });
  if (run.status !== expected)
    throw new Error(`cosmos-modeler ${args.join(" ")} exited ${run.status}:\n${run.stdout}${run.stderr}`);
  return { stdout: run.stdout, stderr: run.stderr };
}
