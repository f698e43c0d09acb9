/**
 * The file-system edge shared by the CLI and the MCP server: bounded reads and atomic writes.
 * The pure core never touches `node:fs`; everything that reads or writes files lives in `files/`.
 */
import { randomBytes } from "node:crypto";
import { readFile, rename, stat, writeFile, mkdir, unlink } from "node:fs/promises";
import { dirname, basename, join } from "node:path";
import { CosmosModelerError } from "../common/errors.js";

/** Inputs larger than this are refused before parsing (workloads, models, price files). */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;

/** Reads a UTF-8 text file, or standard input for `-`, refusing anything over 10 MB. */
export async function readInputFile(path: string): Promise<string> {
  if (path === "-") return readStdin();
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (cause) {
    throw new CosmosModelerError("cli.fileNotFound", `${path}: cannot read the file (${describe(cause)})`, {
      cause,
    });
  }
  if (size > MAX_INPUT_BYTES) {
    throw new CosmosModelerError(
      "cli.inputTooLarge",
      `${path}: the file is ${size} bytes; inputs over ${MAX_INPUT_BYTES} bytes (10 MB) are refused`,
    );
  }
  return readFile(path, "utf8");
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += buffer.length;
    if (total > MAX_INPUT_BYTES) {
      throw new CosmosModelerError(
        "cli.inputTooLarge",
        `standard input exceeds ${MAX_INPUT_BYTES} bytes (10 MB)`,
      );
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Writes a file atomically: a temporary file in the same folder, then a rename over the target. */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeFile(temporary, content, "utf8");
    await rename(temporary, path);
  } catch (cause) {
    await unlink(temporary).catch(() => undefined);
    throw new CosmosModelerError("cli.writeFailed", `${path}: cannot write the file (${describe(cause)})`, {
      cause,
    });
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error && "code" in cause && typeof cause.code === "string") return cause.code;
  return cause instanceof Error ? cause.message : String(cause);
}
