/**
 * What every CLI run of the fuzzer must satisfy (issue 14, docs/json-output.md): an answer in
 * time, an exit status of 0, 1 or 2 (never 70, an internal error), no stack trace, exactly one
 * JSON document on stdout with `--json` whose issues each carry a location, an exit status that
 * agrees with the errors reported, no raw control character on either stream, and no temporary
 * file left in the output folder.
 */

/** How one run ended. */
export interface RunOutcome {
  /** The exit status; undefined when the run did not end (hang) or the runner died (crash). */
  readonly code?: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** "hang" (no answer in time), "crash" (the thread or process died: out of memory, abort). */
  readonly failure?: string;
}

/** What was run. */
export interface RunShape {
  readonly command: string;
  readonly json: boolean;
  /** The output folder's files after the run (relative paths), when there was one. */
  readonly outputFiles?: readonly string[];
  /**
   * `design` without `--out`: the designed model is written nowhere, so the findings about its
   * containers have a path in it (`containers.posts`) and no file (docs/json-output.md).
   */
  readonly unwrittenModel?: boolean;
}

/**
 * Issues that may lack a line, each for a documented reason (docs/json-output.md, "file, line"):
 * a file that could not be read or written is named without a line (there is no line to name),
 * and the whole-document size limit names the line where the limit falls when it knows it.
 */
const WITHOUT_LINE = new Set([
  "cli.fileNotFound",
  "cli.writeFailed",
  "cli.handEdited",
  "cli.badOutputPath",
  "cli.invalidOutputPath",
  "files.outsideFolder",
  "files.notRegularFile",
]);

/* eslint-disable no-control-regex -- this expression exists to find control characters */
/** A character that must never reach a terminal raw (C0 but line feed and tab, C1, bidi). */
const RAW_CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/* eslint-enable no-control-regex */

/** A line of a JavaScript stack trace. */
const STACK_LINE = /^\s+at .+(\(|\s)(file:|node:|\/)[^)]*:\d+:\d+\)?$/m;

/** The tool's temporary files (`files/io.ts`): `.name.<12 hex>.tmp`. */
const TEMPORARY = /(^|\/)\.[^/]+\.[0-9a-f]{12}\.tmp$/;

interface JsonIssue {
  readonly code?: unknown;
  readonly severity?: unknown;
  readonly file?: unknown;
  readonly line?: unknown;
  readonly path?: unknown;
}

/** The issues of a `--json` document: `issues`, and a design's `evaluation.issues`. */
function issuesOf(document: unknown): JsonIssue[] {
  if (document === null || typeof document !== "object") return [];
  const record = document as { issues?: unknown; evaluation?: { issues?: unknown } };
  const lists = [record.issues, record.evaluation?.issues].filter(Array.isArray) as unknown[][];
  return lists.flat().filter((issue): issue is JsonIssue => issue !== null && typeof issue === "object");
}

/** The contract's failures of one run (empty when it holds). */
export function checkRun(shape: RunShape, outcome: RunOutcome): string[] {
  if (outcome.failure !== undefined) return [outcome.failure];
  const failures: string[] = [];
  const code = outcome.code;
  if (code !== 0 && code !== 1 && code !== 2)
    failures.push(
      `exit status ${String(code)}${code === 70 ? " (internal error)" : ""}: ${firstLines(outcome.stderr)}`,
    );
  if (/internal error/i.test(outcome.stderr)) failures.push(`internal error: ${firstLines(outcome.stderr)}`);
  if (STACK_LINE.test(outcome.stderr) || STACK_LINE.test(outcome.stdout))
    failures.push(`stack trace printed: ${firstLines(outcome.stderr)}`);
  if (RAW_CONTROL.test(outcome.stdout)) failures.push("a raw control character on stdout");
  if (RAW_CONTROL.test(outcome.stderr)) failures.push("a raw control character on stderr");
  for (const file of shape.outputFiles ?? [])
    if (TEMPORARY.test(file)) failures.push(`temporary file left in the output folder: ${file}`);
  // Usage errors (2) print their one document too (issue 32).
  if (shape.json && (code === 0 || code === 1 || code === 2))
    failures.push(...checkJson(outcome.stdout, code, shape.unwrittenModel === true));
  return failures;
}

function checkJson(stdout: string, code: number, unwrittenModel: boolean): string[] {
  let document: unknown;
  try {
    document = JSON.parse(stdout);
  } catch (error) {
    return [
      `--json: stdout is not exactly one JSON document (${error instanceof Error ? error.message : String(error)}): ${JSON.stringify(stdout.slice(0, 200))}`,
    ];
  }
  const failures: string[] = [];
  const issues = issuesOf(document);
  for (const issue of issues) {
    const inUnwrittenModel =
      unwrittenModel &&
      String(issue.code).startsWith("evaluate.") &&
      String(issue.path).startsWith("containers");
    // A usage error is about the arguments, not a file.
    if (inUnwrittenModel || issue.code === "cli.usage") continue;
    if (typeof issue.file !== "string")
      failures.push(`issue without a file: ${String(issue.code)} at ${String(issue.path)}`);
    else if (typeof issue.line !== "number" && !WITHOUT_LINE.has(String(issue.code)))
      failures.push(`issue without a line: ${String(issue.code)} at ${String(issue.path)} in ${issue.file}`);
    if (typeof issue.path !== "string") failures.push(`issue path is not a string: ${String(issue.code)}`);
  }
  const errors = issues.filter((issue) => issue.severity === "error").length;
  if (code === 0 && errors > 0) failures.push(`exit status 0 with ${errors} error(s) in the JSON document`);
  if (code !== 0 && errors === 0) failures.push(`exit status ${code} without any error in the JSON document`);
  return failures;
}

function firstLines(text: string): string {
  return text.split("\n").slice(0, 3).join(" | ").slice(0, 400);
}
