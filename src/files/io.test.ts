import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CosmosModelerError } from "../common/errors.js";
import { MAX_INPUT_BYTES, readInputFile, removeStaleTemporaries, writeFileAtomic } from "./io.js";

describe("readInputFile", () => {
  it("stops reading a device that never ends at the limit (/dev/zero), located at line 1", async () => {
    const before = process.memoryUsage().rss;
    const error = await readInputFile("/dev/zero").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CosmosModelerError);
    expect((error as CosmosModelerError).code).toBe("cli.inputTooLarge");
    expect((error as CosmosModelerError).context).toEqual({ file: "/dev/zero", line: 1 });
    // Read at most the limit (and a chunk), never the hundreds of MB a full read would take.
    expect(process.memoryUsage().rss - before).toBeLessThan(8 * MAX_INPUT_BYTES);
  });

  it("says a folder is a folder, and names the file that may have been meant", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-io-"));
    const error = await readInputFile(dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CosmosModelerError);
    expect((error as CosmosModelerError).message).toBe(
      `cannot read the file: it is a folder (give a file in it, such as ${join(dir, "workload.yaml")})`,
    );
  });

  it("names the line on which the limit falls", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-io-"));
    const path = join(dir, "big.yaml");
    const line = `${"x".repeat(99)}\n`;
    writeFileSync(path, line.repeat(MAX_INPUT_BYTES / 100 + 10));
    const error = (await readInputFile(path).catch((caught: unknown) => caught)) as CosmosModelerError;
    expect(error.code).toBe("cli.inputTooLarge");
    expect(error.context.line).toBe(Math.floor(MAX_INPUT_BYTES / 100) + 1);
  });

  it("reads a file up to the limit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-io-"));
    const path = join(dir, "w.yaml");
    writeFileSync(path, "a".repeat(MAX_INPUT_BYTES));
    expect((await readInputFile(path)).length).toBe(MAX_INPUT_BYTES);
  });
});

describe("writeFileAtomic", () => {
  it("replaces the file and leaves no temporary file; stale ones are removed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-io-"));
    const path = join(dir, "model.yaml");
    writeFileSync(join(dir, ".model.yaml.0123456789ab.tmp"), "left by a killed run");
    writeFileSync(join(dir, ".other.yaml.0123456789ab.tmp"), "another file's");
    writeFileSync(join(dir, ".notes.0123456789.tmp"), "not the tool's pattern");
    await writeFileAtomic(path, "version: 1\n");
    expect((await removeStaleTemporaries(dir)).sort()).toEqual([
      ".model.yaml.0123456789ab.tmp",
      ".other.yaml.0123456789ab.tmp",
    ]);
    expect(readdirSync(dir).sort()).toEqual([".notes.0123456789.tmp", "model.yaml"]);
  });
});
