import { mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CosmosModelerError } from "../common/errors.js";
import { applyChanges } from "../session/apply-changes.js";
import type { Change } from "../session/changes.js";
import { createSession, type SessionState } from "../session/state.js";
import { openSession, saveSession, sessionPaths } from "./session-files.js";

async function freshDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "cosmos-modeler-session-"));
}

function apply(state: SessionState, changes: readonly Change[]): SessionState {
  const result = applyChanges(state, changes);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value.state;
}

const first: readonly Change[] = [
  { kind: "set-application", name: "Blog", domain: "social media" },
  { kind: "add-entity", name: "Post", key: "postId", count: 1000, avgBytes: 2000 },
];

describe("session files", () => {
  it("writes the three files and resumes the same state", async () => {
    const dir = await freshDir();
    const opened = await openSession(dir);
    expect(opened.resumed).toBe(false);
    const state = apply(opened.state, first);
    const saved = await saveSession(dir, state);
    expect(saved.filesUpdated).toEqual(["workload.yaml", "cosmosdb_requirements.md"]);
    expect(await readFile(join(dir, "workload.yaml"), "utf8")).toContain("key: postId");
    expect(await readFile(join(dir, "cosmosdb_requirements.md"), "utf8")).toContain(
      "Azure Cosmos DB NoSQL Modeling Session: Blog",
    );
    const again = await openSession(dir);
    expect(again).toMatchObject({ state, resumed: true, notices: [] });
    expect(again.baseline).toEqual(saved.baseline);
    // nothing changed: nothing rewritten
    expect((await saveSession(dir, state)).filesUpdated).toEqual([]);
  });

  it("an interruption after the session file but before the other files loses nothing", async () => {
    const dir = await freshDir();
    const one = apply(createSession(), first);
    await saveSession(dir, one);
    const oldWorkload = await readFile(join(dir, "workload.yaml"), "utf8");
    const two = apply(one, [{ kind: "add-entity", name: "Comment", key: "commentId" }]);
    await saveSession(dir, two);
    // simulate the crash: the workload file still holds the previous write
    await writeFile(join(dir, "workload.yaml"), oldWorkload);
    const opened = await openSession(dir);
    expect(opened.state).toEqual(two);
    expect(opened.notices).toEqual([]);
  });

  it("continues from a workload.yaml edited by hand when it is valid", async () => {
    const dir = await freshDir();
    await saveSession(dir, apply(createSession(), first));
    const text = await readFile(join(dir, "workload.yaml"), "utf8");
    await writeFile(join(dir, "workload.yaml"), text.replace("count: 1000", "count: 5000"));
    const opened = await openSession(dir);
    expect(opened.state.workload.entities[0]?.count).toBe(5000);
    expect(opened.notices[0]).toContain("workload.yaml was edited since the last answer");
  });

  it("stops with the file, line and reason when the edited workload.yaml is not valid", async () => {
    const dir = await freshDir();
    await saveSession(dir, apply(createSession(), first));
    const text = await readFile(join(dir, "workload.yaml"), "utf8");
    await writeFile(join(dir, "workload.yaml"), text.replace("count: 1000", "count: -3"));
    const error = await openSession(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CosmosModelerError);
    expect((error as CosmosModelerError).code).toBe("session.invalidWorkload");
    expect((error as CosmosModelerError).message).toMatch(
      /workload\.yaml:\d+ entities\.Post\.count: expected a number more than 0, got -3/,
    );
    // the session file is untouched: deleting the edited file resumes from it
  });

  it("keeps a requirements document edited by hand under another name instead of overwriting it silently", async () => {
    const dir = await freshDir();
    const state = apply(createSession(), first);
    await saveSession(dir, state);
    await writeFile(join(dir, "cosmosdb_requirements.md"), "# my notes\n");
    const opened = await openSession(dir);
    expect(opened.notices[0]).toContain("kept as cosmosdb_requirements.edited.md");
    expect(await readFile(join(dir, "cosmosdb_requirements.edited.md"), "utf8")).toBe("# my notes\n");
    await saveSession(dir, opened.state);
    expect(await readFile(join(dir, "cosmosdb_requirements.md"), "utf8")).toContain("Modeling Session: Blog");
  });

  it("does not overwrite a workload.yaml changed while the session was open", async () => {
    const dir = await freshDir();
    const opened = await openSession(dir);
    const saved = await saveSession(dir, apply(opened.state, first), opened.baseline);
    await writeFile(join(dir, "workload.yaml"), "version: 1\nname: Edited meanwhile\n");
    await writeFile(join(dir, "cosmosdb_requirements.md"), "# mine\n");
    const next = apply(opened.state, [...first, { kind: "add-note", text: "x" }]);
    const error = await saveSession(dir, next, saved.baseline).catch((e: unknown) => e);
    expect((error as CosmosModelerError).code).toBe("session.fileChanged");
    expect(await readFile(join(dir, "workload.yaml"), "utf8")).toBe("version: 1\nname: Edited meanwhile\n");
    // opening again continues from the edit; an edited requirements document is kept aside
    const reopened = await openSession(dir);
    expect(reopened.state.workload.name).toBe("Edited meanwhile");
    const again = await saveSession(dir, reopened.state, reopened.baseline);
    expect(again.filesUpdated).toContain("cosmosdb_requirements.md");
    expect(await readFile(join(dir, "cosmosdb_requirements.edited.md"), "utf8")).toBe("# mine\n");
  });

  it("starts from an existing workload.yaml without a session, and refuses a corrupt session file", async () => {
    const dir = await freshDir();
    await writeFile(
      join(dir, "workload.yaml"),
      "version: 1\nname: Imported\nentities:\n  User: { key: userId }\n",
    );
    const opened = await openSession(dir);
    expect(opened.state.workload.name).toBe("Imported");
    expect(opened.notices).toEqual(["Started from the existing workload.yaml."]);
    await saveSession(dir, opened.state);
    await writeFile(sessionPaths(dir).session, "{ not json");
    await expect(openSession(dir)).rejects.toThrow(/session file cannot be read/);
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});
