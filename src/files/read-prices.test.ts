import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRICES } from "../cosmos/prices.js";
import { CosmosModelerError } from "../common/errors.js";
import { resolvePrices } from "./read-prices.js";

async function priceFile(content: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), "prices-")), "prices.yaml");
  await writeFile(file, content);
  return file;
}

describe("resolvePrices", () => {
  it("returns the defaults without a file", async () => {
    expect(await resolvePrices(undefined)).toBe(DEFAULT_PRICES);
  });
  it("merges a valid file over the defaults", async () => {
    const prices = await resolvePrices(await priceFile("region: Brazil South\nmanualPer100RusHour: 0.012\n"));
    expect(prices).toEqual({ ...DEFAULT_PRICES, region: "Brazil South", manualPer100RusHour: 0.012 });
  });
  it("throws prices.invalid naming the file, line, field and suggestion", async () => {
    const file = await priceFile("region: X\nautoscalePer100RuHour: 0.02\nstoragePerGBMonth: free\n");
    const failure = await resolvePrices(file).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CosmosModelerError);
    const error = failure as CosmosModelerError;
    expect(error.code).toBe("prices.invalid");
    expect(error.message).toContain(`${file}:2 autoscalePer100RuHour: unknown field`);
    expect(error.message).toContain('did you mean "autoscalePer100RusHour"?');
    expect(error.message).toContain(`${file}:3 storagePerGBMonth: expected a number, got "free"`);
  });
  it("fails on a missing file", async () => {
    await expect(resolvePrices(join(tmpdir(), "no-such-prices.yaml"))).rejects.toMatchObject({
      code: "cli.fileNotFound",
    });
  });
});
