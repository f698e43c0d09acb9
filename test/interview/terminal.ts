/**
 * Test helpers of the end-to-end tests: where the built CLI is, and building it when it is stale.
 * Interactive commands are driven in a real pseudo-terminal (`pty-terminal.ts`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const cli = join(root, "dist", "cli", "main.js");

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

/** Builds dist/ unless it is newer than every source file (`npm test` builds first). */
export function ensureBuilt(file: string): void {
  const built = join(root, "dist", file);
  if (!existsSync(built) || statSync(built).mtimeMs < newestSource(join(root, "src"))) {
    spawnSync(
      process.execPath,
      [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
      {
        cwd: root,
        encoding: "utf8",
      },
    );
  }
  if (!existsSync(built)) throw new Error(`${built} was not built`);
}
