/**
 * Two relationships between the same entities (pagila: a film's language and its original
 * language, both keys of Language): each is addressed by its via (`of`), asked on its own, and
 * never a dead end (found by the import's sample-database test: the second one's average could be
 * set by no change).
 */
import { describe, expect, it } from "vitest";
import { answersToChanges, type Answer, type Question } from "./questions.js";
import { applyChanges } from "./apply-changes.js";
import type { Change } from "./changes.js";
import { askRelationships } from "./ask-relationships.js";
import { createSession, type SessionState } from "./state.js";

function apply(state: SessionState, changes: readonly Change[]): SessionState {
  const result = applyChanges(state, changes);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value.state;
}

const films = apply(createSession(), [
  { kind: "add-entity", name: "Language", key: "languageId", count: 6, avgBytes: 100 },
  {
    kind: "add-entity",
    name: "Film",
    key: "filmId",
    count: 1000,
    avgBytes: 900,
    attributes: { languageId: "string", originalLanguageId: "string" },
  },
  {
    kind: "add-relationship",
    parent: "Language",
    child: "Film",
    via: "languageId",
    avg: 166,
    max: 1000,
    owned: false,
  },
  { kind: "add-relationship", parent: "Language", child: "Film", via: "originalLanguageId" },
]);

describe("two relationships between the same entities", () => {
  it("holds both, each with its via", () => {
    expect(films.workload.relationships.map((r) => r.via)).toEqual([["languageId"], ["originalLanguageId"]]);
    // the same via twice is refused
    expect(
      applyChanges(films, [
        { kind: "add-relationship", parent: "Language", child: "Film", via: "languageId" },
      ]).ok,
    ).toBe(false);
  });

  it("an update or removal says which by its via, and is refused, naming the vias, when it does not", () => {
    const vague = applyChanges(films, [
      { kind: "update-relationship", parent: "Language", child: "Film", avg: 2 },
    ]);
    expect(vague.ok).toBe(false);
    expect(JSON.stringify(vague.issues)).toContain(
      'via [languageId] or [originalLanguageId]): say which with \\"of\\"',
    );
    const set = apply(films, [
      {
        kind: "update-relationship",
        parent: "Language",
        child: "Film",
        of: "originalLanguageId",
        avg: 2,
        max: 1000,
        owned: false,
      },
    ]);
    expect(set.workload.relationships[1]).toMatchObject({ via: ["originalLanguageId"], avg: 2 });
    expect(set.workload.relationships[0]).toMatchObject({ via: ["languageId"], avg: 166 });
    const removed = apply(set, [
      { kind: "remove-relationship", parent: "Language", child: "Film", of: "languageId" },
    ]);
    expect(removed.workload.relationships.map((r) => r.via)).toEqual([["originalLanguageId"]]);
  });

  it("asks the open one's bounds with questions of its own, whose answers reach it (no dead end)", () => {
    const questions = askRelationships(films).filter((q) => q.id.startsWith("relationship:"));
    expect(questions.map((q) => q.id)).toEqual(
      expect.arrayContaining([
        "relationship:Language:Film.originalLanguageId:avg",
        "relationship:Language:Film.originalLanguageId:max",
      ]),
    );
    const answered = answersToChanges(
      questions.flatMap((question): { question: Question; answer: Answer }[] => {
        if (question.id.endsWith(":avg")) return [{ question, answer: { kind: "value", value: 2 } }];
        if (question.id.endsWith(":max")) return [{ question, answer: { kind: "value", value: 1000 } }];
        if (question.id.endsWith(":owned"))
          return [{ question, answer: { kind: "choice", value: "independent" } }];
        return [];
      }),
    );
    expect(answered.ok).toBe(true);
    if (!answered.ok) return;
    const after = apply(films, answered.value);
    expect(after.workload.relationships[1]).toMatchObject({ avg: 2, max: 1000 });
    expect(askRelationships(after).some((q) => q.id.startsWith("relationship:Language:Film"))).toBe(false);
  });
});
