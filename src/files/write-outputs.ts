/**
 * Writes a set of rendered files into a folder: atomically (temporary file + rename), and never
 * over a file the user edited by hand since the tool last wrote it, unless forced. What the tool
 * wrote is remembered as SHA-256 hashes in `.cosmos-modeler/manifest.json` in that folder.
 */
import { createHash } from "node:crypto";
import { chmod, readFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { CosmosModelerError } from "../common/errors.js";
import type { RenderedFile } from "../render/artifacts.js";
import { confinePath } from "./confine.js";
import { writeFileAtomic } from "./io.js";

const MANIFEST = join(".cosmos-modeler", "manifest.json");

interface Manifest {
  readonly version: 1;
  readonly files: Record<string, string>;
}

const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Hashes of what the interview wrote in `root` (its `.cosmos-modeler/session.json`), per file. */
async function interviewHashes(root: string): Promise<Map<string, readonly string[]>> {
  const text = await readText(join(root, ".cosmos-modeler", "session.json"));
  const out = new Map<string, readonly string[]>();
  if (text === undefined) return out;
  try {
    const written = (JSON.parse(text) as { written?: unknown }).written;
    if (written !== null && typeof written === "object") {
      for (const [name, hashes] of Object.entries(written)) {
        if (Array.isArray(hashes))
          out.set(
            name,
            hashes.filter((h): h is string => typeof h === "string"),
          );
      }
    }
  } catch {
    // An unreadable session file vouches for nothing.
  }
  return out;
}

export interface WriteReport {
  readonly written: readonly string[];
  readonly unchanged: readonly string[];
}

export interface WriteOutputsOptions {
  /**
   * Refuse (`files.outsideFolder`) any file whose real location, after following links in `dir`
   * (e.g. an `infra` folder that is a link), is outside `dir`: the MCP server writes only inside
   * its session folder.
   */
  readonly confine?: boolean;
}

/**
 * Writes `files` under `dir`. Throws `cli.handEdited` listing every file that differs from what
 * the tool last wrote there (or that the tool never wrote) when its content would change,
 * unless `force`.
 */
export async function writeOutputs(
  dir: string,
  files: readonly RenderedFile[],
  force = false,
  options: WriteOutputsOptions = {},
): Promise<WriteReport> {
  const root = resolve(dir);
  const located = (path: string): Promise<string> =>
    options.confine === true ? confinePath(root, path, "write", path) : Promise.resolve(resolve(root, path));
  const manifestPath = await located(MANIFEST);
  const manifestText = await readText(manifestPath);
  let manifest: Manifest = { version: 1, files: {} };
  if (manifestText !== undefined) {
    try {
      const parsed = JSON.parse(manifestText) as Partial<Manifest>;
      if (parsed.files !== undefined && typeof parsed.files === "object")
        manifest = { version: 1, files: { ...parsed.files } };
    } catch {
      // An unreadable manifest protects nothing: every existing file counts as hand-edited.
    }
  }
  // The interview records what it wrote in its session file: those files are not hand edits.
  const interviewWrote = await interviewHashes(root);
  const conflicts: string[] = [];
  const pending: { file: RenderedFile; path: string }[] = [];
  const unchanged: string[] = [];
  for (const file of files) {
    if (!resolve(root, file.path).startsWith(root + sep))
      throw new CosmosModelerError("cli.badOutputPath", `refusing to write outside ${root}: ${file.path}`);
    const path = await located(file.path);
    const existing = await readText(path);
    if (existing === file.content) {
      unchanged.push(file.path);
      continue;
    }
    if (existing !== undefined) {
      const hash = sha256(existing);
      if (manifest.files[file.path] !== hash && !(interviewWrote.get(file.path) ?? []).includes(hash)) {
        conflicts.push(file.path);
      }
    }
    pending.push({ file, path });
  }
  if (conflicts.length > 0 && !force) {
    throw new CosmosModelerError(
      "cli.handEdited",
      `these files in ${dir} were changed since cosmos-modeler wrote them (or were not written by it): ${conflicts.join(", ")}. Nothing was written. Move your edits elsewhere, or run again with --force to overwrite them.`,
      { context: { files: conflicts } },
    );
  }
  const files2: Record<string, string> = { ...manifest.files };
  for (const { file, path } of pending) {
    await writeFileAtomic(path, file.content);
    if (file.executable) await chmod(path, 0o755);
    files2[file.path] = sha256(file.content);
  }
  for (const path of unchanged) {
    const file = files.find((f) => f.path === path);
    if (file !== undefined) files2[path] = sha256(file.content);
  }
  await writeFileAtomic(manifestPath, `${JSON.stringify({ version: 1, files: files2 }, null, 2)}\n`);
  return { written: pending.map((p) => p.file.path), unchanged };
}
