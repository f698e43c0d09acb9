/**
 * The interview and composite keys (issue 24): a key or a via given as a list is accepted, kept,
 * described, written to the workload file (in flow style) and loaded back; the questions, the
 * readiness check and the requirements document work on it.
 */
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { loadWorkload } from "../workload/load-workload.js";
import { applyChanges } from "./apply-changes.js";
import type { Change } from "./changes.js";
import { checkReadiness, serializeDraft } from "./checklist.js";
import { parseDraftDocument } from "./draft.js";
import { nextQuestions } from "./next-questions.js";
import { renderSessionRequirements } from "./render-session-requirements.js";
import { createSession, type SessionState } from "./state.js";

const changes: readonly Change[] = [
  { kind: "set-application", name: "Films", domain: "media" },
  { kind: "add-entity", name: "Film", key: "filmId", count: 1000, avgBytes: 500, attributes: { title: "string" } },
  { kind: "add-entity", name: "Actor", key: "actorId", count: 200, avgBytes: 300, attributes: { name: "string" } },
  {
    kind: "add-entity",
    name: "FilmActor",
    key: ["filmId", "actorId"],
    count: 5462,
    avgBytes: 150,
    attributes: { role: "string" },
  },
  {
    kind: "add-entity",
    name: "Award",
    key: "awardId",
    count: 300,
    avgBytes: 200,
    attributes: { year: "number" },
  },
  { kind: "add-relationship", parent: "Film", child: "FilmActor", via: "filmId", avg: 7, max: 20, owned: true },
  { kind: "add-relationship", parent: "Actor", child: "FilmActor", via: ["actorId"], avg: 27, max: null, owned: false },
  {
    kind: "add-relationship",
    parent: "FilmActor",
    child: "Award",
    via: ["film", "actor"],
    avg: 0.05,
    max: 3,
    owned: false,
  },
  {
    kind: "add-access-pattern",
    type: "read",
    name: "One part",
    entity: "FilmActor",
    where: { filmId: "eq", actorId: "eq" },
    with: ["count(Award)"],
    rps: { avg: 10, peak: 40 },
  },
  {
    kind: "add-access-pattern",
    type: "write",
    name: "Cast",
    entity: "FilmActor",
    operation: "create",
    rps: { avg: 1, peak: 5 },
  },
]; // prettier-ignore

function apply(state: SessionState, list: readonly Change[]): SessionState {
  const result = applyChanges(state, list);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value.state;
}

describe("an interview with a composite key", () => {
  const state = apply(createSession(), changes);

  it("keeps the key and the vias as lists, adding the attributes they name", () => {
    const link = state.workload.entities.find((e) => e.name === "FilmActor");
    expect(link?.key).toEqual(["filmId", "actorId"]);
    expect(link?.attributes.map((a) => a.name)).toEqual(["filmId", "actorId", "role"]);
    const award = state.workload.entities.find((e) => e.name === "Award");
    expect(award?.attributes.map((a) => a.name)).toEqual(["awardId", "year", "film", "actor"]);
    expect(state.workload.relationships.map((r) => r.via)).toEqual([
      ["filmId"],
      ["actorId"],
      ["film", "actor"],
    ]);
  });

  it("says what it learned in words, and refuses to remove a key attribute", () => {
    const result = applyChanges(createSession(), changes.slice(0, 4));
    expect(result.ok && result.value.learned.join("\n")).toContain("[filmId, actorId]");
    const removal = applyChanges(state, [{ kind: "remove-attribute", entity: "FilmActor", name: "actorId" }]);
    expect(removal.ok).toBe(false);
    expect(JSON.stringify(removal.ok ? [] : removal.issues)).toContain("part of the key of FilmActor");
  });

  it("writes the workload file with the list forms, which loads back to the same keys", () => {
    const text = serializeDraft(state.workload);
    expect(text).toContain("key: [ filmId, actorId ]");
    expect(text).toContain("via: [ film, actor ]");
    expect(text).toMatch(/child: FilmActor\n\s+via: actorId\n/);
    const loaded = loadWorkload(text);
    expect(loaded.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    expect(loaded.ok && loaded.value.entities.find((e) => e.name === "FilmActor")?.key).toEqual([
      "filmId",
      "actorId",
    ]);
    const draft = parseDraftDocument(parse(text));
    expect(draft.ok && draft.value.relationships[2]?.via).toEqual(["film", "actor"]);
  });

  it("asks its questions, checks readiness and renders the requirements without tripping on the lists", () => {
    expect(() => nextQuestions(state)).not.toThrow();
    expect(() => checkReadiness(state)).not.toThrow();
    const document = renderSessionRequirements(state);
    expect(document).toContain("point read candidate (id = filmId + actorId)");
    expect(document).toContain("FilmActor");
  });
});
