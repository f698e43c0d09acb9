/**
 * The file-system edge shared by the CLI and the MCP server: bounded reads and atomic writes.
 * The pure core never touches `node:fs`; everything that reads or writes files lives in `files/`.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, opendir, readdir, rename, unlink, type FileHandle } from "node:fs/promises";
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
 * What a command expects a path to name: said when the path names a folder instead, with the
 * files of that kind the folder holds (or its sub-folders, one level down) as examples.
 */
export interface ExpectedFile {
  /** What to give, e.g. "a workload file (YAML or JSON)". */
  readonly what: string;
  /** Names of files of that kind, to offer from the folder. */
  readonly matches: RegExp;
}

/** The workload a command reads. */
export const WORKLOAD_INPUT: ExpectedFile = {
  what: "a workload file (YAML or JSON)",
  matches: /(^|[-_.])workload\.(ya?ml|json)$/i,
};
/** The model a command reads. */
export const MODEL_INPUT: ExpectedFile = {
  what: "a model file (YAML or JSON)",
  matches: /(^|[-_.])model\.(ya?ml|json)$/i,
};
/** `--prices FILE`. */
export const PRICES_INPUT: ExpectedFile = {
  what: "a price file (YAML or JSON)",
  matches: /prices?\.(ya?ml|json)$/i,
};
/** `--verification FILE`. */
export const VERIFICATION_INPUT: ExpectedFile = {
  what: "the output of `verify --json` saved to a file",
  matches: /\.json$/i,
};
/** The schema `import` reads. */
export const DDL_INPUT: ExpectedFile = {
  what: "a DDL file of CREATE TABLE statements (.sql)",
  matches: /\.sql$/i,
};
/** The operations `estimate-ru` reads. */
export const OPERATIONS_INPUT: ExpectedFile = {
  what: "a file of operations, one JSON object per line",
  matches: /\.jsonl?$/i,
};
/** `--coefficients FILE`. */
export const COEFFICIENTS_INPUT: ExpectedFile = {
  what: "a coefficients file written by `calibrate` (JSON)",
  matches: /coefficients.*\.json$/i,
};
/** `calibrate RECORDING...`. */
export const RECORDING_INPUT: ExpectedFile = {
  what: "recorded request charges, one JSON object per line (operation features and measuredRU)",
  matches: /\.jsonl?$/i,
};
/** Any input (the default of {@link readInputFile}). */
export const ANY_INPUT: ExpectedFile = { what: "a file", matches: /^$/ };

/**
 * Reads a UTF-8 text file, or standard input for `-`, refusing anything over 10 MB; bare
 * carriage returns become line feeds (`normalizeLineEndings`), so lines are counted as editors
 * count them. Reading stops
 * at the limit: a device or a pipe that never ends (`/dev/zero`) costs 10 MB, not all memory.
 * A folder is refused with what was `expected` instead, and files of that kind found in it.
 */
export async function readInputFile(path: string, expected: ExpectedFile = ANY_INPUT): Promise<string> {
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
    throw await folderGiven(path, expected);
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

/** Files offered when a folder is given for a file: at most this many. */
const OFFERED_FILES = 3;
/** Entries of a folder (and of each sub-folder) looked at for them. */
const ENTRIES_LOOKED_AT = 200;

/** The refusal of a folder given for a file: what is expected, and files of that kind in it. */
async function folderGiven(path: string, expected: ExpectedFile): Promise<CosmosModelerError> {
  const offered = await filesOfKind(path, expected.matches);
  return new CosmosModelerError(
    "cli.fileNotFound",
    `${path} is a folder, not a file: give ${expected.what}` +
      (offered.length === 0 ? "" : `, such as ${offered.join(" or ")}`),
    { context: { file: path } },
  );
}

/**
 * Files of the folder whose names match, sorted; when there are none, those of its sub-folders
 * (one level down: `examples/` holds one folder per example). At most {@link OFFERED_FILES}.
 */
async function filesOfKind(folder: string, matches: RegExp): Promise<string[]> {
  const entries = await folderEntries(folder);
  const here = entries
    .filter((entry) => entry.file && matches.test(entry.name))
    .map((entry) => join(folder, entry.name));
  if (here.length > 0) return here.slice(0, OFFERED_FILES);
  const below: string[] = [];
  for (const entry of entries.filter((e) => !e.file && !e.name.startsWith("."))) {
    for (const inner of await folderEntries(join(folder, entry.name)))
      if (inner.file && matches.test(inner.name)) below.push(join(folder, entry.name, inner.name));
    if (below.length >= OFFERED_FILES) break;
  }
  return below.slice(0, OFFERED_FILES);
}

/** The first entries of a folder (files and folders), sorted by name; none when it cannot be read. */
async function folderEntries(folder: string): Promise<{ readonly name: string; readonly file: boolean }[]> {
  const entries: { name: string; file: boolean }[] = [];
  try {
    const dir = await opendir(folder);
    for await (const entry of dir) {
      if (entry.isFile() || entry.isDirectory()) entries.push({ name: entry.name, file: entry.isFile() });
      if (entries.length >= ENTRIES_LOOKED_AT) break;
    }
  } catch {
    return [];
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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
