import { describe, expect, it } from "vitest";
import { applyChanges } from "../../session/apply-changes.js";
import { createSession } from "../../session/state.js";
import {
  MAX_VECTOR_DIMENSIONS,
  parseAttributeType,
  parseEditLine,
  parsePatternLine,
} from "./interview-lines.js";

function chunks() {
  const made = applyChanges(createSession(), [
    {
      kind: "add-entity",
      name: "Chunk",
      key: "chunkId",
      attributes: {
        tenantId: "string",
        title: "string",
        embedding: { type: "array", vector: { dimensions: 1536 } },
        content: { type: "string", fullText: { language: "en-US" } },
      },
    },
  ]);
  if (!made.ok) throw new Error(JSON.stringify(made.issues));
  return made.value.state.workload;
}

describe("an attribute type", () => {
  it("takes the workload's types", () => {
    expect(parseAttributeType("datetime")).toEqual({ ok: true, value: { type: "datetime" } });
  });

  it("takes vector(1536) as a float32 embedding compared by cosine", () => {
    expect(parseAttributeType("vector(1536)")).toEqual({
      ok: true,
      value: { type: "array", vector: { dimensions: 1536, dataType: "float32", distance: "cosine" } },
    });
  });

  it("takes the data type and distance function in any order", () => {
    expect(parseAttributeType("vector(768, int8, euclidean)")).toEqual({
      ok: true,
      value: { type: "array", vector: { dimensions: 768, dataType: "int8", distance: "euclidean" } },
    });
    expect(parseAttributeType("Vector(4096 dotproduct uint8)").ok).toBe(true);
  });

  it("says the dimensions, data types and distance functions that are valid", () => {
    expect(MAX_VECTOR_DIMENSIONS).toBe(4096);
    const tooMany = parseAttributeType("vector(4097)");
    expect(tooMany.ok).toBe(false);
    if (!tooMany.ok) expect(tooMany.problems[0]).toContain("from 1 to 4096");
    expect(parseAttributeType("vector(0)").ok).toBe(false);
    const wrong = parseAttributeType("vector(768, float64, manhattan)");
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) {
      expect(wrong.problems).toHaveLength(2);
      expect(wrong.problems[0]).toContain("float32, int8, uint8");
      expect(wrong.problems[1]).toContain("cosine, dotproduct, euclidean");
    }
  });

  it("takes text(en-US) as a string searched by full text, and says the languages", () => {
    expect(parseAttributeType("text(de-DE)")).toEqual({
      ok: true,
      value: { type: "string", fullText: { language: "de-DE" } },
    });
    expect(parseAttributeType("text")).toEqual({
      ok: true,
      value: { type: "string", fullText: { language: "en-US" } },
    });
    const wrong = parseAttributeType("text(xx-XX)");
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.problems[0]).toContain("en-US, de-DE");
    const unknown = parseAttributeType("blob");
    if (!unknown.ok) expect(unknown.problems[0]).toContain("vector(<dimensions>");
  });

  it("is an attribute edit too", () => {
    expect(parseEditLine("Chunk.title type vector(768, int8)", chunks())).toEqual({
      ok: true,
      value: {
        kind: "set-attribute",
        entity: "Chunk",
        name: "title",
        type: "array",
        vector: { dimensions: 768, dataType: "int8", distance: "cosine" },
      },
    });
  });
});

describe("a search pattern line", () => {
  it("reads a nearest-neighbour search with its k, recall, filter and rate", () => {
    const parsed = parsePatternLine(
      "Similar chunks: search Chunk nearest embedding, k 10, recall 0.9, by tenantId, 20/s peak 60/s",
      chunks(),
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        change: {
          kind: "add-access-pattern",
          type: "read",
          entity: "Chunk",
          name: "Similar chunks",
          search: { nearest: "embedding", k: 10, recall: 0.9 },
          where: { tenantId: "eq" },
          rps: { avg: 20, peak: 60 },
        },
        newAttributes: [],
      },
    });
  });

  it("reads a full-text search and a hybrid one", () => {
    const text = parsePatternLine("Find docs: search Chunk text content, k 10, terms 3", chunks());
    expect(text.ok && text.value.change.search).toEqual({ fullText: "content", k: 10, terms: 3 });
    const hybrid = parsePatternLine(
      "search Chunk nearest embedding and text content, k 5, recall 0.95, 2/s",
      chunks(),
    );
    expect(hybrid.ok && hybrid.value.change.search).toEqual({
      nearest: "embedding",
      fullText: "content",
      k: 5,
      recall: 0.95,
    });
  });

  it("leaves k and recall to be asked when the line does not say them", () => {
    const parsed = parsePatternLine("search Chunk nearest embedding", chunks());
    expect(parsed.ok && parsed.value.change.search).toEqual({ nearest: "embedding" });
  });

  it("refuses a search over an attribute that is not a vector or not searched by full text", () => {
    const nearest = parsePatternLine("search Chunk nearest title, k 10, recall 0.9", chunks());
    expect(nearest.ok).toBe(false);
    if (!nearest.ok) {
      expect(nearest.problems[0]).toContain("Chunk.title is a string, not a vector");
      expect(nearest.problems[0]).toContain("vector attributes: embedding");
    }
    const text = parsePatternLine("search Chunk text embedding, k 10", chunks());
    expect(text.ok).toBe(false);
    if (!text.ok) expect(text.problems[0]).toContain("full-text attributes: content");
  });

  it("refuses a recall out of range, a write that searches and a limit beside k", () => {
    const recall = parsePatternLine("search Chunk nearest embedding, k 10, recall 1.5", chunks());
    expect(recall.ok).toBe(false);
    expect(parsePatternLine("create Chunk, nearest embedding", chunks()).ok).toBe(false);
    expect(parsePatternLine("search Chunk nearest embedding, k 10, recall 0.9, limit 5", chunks()).ok).toBe(
      false,
    );
  });

  it("names a new search attribute to declare", () => {
    const parsed = parsePatternLine("search Chunk nearest summaryVector, k 3, recall 0.9", chunks());
    expect(parsed.ok && parsed.value.newAttributes).toEqual(["summaryVector"]);
  });

  it("changes one search setting in an edit and keeps the others", () => {
    const made = applyChanges(createSession(), [
      {
        kind: "add-entity",
        name: "Chunk",
        key: "chunkId",
        attributes: { embedding: { type: "array", vector: { dimensions: 1536 } } },
      },
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "similar",
        entity: "Chunk",
        search: { nearest: "embedding", k: 10, recall: 0.9 },
      },
    ]);
    if (!made.ok) throw new Error(JSON.stringify(made.issues));
    expect(parseEditLine("Q1 k 20", made.value.state.workload)).toEqual({
      ok: true,
      value: {
        kind: "update-access-pattern",
        id: "Q1",
        search: { nearest: "embedding", k: 20, recall: 0.9 },
      },
    });
  });
});
