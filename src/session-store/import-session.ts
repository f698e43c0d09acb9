/**
 * Starts a session from an import: the draft workload and the record of where its values came
 * from become the session in `dir` (`.cosmos-modeler/session.json`, `workload.yaml`,
 * `cosmosdb_requirements.md`), which `interview --dir` and the MCP tools continue.
 */
import { stat } from "node:fs/promises";
import { CosmosModelerError } from "../common/errors.js";
import type { DraftWorkload } from "../session/draft.js";
import type { ImportRecord } from "../session/import-record.js";
import { createSession } from "../session/state.js";
import { saveSession, sessionPaths, type SavedSession } from "./session-files.js";

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** `startImportedSession` refused: the folder already holds these session files. */
export class SessionExistsError extends CosmosModelerError {
  readonly files: readonly string[];

  constructor(files: readonly string[], replaceHint: string) {
    super(
      "import.sessionExists",
      `${files.join(" and ")} already exist: the import would replace that session and its answers. ` +
        `${replaceHint}, or import into another folder.`,
    );
    this.files = files;
  }
}

/**
 * Writes a new session for the imported draft. A folder that already holds a session or a
 * workload is refused unless `replace` (its answers would be lost).
 */
export async function startImportedSession(
  dir: string,
  draft: DraftWorkload,
  record: ImportRecord,
  options: { readonly replace: boolean; readonly replaceHint: string },
): Promise<SavedSession> {
  const paths = sessionPaths(dir);
  const existing = [];
  for (const path of [paths.session, paths.workload]) if (await exists(path)) existing.push(path);
  if (existing.length > 0 && !options.replace) {
    throw new SessionExistsError(existing, options.replaceHint);
  }
  return saveSession(dir, { ...createSession(draft), imported: record });
}
