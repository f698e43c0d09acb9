/**
 * The `--prices FILE` option shared by the commands that compute a bill (read by
 * `files/read-prices.ts`).
 */

/** Description to use for the option: `.option("--prices <file>", PRICES_OPTION_DESCRIPTION)`. */
export const PRICES_OPTION_DESCRIPTION =
  "YAML or JSON file overriding any of the default US prices (e.g. storagePerGBMonth: 0.3)";

/** `.option("--coefficients <file>", COEFFICIENTS_OPTION_DESCRIPTION)` (read by `files/read-coefficients.ts`). */
export const COEFFICIENTS_OPTION_DESCRIPTION =
  "request-charge coefficients written by `calibrate` from your account's measured charges (default: the built-in ones)";
