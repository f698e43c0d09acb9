/**
 * Issues found while reading a model, kept with their path as segments until the loader turns
 * them into `Issue`s with a formatted path, the file and the line.
 */
import type { Issue, Severity } from "../common/issues.js";
import { formatPath } from "../source/parse-document.js";

export type PathSegment = string | number;
export type SourcePath = readonly PathSegment[];

/** An issue whose path is still a list of segments. */
export interface PathIssue {
  readonly code: string;
  readonly severity: Severity;
  readonly path: SourcePath;
  readonly message: string;
  readonly suggestion?: string;
}

/** Collects issues; `error` and `warning` add one. */
export class IssueCollector {
  readonly issues: PathIssue[] = [];

  error(code: string, path: SourcePath, message: string, suggestion?: string): void {
    this.add("error", code, path, message, suggestion);
  }

  warning(code: string, path: SourcePath, message: string, suggestion?: string): void {
    this.add("warning", code, path, message, suggestion);
  }

  private add(
    severity: Severity,
    code: string,
    path: SourcePath,
    message: string,
    suggestion?: string,
  ): void {
    this.issues.push({ code, severity, path, message, ...(suggestion === undefined ? {} : { suggestion }) });
  }
}

/** Turns path issues into `Issue`s, with the line from `lineOf` and the file when known. */
export function toIssues(
  issues: readonly PathIssue[],
  lineOf?: (path: SourcePath) => number | undefined,
  file?: string,
): Issue[] {
  return issues.map((issue) => {
    const line = lineOf?.(issue.path);
    return {
      code: issue.code,
      severity: issue.severity,
      path: formatPath(issue.path),
      message: issue.message,
      ...(file === undefined ? {} : { file }),
      ...(line === undefined ? {} : { line }),
      ...(issue.suggestion === undefined ? {} : { suggestion: issue.suggestion }),
    };
  });
}

/** A short rendering of a value for messages: `"abc"`, `3`, `a list`, `an object`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string")
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return String(value);
}
