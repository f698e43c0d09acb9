/**
 * The version `cosmos-modeler --version` prints: the `version` of the package's own package.json,
 * three folders above this module (from `src/cli/support` and `dist/cli/support` alike).
 */
import { readFileSync } from "node:fs";

/** package.json from src/cli/support/version.ts or dist/cli/support/version.js. */
const PACKAGE_JSON = new URL("../../../package.json", import.meta.url);

/** The package's version, or "unknown" when its package.json cannot be read. */
export function packageVersion(): string {
  try {
    const parsed = JSON.parse(readFileSync(PACKAGE_JSON, "utf8")) as { version?: unknown };
    return typeof parsed.version === "string" ? parsed.version : "unknown";
  } catch {
    return "unknown";
  }
}
