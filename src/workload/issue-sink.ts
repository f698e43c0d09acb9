/**
 * Collects the issues of one load, each with its file, line and field path, so that every
 * check can report with one call and the loader can return all of them at once.
 */
import type { Issue, Severity } from "../common/issues.js";
import { formatPath } from "../source/parse-document.js";

export type FieldPath = readonly (string | number)[];

export interface IssueSink {
  report(severity: Severity, code: string, path: FieldPath, message: string, suggestion?: string): void;
  error(code: string, path: FieldPath, message: string, suggestion?: string): void;
  warning(code: string, path: FieldPath, message: string, suggestion?: string): void;
  /** True once any error (not warning) was reported. */
  hasErrors(): boolean;
  /** The issues in the order of the file (by line), then in the order reported. */
  issues(): readonly Issue[];
}

/** A sink that places issues in `file`, finding lines with `lineOf`. */
export function createIssueSink(
  lineOf: (path: FieldPath) => number | undefined,
  file: string | undefined,
): IssueSink {
  const collected: Issue[] = [];
  const report: IssueSink["report"] = (severity, code, path, message, suggestion) => {
    const line = lineOf(path);
    collected.push({
      code,
      severity,
      path: formatPath(path),
      message,
      ...(file === undefined ? {} : { file }),
      ...(line === undefined ? {} : { line }),
      ...(suggestion === undefined ? {} : { suggestion }),
    });
  };
  return {
    report,
    error: (code, path, message, suggestion) => report("error", code, path, message, suggestion),
    warning: (code, path, message, suggestion) => report("warning", code, path, message, suggestion),
    hasErrors: () => collected.some((issue) => issue.severity === "error"),
    issues: () =>
      collected
        .map((issue, index) => ({ issue, index }))
        .sort(
          (a, b) =>
            (a.issue.line ?? Number.MAX_SAFE_INTEGER) - (b.issue.line ?? Number.MAX_SAFE_INTEGER) ||
            a.index - b.index,
        )
        .map(({ issue }) => issue),
  };
}
