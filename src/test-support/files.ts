/**
 * Test support: the files of a folder tree.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file under `dir` (none when it does not exist), as sorted paths relative to it. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}
