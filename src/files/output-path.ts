/**
 * Output paths checked before any work (issue 32): `--out DIR` and `--html FILE` must name a
 * place the tool can write without surprises. Refused, each with the flag, the path, what is
 * wrong and what would be valid (code `cli.invalidOutputPath`, exit 2): an empty path (what an
 * unset `$DIR` gives), a path at or under a regular file, a folder given for a file or a file for
 * a folder, a path on a kernel's virtual file system (`/proc`, `/sys`, `/dev`), and a path that
 * goes through a symbolic link anywhere (writes never follow links; give the real path).
 */
import { lstat, realpath, statfs } from "node:fs/promises";
import type { Stats } from "node:fs";
import { dirname, parse, resolve, sep } from "node:path";
import { CosmosModelerError } from "../common/errors.js";

/** What the path names: a folder the tool writes files in, or one file. */
export type OutputKind = "folder" | "file";

/** The code of every refusal here (a usage error, exit 2). */
export const INVALID_OUTPUT_PATH = "cli.invalidOutputPath" as const;

/** Folders of virtual file systems: nothing the tool writes belongs there. */
const VIRTUAL_ROOTS = ["/proc", "/sys", "/dev"];

/**
 * Magic numbers of virtual file systems (statfs `f_type`, linux/magic.h): proc, sysfs, devpts,
 * cgroup, cgroup2, debugfs, tracefs, securityfs, configfs, bpf.
 */
const VIRTUAL_FILE_SYSTEMS = new Set([
  0x9fa0, 0x62656572, 0x1cd1, 0x27e0eb, 0x63677270, 0x64626720, 0x74726163, 0x73636673, 0x62656570,
  0xcafe4a11,
]);

/**
 * Throws `cli.invalidOutputPath` unless `path` (given with `flag`) can be written as a `kind`.
 * Reads only metadata (`lstat`, `statfs`); creates nothing.
 * @example await checkOutputPath("--out", "my-model", "folder")
 */
export async function checkOutputPath(flag: string, path: string, kind: OutputKind): Promise<void> {
  const valid =
    kind === "folder"
      ? `a folder path without links, e.g. ${flag} ./my-model`
      : `a file path without links, e.g. ${flag} ./report.html`;
  const refuse = (what: string): CosmosModelerError =>
    new CosmosModelerError(INVALID_OUTPUT_PATH, `${flag} ${JSON.stringify(path)}: ${what}; give ${valid}`, {
      context: { file: path },
    });
  if (path.trim() === "") throw refuse("the path is empty (an unset variable?)");
  if (path.includes("\0")) throw refuse("the path holds a NUL character");
  const absolute = resolve(path);
  for (const root of VIRTUAL_ROOTS) {
    if (absolute === root || absolute.startsWith(root + sep))
      throw refuse(`${root} is a virtual file system of the kernel, not a place for files`);
  }
  const { root } = parse(absolute);
  const parts = absolute
    .slice(root.length)
    .split(sep)
    .filter((part) => part !== "");
  let current = root;
  let existing = root;
  for (const [index, part] of parts.entries()) {
    current = current === root ? `${root}${part}` : `${current}${sep}${part}`;
    let stats: Stats;
    try {
      stats = await lstat(current);
    } catch {
      break; // From here on nothing exists: it is created.
    }
    existing = current;
    const last = index === parts.length - 1;
    if (stats.isSymbolicLink()) {
      const target = await realpath(current).catch(() => undefined);
      throw refuse(
        `${current} is a symbolic link, and writes never follow links (the files would land wherever it points${target === undefined ? "" : `: ${target}`})`,
      );
    }
    if (!last && !stats.isDirectory())
      throw refuse(`${current} is a file, not a folder, so nothing can be under it`);
    if (last && kind === "folder" && !stats.isDirectory()) throw refuse("it is a file, not a folder");
    if (last && kind === "file" && stats.isDirectory()) throw refuse("it is a folder, not a file");
    if (last && kind === "file" && !stats.isFile())
      throw refuse("it is a special file (a device, a pipe or a socket), not a regular file");
  }
  const type = await statfs(kind === "file" && existing === absolute ? dirname(existing) : existing)
    .then((stats) => stats.type)
    .catch(() => undefined);
  if (type !== undefined && VIRTUAL_FILE_SYSTEMS.has(type))
    throw refuse(`${existing} is on a virtual file system of the kernel, not a place for files`);
}

/**
 * Throws `cli.invalidOutputPath` when a folder or file on the way from the output folder `root`
 * (checked by {@link checkOutputPath}) to `relativePath` in it is a symbolic link: the tool never
 * writes through a link, e.g. an `infra` that points elsewhere.
 */
export async function refuseLinksUnder(root: string, relativePath: string): Promise<void> {
  let current = resolve(root);
  for (const part of relativePath.split(/[\\/]/).filter((segment) => segment !== "")) {
    current = `${current}${sep}${part}`;
    let stats: Stats;
    try {
      stats = await lstat(current);
    } catch {
      return;
    }
    if (stats.isSymbolicLink())
      throw new CosmosModelerError(
        INVALID_OUTPUT_PATH,
        `${current} is a symbolic link inside the output folder (--out) ${root}, and writes never follow links; remove the link or give another folder`,
        { context: { file: current } },
      );
  }
}
