/**
 * What `check` reports about a workload's text: whether it loads, what it lists, and every issue
 * sorted by severity. Shared by the `check` command and the MCP `check-workload` tool.
 */
import type { Issue } from "../common/issues.js";
import { escapeControlCharacters } from "../common/safe-text.js";
import { parseSourceDocument } from "../source/parse-document.js";
import { loadWorkload } from "./load-workload.js";

/** What `check --json` prints. */
export interface CheckReport {
  readonly ok: boolean;
  readonly file: string;
  readonly summary: {
    readonly entities: number;
    readonly relationships: number;
    readonly accessPatterns: number;
    readonly errors: number;
    readonly warnings: number;
  };
  readonly issues: readonly Issue[];
}

/** Checks a workload's text; `file` is the name issues and the summary show. */
export function checkWorkloadText(text: string, file: string): CheckReport {
  const result = loadWorkload(text, { file });
  const counts = result.ok
    ? {
        entities: result.value.entities.length,
        relationships: result.value.relationships.length,
        accessPatterns: result.value.accessPatterns.length,
      }
    : countListed(text);
  const bySeverity = [...result.issues].sort((a, b) => rank(a) - rank(b));
  return {
    ok: result.ok,
    file,
    summary: {
      ...counts,
      errors: result.issues.filter((issue) => issue.severity === "error").length,
      warnings: result.issues.filter((issue) => issue.severity === "warning").length,
    },
    issues: bySeverity,
  };
}

/** `blogging/workload.yaml: 4 entities, 11 access patterns, 0 errors, 1 warning`. */
export function summarize(report: CheckReport): string {
  const { summary } = report;
  // A file name may hold a line feed: escaped, as in every issue line.
  return `${escapeControlCharacters(report.file)}: ${[
    plural(summary.entities, "entity", "entities"),
    plural(summary.relationships, "relationship", "relationships"),
    plural(summary.accessPatterns, "access pattern", "access patterns"),
    plural(summary.errors, "error", "errors"),
    plural(summary.warnings, "warning", "warnings"),
  ].join(", ")}`;
}

/** What the file lists, even when it does not load (0 where the structure is unreadable). */
function countListed(text: string): { entities: number; relationships: number; accessPatterns: number } {
  const parsed = parseSourceDocument(text);
  const value = parsed.ok ? parsed.document.value : undefined;
  const field = (name: string): unknown =>
    typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  const entities = field("entities");
  const relationships = field("relationships");
  const accessPatterns = field("accessPatterns");
  return {
    entities:
      typeof entities === "object" && entities !== null && !Array.isArray(entities)
        ? Object.keys(entities).length
        : 0,
    relationships: Array.isArray(relationships) ? relationships.length : 0,
    accessPatterns: Array.isArray(accessPatterns) ? accessPatterns.length : 0,
  };
}

function rank(issue: Issue): number {
  return issue.severity === "error" ? 0 : issue.severity === "warning" ? 1 : 2;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
