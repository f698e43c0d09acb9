/**
 * The file-system edge shared by the CLI and the MCP server: bounded reads and atomic writes.
 * The pure core never touches `node:fs`; everything that reads or writes files lives in `files/`.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, rename, unlink, type FileHandle } from "node:fs/promises";
import { dirname, basename, join } from "node:path";
import { CosmosModelerError } from "../common/errors.js";
import { normalizeLineEndings } from "../source/parse-document.js";

/** Inputs larger than this are refused before parsing (workloads, models, price files). */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;

/** Standard input as issues and messages name it. */
export const STDIN_NAME = "<stdin>";

/** The name issues give an input path: the path, or {@link STDIN_NAME} for `-`. */
export function inputName(path: string): string {
  return path === "-" ? STDIN_NAME : path;
}

/**
 * Reads a UTF-8 text file, or standard input for `-`, refusing anything over 10 MB; bare
 * carriage returns become line feeds (`normalizeLineEndings`), so lines are counted as editors
 * count them. Reading stops
 * at the limit: a device or a pipe that never ends (`/dev/zero`) costs 10 MB, not all memory.
 */
export async function readInputFile(path: string): Promise<string> {
  if (path === "-") return readStdin();
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (cause) {
    throw new CosmosModelerError("cli.fileNotFound", `cannot read the file (${describe(cause)})`, {
      cause,
      context: { file: path },
    });
  }
  // A folder opens, and fails on the first read (EISDIR): say what it is and what was meant.
  if ((await handle.stat().catch(() => undefined))?.isDirectory() === true) {
    await handle.close();
    throw new CosmosModelerError(
      "cli.fileNotFound",
      `cannot read the file: it is a folder (give a file in it, such as ${join(path, "workload.yaml")})`,
      { context: { file: path } },
    );
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(READ_CHUNK_BYTES, MAX_INPUT_BYTES + 1 - total));
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(chunk, 0, chunk.length, null));
      } catch (cause) {
        throw new CosmosModelerError("cli.fileNotFound", `cannot read the file (${describe(cause)})`, {
          cause,
          context: { file: path },
        });
      }
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > MAX_INPUT_BYTES) throw tooLarge(path, Buffer.concat(chunks));
    }
    return normalizeLineEndings(Buffer.concat(chunks).toString("utf8"));
  } finally {
    await handle.close();
  }
}

/** Bytes read at a time. */
const READ_CHUNK_BYTES = 1024 * 1024;

/** The refusal of an input over the limit, located at the line where the limit falls. */
function tooLarge(path: string | undefined, head: Buffer): CosmosModelerError {
  let line = 1;
  for (
    let index = head.indexOf(10);
    index >= 0 && index < MAX_INPUT_BYTES;
    index = head.indexOf(10, index + 1)
  )
    line++;
  return new CosmosModelerError(
    "cli.inputTooLarge",
    `${path === undefined ? "standard input" : "the file"} is larger than ${MAX_INPUT_BYTES} bytes (10 MB), the most an input may hold; the limit falls on line ${line}. Split the input or remove what it does not need.`,
    { context: { file: path ?? STDIN_NAME, line } },
  );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += buffer.length;
    chunks.push(buffer);
    if (total > MAX_INPUT_BYTES) {
      process.stdin.destroy();
      throw tooLarge(undefined, Buffer.concat(chunks));
    }
  }
  return normalizeLineEndings(Buffer.concat(chunks).toString("utf8"));
}

/** Steps of an atomic write that tests can interrupt (see {@link WriteHooks}). */
export interface WriteHooks {
  /** After the temporary file is written and synced, before the rename. */
  readonly beforeRename?: (path: string) => Promise<void> | void;
  /** After the rename (and the folder's sync). */
  readonly afterRename?: (path: string) => Promise<void> | void;
}

/**
 * Writes a file atomically and durably: a temporary file in the same folder, synced to disk,
 * then renamed over the target, then the folder synced so the rename itself survives a crash.
 * A reader sees the old content or the new, never a part; an interrupted write leaves at most a
 * temporary file, which {@link removeStaleTemporaries} cleans.
 */
export async function writeFileAtomic(path: string, content: string, hooks: WriteHooks = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${randomBytes(6).toString("hex")}${TEMPORARY_SUFFIX}`,
  );
  try {
    const handle = await open(temporary, "w");
    try {
      await handle.writeFile(content, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await hooks.beforeRename?.(path);
    await rename(temporary, path);
    await syncFolder(dirname(path));
    await hooks.afterRename?.(path);
  } catch (cause) {
    await unlink(temporary).catch(() => undefined);
    if (cause instanceof CosmosModelerError) throw cause;
    throw new CosmosModelerError("cli.writeFailed", `cannot write the file (${describe(cause)})`, {
      cause,
      context: { file: path },
    });
  }
}

/** Temporary files of {@link writeFileAtomic} end with this. */
const TEMPORARY_SUFFIX = ".tmp";

/** Syncs a folder's entries (a rename) to disk; where folders cannot be opened (Windows), skipped. */
async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, "r");
    await handle.sync();
  } catch {
    // Not supported for folders on this platform: the rename is still atomic, only not yet durable.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Removes the temporary files interrupted {@link writeFileAtomic} calls left in `folder`
 * (`.name.<12 hex digits>.tmp`, whatever the name), so a file a rerun does not rewrite leaves no
 * temporary file behind either. Returns the names removed.
 */
export async function removeStaleTemporaries(folder: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const stale = names.filter((name) => TEMPORARY_NAME.test(name));
  for (const name of stale) await unlink(join(folder, name)).catch(() => undefined);
  return stale;
}

/** The name {@link writeFileAtomic} gives its temporary files. */
const TEMPORARY_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

function describe(cause: unknown): string {
  if (cause instanceof Error && "code" in cause && typeof cause.code === "string") return cause.code;
  return cause instanceof Error ? cause.message : String(cause);
}
