/**
 * Problems with the user's input, and design findings, as data (STYLE.md rule 5).
 * Every loader and every check returns all of them at once instead of throwing.
 */

export type Severity = "error" | "warning" | "info";

/** One problem: a namespaced code, where it is, what is wrong and what would be valid. */
export interface Issue {
  /** Namespaced code, e.g. `workload.unknownAttribute`, `evaluate.hotPartition`. */
  readonly code: string;
  readonly severity: Severity;
  /** Field path inside the document, e.g. `accessPatterns[3].where.userId`. Empty for the whole file. */
  readonly path: string;
  readonly message: string;
  /** File the problem is in, when it came from a file. */
  readonly file?: string;
  /** 1-based line in `file`, when known. */
  readonly line?: number;
  /** A suggested fix ("did you mean userId?"). */
  readonly suggestion?: string;
}

/** The result of anything that reads user input: the value, or every problem found. */
export type Result<T> =
  | { readonly ok: true; readonly value: T; readonly issues: readonly Issue[] }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/** True when at least one issue is an error (warnings and info do not fail a command). */
export function hasErrors(issues: readonly Issue[]): boolean {
  return issues.some((issue) => issue.severity === "error");
}

/** Formats one issue the way every command prints it: `file:line path: message (suggestion)`. */
export function formatIssue(issue: Issue): string {
  const where = [issue.file, issue.line].filter((part) => part !== undefined).join(":");
  const location = [where, issue.path].filter((part) => part !== "").join(" ");
  const suggestion = issue.suggestion === undefined ? "" : ` (${issue.suggestion})`;
  return `${issue.severity} ${issue.code}${location === "" ? "" : ` ${location}`}: ${issue.message}${suggestion}`;
}
