/**
 * Reads the price file given to the commands and tools that compute a bill (`--prices FILE`).
 */
import { DEFAULT_PRICES, type Prices } from "../cosmos/prices.js";
import { loadPrices } from "../cost/load-prices.js";
import { CosmosModelerError } from "../common/errors.js";
import { formatIssue } from "../common/issues.js";
import { inputName, PRICES_INPUT, readInputFile } from "./io.js";

/**
 * The prices to use: the defaults, or the defaults overridden by the file at `path`.
 * Throws `CosmosModelerError("prices.invalid")` listing every problem when the file is invalid.
 */
export async function resolvePrices(path: string | undefined): Promise<Prices> {
  if (path === undefined) return DEFAULT_PRICES;
  const text = await readInputFile(path, PRICES_INPUT);
  const result = loadPrices(text, inputName(path));
  if (result.ok) return result.value;
  throw new CosmosModelerError(
    "prices.invalid",
    `the price file is invalid:\n${result.issues.map((issue) => `  ${formatIssue(issue)}`).join("\n")}`,
    { context: { file: path, issues: result.issues } },
  );
}
