/**
 * The workload the model tools work on: a file in the session folder when one is named, else the
 * session's own workload (when it is complete enough to load).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { formatIssue, issueToJson } from "../../common/issues.js";
import { readWorkloadFile } from "../../files/load-inputs.js";
import { checkReadiness } from "../../session/checklist.js";
import { openSession, WORKLOAD_FILE } from "../../session-store/session-files.js";
import type { Workload } from "../../workload/types.js";
import { failure } from "./results.js";

/** The session's workload when it loads (for scale and checks), else undefined. */
export async function sessionWorkload(dir: string): Promise<Workload | undefined> {
  const opened = await openSession(dir, { keepEditedCopies: false });
  return checkReadiness(opened.state, WORKLOAD_FILE).workload;
}

/**
 * The workload at `path` (already confined), or the session's; a failure result saying why
 * there is none. `purpose` completes "there is nothing to ..." (e.g. "design").
 */
export async function workloadFor(
  dir: string,
  path: string | undefined,
  shown: string | undefined,
  purpose: string,
): Promise<Workload | CallToolResult> {
  if (path !== undefined) {
    const loaded = await readWorkloadFile(path);
    return loaded.ok
      ? loaded.value
      : failure(`${shown ?? path} has errors:\n${loaded.issues.map(formatIssue).join("\n")}`, {
          issues: loaded.issues.map(issueToJson),
        });
  }
  const workload = await sessionWorkload(dir);
  return (
    workload ??
    failure(
      `The session's ${WORKLOAD_FILE} is not complete yet, so there is nothing to ${purpose}: answer get-next-questions first, or pass a workload file.`,
    )
  );
}
