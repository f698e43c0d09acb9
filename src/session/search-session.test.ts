import { describe, expect, it } from "vitest";
import { loadWorkload } from "../workload/load-workload.js";
import { applyChanges } from "./apply-changes.js";
import type { Change } from "./changes.js";
import { serializeDraft } from "./checklist.js";
import { nextQuestions } from "./next-questions.js";
import { answersToChanges, groupQuestions, type Answer } from "./questions.js";
import { renderSessionRequirements } from "./render-session-requirements.js";
import { createSession, type SessionState } from "./state.js";

function apply(state: SessionState, changes: readonly Change[]): SessionState {
  const result = applyChanges(state, changes);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value.state;
}

/** A retrieval application: chunks with an embedding and searched text, a tenant's chunks searched. */
const ragChanges: readonly Change[] = [
  { kind: "set-application", name: "Docs assistant", domain: "retrieval for a chat assistant" },
  {
    kind: "add-entity",
    name: "Chunk",
    key: "chunkId",
    count: 2_000_000,
    avgBytes: 40_000,
    attributes: {
      tenantId: "string",
      embedding: { type: "array", vector: { dimensions: 1536 } },
      content: { type: "string", fullText: { language: "en-US" } },
    },
  },
  {
    kind: "add-access-pattern",
    id: "C1",
    type: "write",
    operation: "create",
    name: "Ingest a chunk",
    entity: "Chunk",
    rps: { avg: 5, peak: 20 },
  },
  {
    kind: "add-access-pattern",
    id: "Q1",
    type: "read",
    name: "Similar chunks",
    entity: "Chunk",
    where: { tenantId: "eq" },
    search: { nearest: "embedding" },
    rps: { avg: 20, peak: 60 },
  },
];

describe("an interview with a vector search", () => {
  it("asks the search's k and recall with suggested answers, and the draft then loads as a workload", () => {
    let state = apply(createSession(), ragChanges);
    // the draft is not a workload yet: k and recall are missing
    expect(loadWorkload(serializeDraft(state.workload), { file: "workload.yaml" }).ok).toBe(false);
    const questions = nextQuestions(state);
    expect(questions.map((q) => q.id)).toEqual(["search:Q1:k", "search:Q1:recall"]);
    expect(questions.map((q) => q.suggested?.answer)).toEqual([
      { kind: "value", value: 10 },
      { kind: "value", value: 0.9 },
    ]);
    const answers = questions.map((question) => ({
      question,
      answer: question.suggested?.answer as Answer,
    }));
    const changes = answersToChanges(answers);
    if (!changes.ok) throw new Error(JSON.stringify(changes.issues));
    expect(changes.value).toEqual([
      {
        kind: "update-access-pattern",
        id: "Q1",
        search: { nearest: "embedding", k: 10, recall: 0.9 },
      },
    ]);
    state = apply(state, changes.value);
    expect(nextQuestions(state).some((q) => q.topic === "search")).toBe(false);
    const loaded = loadWorkload(serializeDraft(state.workload), { file: "workload.yaml" });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    const read = loaded.value.accessPatterns.find((p) => p.id === "Q1");
    expect(read?.type === "read" ? read.search : undefined).toMatchObject({
      kind: "vector",
      k: 10,
      recall: 0.9,
    });
    const markdown = renderSessionRequirements(state);
    expect(markdown).toContain("## Vector and Full-Text Search");
    expect(markdown).toContain("| Chunk.embedding | vector | 1,536 dimensions, float32, cosine distance |");
    expect(markdown).toContain("| Chunk.content | full text | language en-US |");
    expect(markdown).toMatch(
      /\| Q1 \| Similar chunks \| vector \| Chunk\.embedding \| 10 \| 0\.9 \| n\/a \| tenantId eq \|/,
    );
  });

  it("shows what a search still lacks in the requirements of an incomplete draft", () => {
    const state = apply(createSession(), ragChanges);
    const markdown = renderSessionRequirements(state);
    expect(markdown).toMatch(
      /\| Q1 \| Similar chunks \| vector \| Chunk\.embedding \| _unknown_ \| _unknown_ \|/,
    );
    expect(markdown).toContain("Q1 (Similar chunks) needs k and recall");
  });

  it("asks at most three search reads at a time", () => {
    const reads: Change[] = [2, 3, 4, 5].map((n) => ({
      kind: "add-access-pattern",
      id: `Q${n}`,
      type: "read",
      name: `Keyword search ${n}`,
      entity: "Chunk",
      search: { fullText: "content" },
      rps: { avg: 1, peak: 2 },
    }));
    const state = apply(createSession(), [...ragChanges, ...reads]);
    const groups = groupQuestions(nextQuestions(state));
    expect(groups).toHaveLength(3);
    expect(groups.every(({ group }) => group?.id.startsWith("search:") === true)).toBe(true);
    // a full-text search is not asked a recall
    expect(nextQuestions(state).some((q) => q.id === "search:Q2:recall")).toBe(false);
  });

  it("says what it learned of a vector attribute", () => {
    const result = applyChanges(apply(createSession(), ragChanges), [
      {
        kind: "set-attribute",
        entity: "Chunk",
        name: "titleVector",
        type: "array",
        vector: { dimensions: 768, dataType: "int8", distance: "euclidean" },
      },
    ]);
    expect(result.ok && result.value.learned).toEqual([
      "Attribute Chunk.titleVector: array, a vector of 768 dimensions (int8, euclidean).",
    ]);
  });

  it("refuses a vector that is not an array, and drops the vector when the type changes", () => {
    const state = apply(createSession(), ragChanges);
    const wrong = applyChanges(state, [
      {
        kind: "set-attribute",
        entity: "Chunk",
        name: "tenantId",
        vector: { dimensions: 3 },
      },
    ]);
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.issues[0]?.message).toContain("its type is array, not string");
    const retyped = apply(state, [
      { kind: "remove-access-pattern", id: "Q1" },
      { kind: "set-attribute", entity: "Chunk", name: "embedding", type: "string" },
    ]);
    expect(retyped.workload.entities[0]?.attributes.find((a) => a.name === "embedding")).toEqual({
      name: "embedding",
      type: "string",
    });
  });

  it("refuses a search over an attribute that is not a vector, saying which ones are", () => {
    const result = applyChanges(apply(createSession(), ragChanges), [
      {
        kind: "add-access-pattern",
        type: "read",
        name: "Wrong",
        entity: "Chunk",
        search: { nearest: "tenantId", k: 5, recall: 0.9 },
      },
    ]);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issues[0]?.message).toContain("Chunk.tenantId is not a vector attribute");
      expect(result.issues[0]?.message).toContain("its vector attributes: embedding");
    }
  });
});

describe("a search read's settings changed", () => {
  const searched = (): SessionState =>
    apply(createSession(), [
      ...ragChanges,
      {
        kind: "update-access-pattern",
        id: "Q1",
        search: { nearest: "embedding", k: 10, recall: 0.9 },
      },
    ]);

  it("takes a new k and recall, and the draft still loads as a workload", () => {
    const state = apply(searched(), [
      { kind: "update-access-pattern", id: "Q1", search: { nearest: "embedding", k: 25, recall: 0.95 } },
    ]);
    expect(state.workload.accessPatterns.find((p) => p.id === "Q1")?.search).toEqual({
      nearest: "embedding",
      k: 25,
      recall: 0.95,
    });
    expect(loadWorkload(serializeDraft(state.workload), { file: "workload.yaml" }).ok).toBe(true);
  });

  it("refuses k, recall and terms the workload format refuses, saying which and why", () => {
    const cases: readonly [Record<string, unknown>, string][] = [
      [{ nearest: "embedding", k: 0, recall: 0.9 }, "search.k"],
      [{ nearest: "embedding", k: 2.5, recall: 0.9 }, "search.k"],
      [{ nearest: "embedding", k: 10, recall: 1.5 }, "more than 0 and at most 1"],
      [{ nearest: "embedding", k: 10, recall: 0 }, "more than 0 and at most 1"],
      [{ fullText: "content", k: 10, terms: 17 }, "at most 16 terms"],
    ];
    for (const [search, message] of cases) {
      const result = applyChanges(searched(), [
        { kind: "update-access-pattern", id: "Q1", search } as Change,
      ]);
      expect(result.ok, JSON.stringify(search)).toBe(false);
      if (!result.ok) expect(result.issues[0]?.message).toContain(message);
    }
  });

  it("refuses a k below the results the read returns on average, as the workload check does", () => {
    const state = apply(searched(), [{ kind: "update-access-pattern", id: "Q1", returns: { avg: 8 } }]);
    const result = applyChanges(state, [
      { kind: "update-access-pattern", id: "Q1", search: { nearest: "embedding", k: 5, recall: 0.9 } },
    ]);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.issues[0]?.message).toContain(
        "a search returns at most its k (5) results: returns 8 on average is more",
      );
  });

  it("changes one setting of a vector attribute and keeps the others", () => {
    const state = apply(searched(), [
      {
        kind: "set-attribute",
        entity: "Chunk",
        name: "embedding",
        vector: { dimensions: 768, dataType: "float32", distance: "cosine" },
      },
    ]);
    expect(state.workload.entities[0]?.attributes.find((a) => a.name === "embedding")).toEqual({
      name: "embedding",
      type: "array",
      vector: { dimensions: 768, dataType: "float32", distance: "cosine" },
    });
  });
});
