/**
 * Writes a set of rendered files into a folder: atomically (temporary file + rename), and never
 * over a file the user edited by hand since the tool last wrote it, unless forced. What the tool
 * wrote is remembered as SHA-256 hashes in `.cosmos-modeler/manifest.json` in that folder.
 */
import { createHash } from "node:crypto";
import { chmod, readFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { refuseLinksUnder } from "./output-path.js";
import { CosmosModelerError } from "../common/errors.js";
import type { RenderedFile } from "../render/artifacts.js";
import { confinePath } from "./confine.js";
import { removeStaleTemporaries, writeFileAtomic, type WriteHooks } from "./io.js";

const MANIFEST = join(".cosmos-modeler", "manifest.json");

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

/**
 * What a hand-edited file means for the user; `howToForce` is how the caller's user overwrites
 * anyway (`run again with --force` on the command line, a tool argument over MCP).
 */
export function handEditedMessage(dir: string, files: readonly string[], howToForce: string): string {
  return `these files in ${dir} were changed since cosmos-modeler wrote them (or were not written by it): ${files.join(", ")}. Nothing was written. Move your edits elsewhere, or ${howToForce} to overwrite them.`;
}

/** `writeOutputs` refused: these files were edited by hand since the tool wrote them. */
export class HandEditedError extends CosmosModelerError {
  readonly dir: string;
  readonly files: readonly string[];

  constructor(dir: string, files: readonly string[]) {
    super("cli.handEdited", handEditedMessage(dir, files, "run again with --force"), { context: { files } });
    this.dir = dir;
    this.files = files;
  }
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
  /**
   * For tests: called around each file's rename, the manifest's included (e.g. to kill the
   * process between two).
   */
  readonly hooks?: WriteHooks;
}

/**
 * Writes `files` under `dir`. Throws {@link HandEditedError} listing every file that differs from what
 * the tool last wrote there (or that the tool never wrote) when its content would change,
 * unless `force`.
 *
 * Resumable: before the first file is replaced, the manifest records the write as intent
 * (`writing`: for each file, the content it has now and the content it gets), so a run killed
 * between two renames leaves files the next run recognises as its own, not as hand edits. The
 * temporary files an interrupted run left beside the files are removed.
 */
export async function writeOutputs(
  dir: string,
  files: readonly RenderedFile[],
  force = false,
  options: WriteOutputsOptions = {},
): Promise<WriteReport> {
  const hooks = options.hooks ?? {};
  const root = resolve(dir);
  const located = (path: string): Promise<string> =>
    options.confine === true ? confinePath(root, path, "write", path) : Promise.resolve(resolve(root, path));
  // Outside the MCP server's confinement (which follows links that stay inside), no write
  // follows a link: refused before anything is written.
  if (options.confine !== true)
    for (const path of [MANIFEST, ...files.map((file) => file.path)]) await refuseLinksUnder(root, path);
  const manifestPath = await located(MANIFEST);
  const manifest = parseManifest(await readText(manifestPath));
  // The interview records what it wrote in its session file: those files are not hand edits.
  const interviewWrote = await interviewHashes(root);
  const isToolWritten = (path: string, hash: string): boolean =>
    manifest.files[path] === hash ||
    (manifest.writing[path] ?? []).includes(hash) ||
    (interviewWrote.get(path) ?? []).includes(hash);
  const conflicts: string[] = [];
  const pending: { file: RenderedFile; path: string; before: string | undefined }[] = [];
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
    const before = existing === undefined ? undefined : sha256(existing);
    if (before !== undefined && !isToolWritten(file.path, before)) conflicts.push(file.path);
    pending.push({ file, path, before });
  }
  if (conflicts.length > 0 && !force) throw new HandEditedError(dir, conflicts);
  // Every folder the tool writes in: an interrupted run may have left temporary files of files
  // this run does not rewrite (unchanged ones included).
  const folders = new Set([
    dirname(manifestPath),
    ...(await Promise.all(files.map(async (f) => dirname(await located(f.path))))),
  ]);
  for (const folder of folders) await removeStaleTemporaries(folder);
  const final: Record<string, string> = { ...manifest.files };
  for (const file of files) final[file.path] = sha256(file.content);
  // What the manifest says while this run writes: the files it leaves as they are are the tool's
  // now (an interrupted run may have renamed them), so they are recorded before anything else.
  const known: Record<string, string> = { ...manifest.files };
  for (const path of unchanged) known[path] = final[path] ?? "";
  // A file an interrupted run was writing that this run no longer writes: its current content
  // is the tool's if it is one of the two that run expected.
  for (const [path, hashes] of Object.entries(manifest.writing)) {
    if (files.some((file) => file.path === path) || !resolve(root, path).startsWith(root + sep)) continue;
    const target = await located(path).catch(() => undefined);
    const current = target === undefined ? undefined : await readText(target);
    const hash = current === undefined ? undefined : sha256(current);
    if (hash !== undefined && hashes.includes(hash)) final[path] = hash;
  }
  if (pending.length > 0) {
    // Intent first: every state a file can be in until the last rename is the tool's. What
    // earlier interrupted runs were writing stays recorded (a file this run does not rewrite may
    // still hold what one of them wrote) until this run ends.
    const writing: Record<string, string[]> = {};
    for (const [path, hashes] of Object.entries(manifest.writing)) writing[path] = [...hashes];
    for (const { file, before } of pending) {
      writing[file.path] = [
        ...new Set([
          ...(writing[file.path] ?? []),
          ...(before === undefined ? [] : [before]),
          sha256(file.content),
        ]),
      ];
    }
    await writeManifest(manifestPath, { files: known, writing }, hooks);
    for (const { file, path } of pending) {
      await writeFileAtomic(path, file.content, hooks);
      if (file.executable) await chmod(path, 0o755);
    }
  }
  await writeManifest(manifestPath, { files: final, writing: {} }, hooks);
  return { written: pending.map((p) => p.file.path), unchanged };
}

/** What `.cosmos-modeler/manifest.json` holds. */
interface Manifest {
  /** SHA-256 of what the tool last wrote, per file (relative path). */
  readonly files: Record<string, string>;
  /** During a write: the hashes each file may have until it ends (before and after). */
  readonly writing: Record<string, readonly string[]>;
}

function parseManifest(text: string | undefined): Manifest {
  const empty: Manifest = { files: {}, writing: {} };
  if (text === undefined) return empty;
  try {
    const parsed = JSON.parse(text) as { files?: unknown; writing?: unknown };
    return {
      files: stringRecord(parsed.files, (value): value is string => typeof value === "string"),
      writing: stringRecord(
        parsed.writing,
        (value): value is string[] => Array.isArray(value) && value.every((hash) => typeof hash === "string"),
      ),
    };
  } catch {
    // An unreadable manifest protects nothing: every existing file counts as hand-edited.
    return empty;
  }
}

function stringRecord<T>(value: unknown, valid: (entry: unknown) => entry is T): Record<string, T> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, T] => valid(entry[1])));
}

async function writeManifest(path: string, manifest: Manifest, hooks: WriteHooks = {}): Promise<void> {
  const content = {
    version: 1,
    files: manifest.files,
    ...(Object.keys(manifest.writing).length === 0 ? {} : { writing: manifest.writing }),
  };
  await writeFileAtomic(path, `${JSON.stringify(content, null, 2)}\n`, hooks);
}
