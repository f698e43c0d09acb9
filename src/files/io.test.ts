import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CosmosModelerError } from "../common/errors.js";
import {
  DDL_INPUT,
  MAX_INPUT_BYTES,
  MODEL_INPUT,
  readInputFile,
  removeStaleTemporaries,
  WORKLOAD_INPUT,
  writeFileAtomic,
  type ExpectedFile,
} from "./io.js";

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

  it("says a folder is a folder and what is expected, with files of that kind found in it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-io-"));
    const refusal = async (path: string, expected?: ExpectedFile) =>
      (await readInputFile(path, expected).catch((caught: unknown) => caught)) as CosmosModelerError;
    const empty = await refusal(dir, WORKLOAD_INPUT);
    expect(empty).toBeInstanceOf(CosmosModelerError);
    expect(empty.code).toBe("cli.fileNotFound");
    expect(empty.context).toEqual({ file: dir });
    expect(empty.message).toBe(`${dir} is a folder, not a file: give a workload file (YAML or JSON)`);
    expect((await refusal(dir)).message).toBe(`${dir} is a folder, not a file: give a file`);
    // Files of the kind in the folder, or else in its sub-folders (one level down), are offered.
    mkdirSync(join(dir, "blogging"));
    mkdirSync(join(dir, "shop"));
    writeFileSync(join(dir, "blogging", "workload.yaml"), "");
    writeFileSync(join(dir, "shop", "workload.yaml"), "");
    writeFileSync(join(dir, "shop", "expert-model.yaml"), "");
    writeFileSync(join(dir, "schema.sql"), "");
    expect((await refusal(dir, WORKLOAD_INPUT)).message).toBe(
      `${dir} is a folder, not a file: give a workload file (YAML or JSON), such as ${join(dir, "blogging", "workload.yaml")} or ${join(dir, "shop", "workload.yaml")}`,
    );
    expect((await refusal(join(dir, "shop"), MODEL_INPUT)).message).toBe(
      `${join(dir, "shop")} is a folder, not a file: give a model file (YAML or JSON), such as ${join(dir, "shop", "expert-model.yaml")}`,
    );
    expect((await refusal(dir, DDL_INPUT)).message).toBe(
      `${dir} is a folder, not a file: give a DDL file of CREATE TABLE statements (.sql), such as ${join(dir, "schema.sql")}`,
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
