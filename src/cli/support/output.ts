/**
 * How every command prints: one JSON document on stdout with `--json`, readable text otherwise,
 * issues on stderr, and the exit status of the CLI contract (docs/json-output.md): 0 ok, 1 the
 * input or the model has errors (or verification failed), 2 wrong usage, 70 internal error.
 * Everything printed goes through the control-character escaping of `common/safe-text`,
 * so no name in an input can act on the terminal.
 */
import {
  abbreviateLongRuns,
  escapeControlCharacters,
  escapeJsonText,
  escapeTerminalText,
} from "../../common/safe-text.js";
import { formatIssue, hasErrors, issueToJson, type Issue } from "../../common/issues.js";
import { cliStreams } from "./streams.js";

export const EXIT_OK = 0;
export const EXIT_INPUT_ERROR = 1;
export const EXIT_USAGE = 2;
/**
 * A bug in cosmos-modeler (an input that loaded without errors made it fail): sysexits.h
 * EX_SOFTWARE, "an internal software error has been detected", distinct from input errors.
 */
export const EXIT_INTERNAL_ERROR = 70;

export function printJson(value: unknown): void {
  cliStreams().stdout(`${escapeJsonText(JSON.stringify(value, null, 2))}\n`);
}

/** Writes a multi-line text report to stdout. */
export function printText(text: string): void {
  cliStreams().stdout(escapeTerminalText(text));
}

/** Writes a line of the CLI's own to stderr (a note after the issues). */
export function printError(text: string): void {
  cliStreams().stderr(escapeTerminalText(text));
}

/** Prints issues to stderr, errors first, and returns the exit status they imply. */
export function reportIssues(issues: readonly Issue[]): number {
  const order = { error: 0, warning: 1, info: 2 } as const;
  const sorted = [...issues].sort((a, b) => order[a.severity] - order[b.severity]);
  for (const issue of sorted)
    cliStreams().stderr(`${abbreviateLongRuns(escapeControlCharacters(formatIssue(issue)))}\n`);
  return hasErrors(issues) ? EXIT_INPUT_ERROR : EXIT_OK;
}

/**
 * Reports input that cannot be used (its issues) on stderr, and with `--json` also as the one
 * JSON document on stdout, `{ issues: [...] }` (stderr then lists the errors only, as `design
 * --json` does). Returns the exit status (1 when any is an error).
 */
export function reportRefusedInput(issues: readonly Issue[], json: boolean | undefined): number {
  if (json !== true) return reportIssues(issues);
  printJson({ issues: issues.map(issueToJson) });
  return reportIssues(issues.filter((issue) => issue.severity === "error"));
}
