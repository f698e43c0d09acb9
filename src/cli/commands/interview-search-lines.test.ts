import { describe, expect, it } from "vitest";
import { applyChanges } from "../../session/apply-changes.js";
import { createSession } from "../../session/state.js";
import { EDIT_LINE_EXAMPLE, editLineExample, parseEditLine, parsePatternLine } from "./interview-lines.js";
import {
  MAX_VECTOR_DIMENSIONS,
  parseAttributeType,
  parseSearchSetting,
  parseVectorDimensions,
} from "./interview-search-lines.js";

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

describe("one search value changed in one line", () => {
  function searched() {
    const made = applyChanges(createSession(), [
      {
        kind: "add-entity",
        name: "Chunk",
        key: "chunkId",
        attributes: {
          title: "string",
          embedding: { type: "array", vector: { dimensions: 1536, dataType: "float32", distance: "cosine" } },
          content: { type: "string", fullText: { language: "en-US" } },
        },
      },
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "similar",
        entity: "Chunk",
        search: { nearest: "embedding", k: 10, recall: 0.9 },
        returns: { avg: 8 },
      },
      {
        kind: "add-access-pattern",
        id: "Q2",
        type: "read",
        name: "keywords",
        entity: "Chunk",
        search: { fullText: "content", k: 10, terms: 3 },
      },
      {
        kind: "add-access-pattern",
        id: "Q3",
        type: "read",
        name: "by title",
        entity: "Chunk",
        where: { title: "eq" },
      },
    ]);
    if (!made.ok) throw new Error(JSON.stringify(made.issues));
    return made.value.state.workload;
  }
  const problems = (line: string): readonly string[] => {
    const parsed = parseEditLine(line, searched());
    return parsed.ok ? [] : parsed.problems;
  };

  it("changes k, recall and terms, keeping the search's other settings", () => {
    expect(parseEditLine("Q1 recall 0.95", searched())).toEqual({
      ok: true,
      value: {
        kind: "update-access-pattern",
        id: "Q1",
        search: { nearest: "embedding", k: 10, recall: 0.95 },
      },
    });
    expect(parseEditLine("Q2 terms 5, k 20", searched())).toEqual({
      ok: true,
      value: { kind: "update-access-pattern", id: "Q2", search: { fullText: "content", k: 20, terms: 5 } },
    });
  });

  it("refuses values the workload format refuses, with the one-line form's messages", () => {
    expect(problems("Q1 k 0")).toEqual([
      '"0": k (the results a search returns) is a whole number of at least 1',
    ]);
    expect(problems("Q1 k 2.5")[0]).toContain("k (the results a search returns) is a whole number");
    expect(problems("Q1 recall 1.2")[0]).toContain("more than 0 and at most 1");
    expect(problems("Q2 terms 17")).toEqual(['"17": terms is a whole number from 1 to 16']);
    expect(problems("Q2 recall 0.9")).toEqual(["Q2: recall applies to a vector search (nearest)"]);
    expect(problems("Q1 terms 3")).toEqual(["Q1: terms apply to a full-text search (text)"]);
    // Q1 returns 8 on average: k cannot be lower
    expect(problems("Q1 k 5")).toEqual([
      "Q1: a search returns at most its k (5) results: returns 8 on average is more (lower it, or raise k)",
    ]);
    expect(problems("Q3 k 10")[0]).toContain("Q3 does not search: k is a setting of a search read");
  });

  it("shows the workload's own search settings in its example, each a valid edit", () => {
    const example = editLineExample(searched());
    expect(example).toContain(
      "Q1 k 20, Q1 recall 0.95, Chunk.embedding dimensions 768, Chunk.content language de-DE",
    );
    for (const line of example.split(", ").slice(4))
      expect(parseEditLine(line, searched()).ok, line).toBe(true);
    expect(editLineExample(createSession().workload)).toBe(EDIT_LINE_EXAMPLE);
  });

  it("changes a vector's dimensions, data type or distance and a text's language, keeping the rest", () => {
    expect(parseEditLine("Chunk.embedding dimensions 768", searched())).toEqual({
      ok: true,
      value: {
        kind: "set-attribute",
        entity: "Chunk",
        name: "embedding",
        vector: { dimensions: 768, dataType: "float32", distance: "cosine" },
      },
    });
    const dataType = parseEditLine("Chunk.embedding dataType int8", searched());
    expect(dataType.ok && dataType.value).toMatchObject({ vector: { dimensions: 1536, dataType: "int8" } });
    const distance = parseEditLine("Chunk.embedding distance euclidean", searched());
    expect(distance.ok && distance.value).toMatchObject({ vector: { distance: "euclidean" } });
    expect(parseEditLine("Chunk.content language de-de", searched())).toEqual({
      ok: true,
      value: { kind: "set-attribute", entity: "Chunk", name: "content", fullText: { language: "de-DE" } },
    });
  });

  it("refuses a setting out of the facts' range or on an attribute that is not a vector or text", () => {
    expect(problems("Chunk.embedding dimensions 4097")[0]).toContain(
      `whole number from 1 to ${MAX_VECTOR_DIMENSIONS}`,
    );
    expect(problems("Chunk.embedding dimensions 0")[0]).toContain("whole number from 1");
    expect(problems("Chunk.embedding dataType float64")).toEqual([
      '"float64" is not a vector data type (float32, int8, uint8)',
    ]);
    expect(problems("Chunk.embedding distance manhattan")).toEqual([
      '"manhattan" is not a distance function (cosine, dotproduct, euclidean)',
    ]);
    expect(problems("Chunk.content language xx-XX")[0]).toContain(
      "is not a full-text language (en-US, de-DE",
    );
    expect(problems("Chunk.title dimensions 768")[0]).toContain(
      "Chunk.title is a string, not a vector: dimensions is a setting of a vector attribute (Chunk's vectors: embedding)",
    );
    expect(problems("Chunk.embedding language de-DE")[0]).toContain(
      "not searched by full text: a language belongs to a text attribute (Chunk's full-text attributes: content)",
    );
    expect(problems("Chunk.missing dimensions 3")[0]).toContain('Chunk has no attribute "missing"');
    expect(problems("Chunk.title colour red")[0]).toContain("dimensions, dataType, distance");
  });
});

describe("a search setting answered alone", () => {
  it("is checked as in a line", () => {
    expect(parseSearchSetting("k", " 20 ")).toEqual({ ok: true, value: 20 });
    expect(parseSearchSetting("recall", "1")).toEqual({ ok: true, value: 1 });
    expect(parseSearchSetting("recall", "-0.1").ok).toBe(false);
    expect(parseSearchSetting("terms", "0").ok).toBe(false);
    expect(parseSearchSetting("k", "1e99").ok).toBe(false);
    expect(parseVectorDimensions("1536")).toEqual({ ok: true, value: 1536 });
    expect(parseVectorDimensions("12.5").ok).toBe(false);
  });
});
