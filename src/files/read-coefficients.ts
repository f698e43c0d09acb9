/**
 * Reads the request-charge coefficients given to the commands and tools that estimate RU
 * (`--coefficients FILE`, written by `calibrate`).
 */
import { CosmosModelerError } from "../common/errors.js";
import { formatIssue } from "../common/issues.js";
import type { RuCoefficients } from "../estimator/coefficients.js";
import { parseCoefficients } from "../estimator/calibration.js";
import { COEFFICIENTS_INPUT, inputName, readInputFile } from "./io.js";

/** The evaluation options a coefficients file sets: none without a file. */
export interface CoefficientsOptions {
  readonly coefficients?: RuCoefficients;
  readonly coefficientsSource?: string;
}

/**
 * The coefficients at `path` with where they come from, or `{}` (the built-in ones) without a
 * path. Throws `CosmosModelerError("coefficients.invalid")` listing every problem of the file.
 */
export async function resolveCoefficients(path: string | undefined): Promise<CoefficientsOptions> {
  if (path === undefined) return {};
  const text = await readInputFile(path, COEFFICIENTS_INPUT);
  const result = parseCoefficients(text, inputName(path));
  if (result.ok)
    return {
      coefficients: result.value.coefficients,
      coefficientsSource: `${result.value.fittedOn} (${inputName(path)})`,
    };
  throw new CosmosModelerError(
    "coefficients.invalid",
    `the coefficients file is invalid:\n${result.issues.map((issue) => `  ${formatIssue(issue)}`).join("\n")}`,
    { context: { file: path, issues: result.issues } },
  );
}
