/**
 * Wrong usage found by a command itself rather than by commander: an option value that is not
 * valid, a flag that does nothing without another, an output path that cannot be written. Exit
 * status 2 (docs/json-output.md); with `--json` reported as the one JSON document like any issue.
 */
import { CosmosModelerError } from "../../common/errors.js";
import { INVALID_OUTPUT_PATH } from "../../files/output-path.js";

/** Codes of usage errors: `cli.usage`, or `cli.invalidOutputPath` for an output path refused. */
export type UsageCode = "cli.usage" | typeof INVALID_OUTPUT_PATH;

/** The codes of errors reported as wrong usage, exit 2. */
export const USAGE_CODES: ReadonlySet<string> = new Set<UsageCode>(["cli.usage", INVALID_OUTPUT_PATH]);

/** A usage error: the message names the flag, the value, what is wrong and what would be valid. */
export class UsageError extends CosmosModelerError {
  constructor(
    message: string,
    code: UsageCode = "cli.usage",
    context: Readonly<Record<string, unknown>> = {},
  ) {
    super(code, message, { context });
    this.name = "UsageError";
  }
}
