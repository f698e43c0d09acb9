/**
 * How every command prints: one JSON document on stdout with `--json`, readable text otherwise,
 * issues on stderr, and the exit status of DESIGN.md (0 ok, 1 input/model errors or failed
 * verification, 2 wrong usage).
 */
import { formatIssue, hasErrors, type Issue } from "../common/issues.js";

export const EXIT_OK = 0;
export const EXIT_INPUT_ERROR = 1;
export const EXIT_USAGE = 2;

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Prints issues to stderr, errors first, and returns the exit status they imply. */
export function reportIssues(issues: readonly Issue[]): number {
  const order = { error: 0, warning: 1, info: 2 } as const;
  const sorted = [...issues].sort((a, b) => order[a.severity] - order[b.severity]);
  for (const issue of sorted) process.stderr.write(`${formatIssue(issue)}\n`);
  return hasErrors(issues) ? EXIT_INPUT_ERROR : EXIT_OK;
}
