/**
 * Paths confined to a folder after following symbolic links: the MCP server reads and writes
 * only inside its session folder, whatever path text an assistant sends and whatever links the
 * folder holds. A path is checked on its real location (`realpath`), for files to be created on
 * the real location of the nearest folder that exists, so neither `../..`, an absolute path nor
 * a link inside the folder that points out of it can reach another file. A refusal names the
 * path given and the folder, never anything read from the file.
 */
import { lstat, readlink, realpath, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { CosmosModelerError } from "../common/errors.js";

/** What the caller does with the path. */
export type PathAccess = "read" | "write";

/**
 * True when `path` is `root` or inside it (both absolute, already real). Compared by path
 * segments: a file named `..notes.yaml` in the folder is inside, only a first segment `..` is not.
 * @example isInside("/s", "/s/..notes.yaml") // true
 */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel.split(sep)[0] !== ".." && !isAbsolute(rel));
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Links followed at most while locating a path (the kernel's own limit, ELOOP, is 40). */
const MAX_LINKS = 40;

/**
 * The real location of `path`: its realpath when it exists, else the real location of its
 * folder plus its name. A link that points to nothing (yet) is followed to where it points, so
 * a file created through it is located where it would land.
 */
export async function realLocation(path: string, links = 0): Promise<string> {
  const absolute = resolve(path);
  if (await exists(absolute)) {
    try {
      return await realpath(absolute);
    } catch {
      // A dangling link (or a loop): follow it by hand.
      if (links >= MAX_LINKS)
        throw new CosmosModelerError("files.linkLoop", `${absolute}: too many levels of links (a loop?)`);
      const target = await readlink(absolute).catch(() => undefined);
      if (target === undefined) return absolute;
      return realLocation(resolve(dirname(absolute), target), links + 1);
    }
  }
  const parent = dirname(absolute);
  if (parent === absolute) return absolute;
  return join(await realLocation(parent, links), basename(absolute));
}

/**
 * The absolute, real path of `path` (relative to `root`, or absolute) when it lies inside
 * `root` after following every link; throws `files.outsideFolder` otherwise, and
 * `files.notFound` for a file to read that does not exist. `what` names the argument in the
 * message (e.g. `model`).
 * @example await confinePath("/work/session", "model.yaml", "read", "model")
 */
export async function confinePath(
  root: string,
  path: string,
  access: PathAccess,
  what: string,
): Promise<string> {
  if (path.trim() === "" || path === "-" || path.includes("\0")) {
    throw new CosmosModelerError(
      "files.invalidPath",
      `${what}: ${JSON.stringify(path)} is not a file path (give a path relative to the session folder, e.g. model.yaml)`,
    );
  }
  const realRoot = await realLocation(root);
  const target = resolve(root, path);
  const outside = (): CosmosModelerError =>
    new CosmosModelerError(
      "files.outsideFolder",
      `${what}: ${JSON.stringify(path)} is outside the session folder ${root} (after following links); only files inside it can be ${access === "read" ? "read" : "written"}`,
      { context: { path, root } },
    );
  // The text alone already leaves the folder: refuse before touching the file system there.
  if (!isInside(resolve(root), target) && !isInside(realRoot, target)) throw outside();
  const real = await realLocation(target);
  if (!isInside(realRoot, real)) throw outside();
  if (access === "read" && !(await exists(real))) {
    throw new CosmosModelerError(
      "files.notFound",
      `${what}: ${JSON.stringify(path)} does not exist in the session folder ${root}`,
      { context: { path, root } },
    );
  }
  // Only regular files and folders: reading a FIFO, a socket or a device would block the tool
  // (a FIFO waits for a writer) or read without end.
  const kind = await stat(real).catch(() => undefined);
  if (kind !== undefined && !kind.isFile() && !kind.isDirectory()) {
    throw new CosmosModelerError(
      "files.notRegularFile",
      `${what}: ${JSON.stringify(path)} is not a regular file (a FIFO, socket or device); only regular files in the session folder can be ${access === "read" ? "read" : "written"}`,
      { context: { path, root } },
    );
  }
  return real;
}
