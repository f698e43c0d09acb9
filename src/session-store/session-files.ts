/**
 * The file edge of a modeling session. A session lives in a folder:
 * - `.cosmos-modeler/session.json`: the session state (workload being built, estimates,
 *   confirmations) and a hash of each file the tool last wrote;
 * - `workload.yaml`: the workload, in the workload file format, rewritten after every answer;
 * - `cosmosdb_requirements.md`: the requirements document, rewritten after every answer.
 * Every write is atomic (temporary file + rename), the session file first, so an interrupted
 * session resumes with nothing lost. A file the user edited since the tool wrote it is never
 * overwritten silently: an edited `workload.yaml` is loaded (or the session stops with the
 * reasons it cannot be), an edited requirements document is kept under another name.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic, MAX_INPUT_BYTES } from "../files/io.js";
import { CosmosModelerError } from "../common/errors.js";
import { formatIssue, type Issue, type IssuePath } from "../common/issues.js";
import { checkReadiness, serializeDraft, type Readiness } from "../session/checklist.js";
import { parseDraftDocument } from "../session/draft.js";
import { renderSessionRequirements } from "../session/render-session-requirements.js";
import { createSession, sessionFromJson, sessionToJson, type SessionState } from "../session/state.js";
import { parseSourceDocument } from "../source/parse-document.js";

export const SESSION_DIR = ".cosmos-modeler";
export const SESSION_FILE = "session.json";
export const WORKLOAD_FILE = "workload.yaml";
export const REQUIREMENTS_FILE = "cosmosdb_requirements.md";
export const DATA_MODEL_FILE = "cosmosdb_data_model.md";
/** The model write-data-model writes next to the data model document. */
export const DATA_MODEL_MODEL_FILE = "model.yaml";

/** Hashes kept per file: the latest write and the one before (a crash between writes is not an edit). */
const HASHES_KEPT = 2;

interface SessionFileContent {
  readonly format: "cosmos-modeler-session";
  readonly state: Record<string, unknown>;
  /** sha256 of what the tool wrote to each file, newest first. */
  readonly written: Readonly<Record<string, readonly string[]>>;
}

/** sha256 of each session file as last read or written (null: the file did not exist). */
export type FileBaseline = Readonly<Record<string, string | null>>;

export interface OpenedSession {
  readonly state: SessionState;
  /** The files as read; pass to `saveSession` so changes made meanwhile are not overwritten. */
  readonly baseline: FileBaseline;
  /** True when an earlier session was found and continued. */
  readonly resumed: boolean;
  /** What happened on opening, for the user (files loaded, edits kept). */
  readonly notices: readonly string[];
}

export interface SavedSession {
  readonly readiness: Readiness;
  /** Files whose content changed, relative to the session folder. */
  readonly filesUpdated: readonly string[];
  /** The files as written, for the next `saveSession`. */
  readonly baseline: FileBaseline;
  /** What happened besides the writes (an edited requirements document kept). */
  readonly notices: readonly string[];
}

/** `saveSession` refused: `workload.yaml` was changed by someone else while the session was open. */
export class SessionFileChangedError extends CosmosModelerError {
  readonly file: string;

  constructor(file: string) {
    super(
      "session.fileChanged",
      `${file} was changed while the session was open, so nothing was saved (your edit is kept). ` +
        `Open the session again to continue from the changed file, then give the last answer again.`,
    );
    this.file = file;
  }
}

/** Paths of a session's files. */
export function sessionPaths(dir: string): {
  session: string;
  workload: string;
  requirements: string;
  dataModel: string;
} {
  return {
    session: join(dir, SESSION_DIR, SESSION_FILE),
    workload: join(dir, WORKLOAD_FILE),
    requirements: join(dir, REQUIREMENTS_FILE),
    dataModel: join(dir, DATA_MODEL_FILE),
  };
}

/**
 * Opens the session in `dir`: resumes `.cosmos-modeler/session.json` when present, else starts
 * from an existing `workload.yaml` (complete or not), else starts empty.
 */
export async function openSession(
  dir: string,
  options: { keepEditedCopies?: boolean } = {},
): Promise<OpenedSession> {
  const paths = sessionPaths(dir);
  const notices: string[] = [];
  const saved = await readSessionFile(paths.session);
  const workloadText = await readOptional(paths.workload);
  let state = saved?.state ?? createSession();
  const written = saved?.written ?? {};
  if (workloadText !== undefined && !(written[WORKLOAD_FILE] ?? []).includes(hash(workloadText))) {
    const draft = readDraft(workloadText, paths.workload, saved !== undefined);
    state = saved === undefined ? createSession(draft) : { ...state, workload: draft };
    notices.push(
      saved === undefined
        ? `Started from the existing ${WORKLOAD_FILE}.`
        : `${WORKLOAD_FILE} was edited since the last answer: the session continues from your edited file.`,
    );
  }
  const requirementsText = await readOptional(paths.requirements);
  if (
    requirementsText !== undefined &&
    !(written[REQUIREMENTS_FILE] ?? []).includes(hash(requirementsText))
  ) {
    const kept = options.keepEditedCopies === false ? undefined : await keepEditedCopy(dir, requirementsText);
    notices.push(
      `${REQUIREMENTS_FILE} was not written by this session (or was edited by hand): ` +
        `${kept === undefined ? "it will be kept under another name at the next update" : `it is kept as ${kept}`}. ` +
        `The requirements document is regenerated after every answer; put lasting changes in ${WORKLOAD_FILE}.`,
    );
  }
  const baseline: FileBaseline = {
    [WORKLOAD_FILE]: workloadText === undefined ? null : hash(workloadText),
    [REQUIREMENTS_FILE]: requirementsText === undefined ? null : hash(requirementsText),
  };
  return { state, baseline, resumed: saved !== undefined, notices };
}

/**
 * Writes the session file, `workload.yaml` and `cosmosdb_requirements.md` for `state`, each
 * atomically, the session file first. With a `baseline` (from `openSession` or the previous
 * save), a `workload.yaml` changed by someone else since then stops the save before anything is
 * written ({@link SessionFileChangedError}: open the session again to continue from the edit), and a
 * changed requirements document is kept under another name.
 */
export async function saveSession(
  dir: string,
  state: SessionState,
  baseline?: FileBaseline,
): Promise<SavedSession> {
  const paths = sessionPaths(dir);
  const readiness = checkReadiness(state, WORKLOAD_FILE);
  const files: readonly { name: string; path: string; text: string }[] = [
    { name: WORKLOAD_FILE, path: paths.workload, text: serializeDraft(state.workload) },
    { name: REQUIREMENTS_FILE, path: paths.requirements, text: renderSessionRequirements(state, readiness) },
  ];
  const previous = (await readSessionFile(paths.session).catch(() => undefined))?.written ?? {};
  const notices: string[] = [];
  if (baseline !== undefined) {
    const changed = async (name: string, path: string): Promise<string | undefined> => {
      const current = await readOptional(path);
      const currentHash = current === undefined ? null : hash(current);
      const known =
        currentHash === baseline[name] ||
        (currentHash !== null && (previous[name] ?? []).includes(currentHash));
      return known || current === undefined ? undefined : current;
    };
    if ((await changed(WORKLOAD_FILE, paths.workload)) !== undefined) {
      throw new SessionFileChangedError(paths.workload);
    }
    const requirements = await changed(REQUIREMENTS_FILE, paths.requirements);
    if (requirements !== undefined) {
      notices.push(
        `${REQUIREMENTS_FILE} was changed while the session was open: your version is kept as ${await keepEditedCopy(dir, requirements)}.`,
      );
    }
  }
  const written: Record<string, readonly string[]> = {};
  for (const file of files) {
    const newest = hash(file.text);
    written[file.name] = [newest, ...(previous[file.name] ?? []).filter((h) => h !== newest)].slice(
      0,
      HASHES_KEPT,
    );
  }
  const content: SessionFileContent = {
    format: "cosmos-modeler-session",
    state: sessionToJson(state),
    written,
  };
  await writeFileAtomic(paths.session, `${JSON.stringify(content, null, 2)}\n`);
  const filesUpdated: string[] = [];
  for (const file of files) {
    if ((await readOptional(file.path)) === file.text) continue;
    await writeFileAtomic(file.path, file.text);
    filesUpdated.push(file.name);
  }
  const after: FileBaseline = Object.fromEntries(files.map((file) => [file.name, hash(file.text)]));
  return { readiness, filesUpdated, baseline: after, notices };
}

async function readSessionFile(
  path: string,
): Promise<{ state: SessionState; written: Readonly<Record<string, readonly string[]>> } | undefined> {
  const text = await readOptional(path);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw corrupt(path, [`not valid JSON (${cause instanceof Error ? cause.message : String(cause)})`]);
  }
  const content = value as Partial<SessionFileContent> | null;
  if (content === null || typeof content !== "object" || content.format !== "cosmos-modeler-session") {
    throw corrupt(path, ['not a cosmos-modeler session file (expected "format": "cosmos-modeler-session")']);
  }
  const state = sessionFromJson(content.state, path);
  if (!state.ok) throw corrupt(path, state.issues.map(formatIssue));
  const written: Record<string, readonly string[]> = {};
  for (const [name, hashes] of Object.entries(content.written ?? {})) {
    if (Array.isArray(hashes)) written[name] = hashes.filter((h): h is string => typeof h === "string");
  }
  return { state: state.value, written };
}

function corrupt(path: string, problems: readonly string[]): CosmosModelerError {
  return new CosmosModelerError(
    "session.invalidSessionFile",
    `${path}: the session file cannot be read: ${problems.join("; ")}. ` +
      `Delete it to start again from ${WORKLOAD_FILE} (your answers so far are in that file).`,
  );
}

/** Reads a workload file the user may have edited; stops with every problem when it is not valid. */
function readDraft(text: string, path: string, edited: boolean) {
  const parsed = parseSourceDocument(text, path);
  const issues: readonly Issue[] = parsed.ok ? [] : parsed.issues;
  const draft = parsed.ok ? parseDraftDocument(parsed.document.value, path) : undefined;
  if (draft?.ok === true) return draft.value;
  const all = [...issues, ...(draft?.ok === false ? draft.issues : [])].map((issue) =>
    parsed.ok && issue.line === undefined ? { ...issue, ...lineOf(parsed.document, issue.path) } : issue,
  );
  throw new CosmosModelerError(
    "session.invalidWorkload",
    `${path} ${edited ? "was edited and " : ""}is not a valid workload file, so the session cannot ${edited ? "continue" : "start"} from it:\n` +
      `${all.map((issue) => `  ${formatIssue(issue)}`).join("\n")}\n` +
      (edited
        ? "Fix the file, or delete it to continue from the last saved session."
        : "Fix the file, or start in another folder."),
  );
}

function lineOf(
  document: { lineOf(path: readonly (string | number)[]): number | undefined },
  path: IssuePath,
): { line?: number } {
  const line = document.lineOf(path);
  return line === undefined ? {} : { line };
}

/** Keeps a file the tool did not write under a new name, never overwriting another copy. */
async function keepEditedCopy(dir: string, text: string): Promise<string> {
  for (let n = 1; ; n++) {
    const name = `cosmosdb_requirements.edited${n === 1 ? "" : `-${n}`}.md`;
    const existing = await readOptional(join(dir, name));
    if (existing === text) return name;
    if (existing === undefined) {
      await writeFileAtomic(join(dir, name), text);
      return name;
    }
  }
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    const size = (await stat(path)).size;
    if (size > MAX_INPUT_BYTES) {
      throw new CosmosModelerError(
        "cli.inputTooLarge",
        `${path}: the file is ${size} bytes; files over 10 MB are refused`,
      );
    }
    return await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return undefined;
    throw error;
  }
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
