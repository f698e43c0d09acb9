/**
 * What the CLI prints and returns when a command throws: the failure as an issue (with
 * `--json`, the one JSON document on stdout), and the exit status that tells an input problem
 * (1) from a bug (70).
 */
import { CosmosModelerError } from "../../common/errors.js";
import { issueToJson, type FailureCode, type Issue } from "../../common/issues.js";
import { escapeTerminalText } from "../../common/safe-text.js";
import { EXIT_INPUT_ERROR, EXIT_INTERNAL_ERROR, EXIT_USAGE, printJson, reportIssues } from "./output.js";
import { cliStreams } from "./streams.js";
import { USAGE_CODES } from "./usage-error.js";

/**
 * A failure as an issue, printed like any other (with `--json`, the one JSON document), and its
 * exit status. A `CosmosModelerError` of an edge (a file that cannot be read, a connection that
 * fails) is the input's or the environment's problem: exit 1. Anything else, and a model error
 * raised while computing on inputs that loaded cleanly, is a bug: "internal error, please
 * report", exit 70. A {@link UsageError} is wrong usage: exit 2.
 */
export function reportFailure(
  error: unknown,
  flags: { readonly debug: boolean; readonly json: boolean },
): number {
  const { issue, internal } = failureIssue(error);
  // An input refused with its own issues (a price file's): those, each with its line.
  const issues = nestedIssues(error) ?? [issue];
  if (flags.json) printJson({ issues: issues.map(issueToJson) });
  // Wrong usage reads like commander's own errors: "error: --scale must be ...".
  if (isUsage(error)) cliStreams().stderr(`error: ${escapeTerminalText(issue.message)}\n`);
  else reportIssues(issues);
  if (flags.debug && error instanceof Error && error.stack !== undefined)
    cliStreams().stderr(`${escapeTerminalText(error.stack)}\n`);
  else if (internal) cliStreams().stderr("(run again with --debug for the stack trace)\n");
  return internal ? EXIT_INTERNAL_ERROR : isUsage(error) ? EXIT_USAGE : EXIT_INPUT_ERROR;
}

/** The issues an edge's error carries in its context (`issues`), when it carries some. */
function nestedIssues(error: unknown): readonly Issue[] | undefined {
  if (!(error instanceof CosmosModelerError) || isInternal(error)) return undefined;
  const issues = error.context.issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const valid = issues.every(
    (entry: unknown) =>
      typeof entry === "object" &&
      entry !== null &&
      typeof (entry as Issue).code === "string" &&
      typeof (entry as Issue).message === "string" &&
      Array.isArray((entry as Issue).path),
  );
  return valid ? (issues as readonly Issue[]) : undefined;
}

/** The issue that reports a failure, and whether it is a bug. */
export function failureIssue(error: unknown): { readonly issue: Issue; readonly internal: boolean } {
  const internal = isInternal(error);
  const message = error instanceof Error ? error.message : String(error);
  const context = error instanceof CosmosModelerError ? error.context : {};
  const code = error instanceof CosmosModelerError && !internal ? error.code : "internal.error";
  const issue: Issue = {
    // An edge's error code is a failure code, or a plain session code (its file is invalid).
    code: code as FailureCode,
    severity: "error",
    path: [],
    message: internal
      ? `internal error, please report it to the cosmos-modeler maintainers with the input and the output of --debug: ${message}`
      : message,
    ...(typeof context.file === "string" ? { file: context.file } : {}),
    ...(typeof context.line === "number" ? { line: context.line } : {}),
  };
  return { issue, internal };
}

/**
 * Errors of the edges (`cli.`, `verify.`, `import.`, `mcp.`, `session.`, `prices.` codes) are
 * expected failures; `model.` errors come from the core computing on a model that passed its
 * checks, so they are bugs like any other exception.
 */
export function isInternal(error: unknown): boolean {
  return !(error instanceof CosmosModelerError) || error.code.startsWith("model.");
}

/** Wrong usage (exit 2): a {@link USAGE_CODES} error, such as an output path refused. */
function isUsage(error: unknown): boolean {
  return error instanceof CosmosModelerError && USAGE_CODES.has(error.code);
}
