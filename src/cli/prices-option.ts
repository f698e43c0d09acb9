/**
 * The `--prices FILE` option shared by the commands that compute a bill.
 */
import { DEFAULT_PRICES, loadPrices, type Prices } from "../cosmos/prices.js";
import { CosmosModelerError } from "../errors.js";
import { formatIssue } from "../issues.js";
import { readInputFile } from "./io.js";

/** Description to use for the option: `.option("--prices <file>", PRICES_OPTION_DESCRIPTION)`. */
export const PRICES_OPTION_DESCRIPTION =
  "YAML or JSON file overriding any of the default US prices (e.g. storagePerGBMonth: 0.3)";

/**
 * The prices to use: the defaults, or the defaults overridden by the file at `path`.
 * Throws `CosmosModelerError("prices.invalid")` listing every problem when the file is invalid.
 */
export async function resolvePrices(path: string | undefined): Promise<Prices> {
  if (path === undefined) return DEFAULT_PRICES;
  const text = await readInputFile(path);
  const result = loadPrices(text, path === "-" ? "<stdin>" : path);
  if (result.ok) return result.value;
  throw new CosmosModelerError(
    "prices.invalid",
    `the price file is invalid:\n${result.issues.map((issue) => `  ${formatIssue(issue)}`).join("\n")}`,
    { context: { file: path, issues: result.issues } },
  );
}
