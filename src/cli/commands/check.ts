/**
 * `cosmos-modeler check <workload> [--json]`: loads a workload file and lists every issue.
 * Exit status 0 when it loads (warnings allowed), 1 when it has errors, 2 on wrong usage.
 */
import type { CommandRegistration } from "../main.js";
import { formatIssue, type Issue } from "../../issues.js";
import { parseSourceDocument } from "../../source/parse-document.js";
import { loadWorkload } from "../../workload/load-workload.js";
import { readInputFile } from "../io.js";
import { EXIT_INPUT_ERROR, EXIT_OK, printJson } from "../output.js";

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

export const register: CommandRegistration = (program) => {
  program
    .command("check")
    .description("validate a workload file and list its issues")
    .argument("<workload>", "workload file (YAML or JSON), or - for standard input")
    .option("--json", "print one JSON document on stdout")
    .action(async (file: string, options: { json?: boolean }) => {
      const report = checkWorkloadText(await readInputFile(file), file);
      if (options.json === true) {
        printJson(report);
      } else {
        for (const issue of report.issues) process.stderr.write(`${formatIssue(issue)}\n`);
        process.stdout.write(`${summarize(report)}\n`);
      }
      process.exitCode = report.ok ? EXIT_OK : EXIT_INPUT_ERROR;
    });
};

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
  return `${report.file === "-" ? "standard input" : report.file}: ${[
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
