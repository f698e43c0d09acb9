/**
 * Vector, full-text and hybrid search in the workload format (docs/workload-format.md#search):
 * what loads, its defaults, and every error with its code, path and line.
 */
import { describe, expect, it } from "vitest";
import { formatPath } from "../common/issues.js";
import { vectorJsonBytes } from "../cosmos/vector-search.js";
import { loadWorkload } from "./load-workload.js";
import { serializeWorkload } from "./serialize-workload.js";

const workload = (attributes: string, search: string, extra = "") =>
  [
    "version: 1",
    "name: Assistant",
    "entities:",
    "  Chunk:",
    "    key: chunkId",
    "    count: 100000",
    "    avgBytes: 40000",
    "    attributes:",
    "      chunkId: string",
    "      tenantId: { type: string, distinct: 50 }",
    attributes,
    "accessPatterns:",
    "  - { id: W1, name: Ingest, type: write, operation: create, entity: Chunk, rps: { avg: 1, peak: 5 } }",
    "  - id: Q1",
    "    name: Search",
    "    type: read",
    "    entity: Chunk",
    "    where: { tenantId: eq }",
    `    search: ${search}`,
    "    rps: { avg: 10, peak: 50 }",
    extra,
  ]
    .filter((line) => line !== "")
    .join("\n");

const VECTOR = "      embedding: { type: array, vector: { dimensions: 1536 } }";
const TEXT = "      content: { type: string, avgBytes: 2000, fullText: { language: en-US } }";

/** The 1-based line of the first line of `text` that contains `needle`. */
function lineOf(text: string, needle: string): number {
  return text.split("\n").findIndex((line) => line.includes(needle)) + 1;
}

function errors(text: string): [string, string, number | undefined][] {
  const loaded = loadWorkload(text, { file: "workload.yaml" });
  return loaded.issues
    .filter((i) => i.severity === "error")
    .map((i) => [i.code, formatPath(i.path), "line" in i ? i.line : undefined]);
}

describe("search in the workload", () => {
  it("loads a vector attribute with the policy's defaults and its JSON size", () => {
    const loaded = loadWorkload(workload(VECTOR, "{ nearest: embedding, k: 5, recall: 0.9 }"));
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const chunk = loaded.value.entities[0];
    const embedding = chunk?.attributes.find((a) => a.name === "embedding");
    expect(embedding?.vector).toEqual({ dimensions: 1536, dataType: "float32", distance: "cosine" });
    expect(embedding?.avgBytes).toBe(vectorJsonBytes(1536, "float32"));
    const read = loaded.value.accessPatterns[1];
    expect(read?.type === "read" ? read.search : undefined).toEqual({
      kind: "vector",
      vector: "embedding",
      k: 5,
      recall: 0.9,
    });
  });

  it("loads full-text and hybrid searches (terms default to 3) and writes them back", () => {
    const text = workload(
      `${VECTOR}\n${TEXT}`,
      "{ nearest: embedding, fullText: content, k: 10, recall: 0.95 }",
      "  - { id: Q2, name: Words, type: read, entity: Chunk, search: { fullText: content, k: 3, terms: 5 }, rps: { avg: 1, peak: 2 } }",
    );
    const loaded = loadWorkload(text);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const searches = loaded.value.accessPatterns.flatMap((p) => (p.type === "read" ? [p.search] : []));
    expect(searches).toEqual([
      { kind: "hybrid", vector: "embedding", text: "content", k: 10, recall: 0.95, terms: 3 },
      { kind: "fullText", text: "content", k: 3, terms: 5 },
    ]);
    const again = loadWorkload(serializeWorkload(loaded.value));
    expect(again.ok && again.value).toEqual(loaded.value);
  });

  it("refuses a vector on a non-array, a size given for a vector, and a record smaller than its vector", () => {
    const text = workload(
      "      embedding: { type: string, avgBytes: 10, vector: { dimensions: 1536, dataType: int8 } }\n      big: { type: array, vector: { dimensions: 4000 } }",
      "{ nearest: embedding, k: 5, recall: 0.9 }",
    );
    expect(errors(text)).toEqual([
      ["workload.invalidValue", "entities.Chunk.avgBytes", 7],
      ["workload.invalidValue", "entities.Chunk.attributes.embedding.type", 11],
      ["workload.invalidValue", "entities.Chunk.attributes.embedding.avgBytes", 11],
    ]);
  });

  it("says what a search needs: a vector, a full-text attribute, a recall, no orderBy or limit", () => {
    const cases: [string, string, [string, string][]][] = [
      [
        `${VECTOR}\n${TEXT}`,
        "{ nearest: content, k: 5, recall: 0.9 }",
        [["workload.invalidValue", "search.nearest"]],
      ],
      [`${VECTOR}\n${TEXT}`, "{ fullText: embedding, k: 5 }", [["workload.invalidValue", "search.fullText"]]],
      [VECTOR, "{ nearest: embeding, k: 5, recall: 0.9 }", [["workload.unknownAttribute", "search.nearest"]]],
      [VECTOR, "{ nearest: embedding, k: 5 }", [["workload.missingField", "search.recall"]]],
      [VECTOR, "{ k: 5 }", [["workload.missingField", "search"]]],
      [VECTOR, "{ nearest: embedding, k: 5, recall: 1.5 }", [["workload.invalidValue", "search.recall"]]],
      [
        VECTOR,
        "{ nearest: embedding, k: 5, recall: 0.9, terms: 2 }",
        [["workload.invalidValue", "search.terms"]],
      ],
      [TEXT, "{ fullText: content, k: 5, recall: 0.9 }", [["workload.invalidValue", "search.recall"]]],
    ];
    for (const [attributes, search, expected] of cases) {
      const text = workload(attributes, search);
      const line = lineOf(text, "search:");
      expect(errors(text), search).toEqual(
        expected.map(([code, path]) => [code, `accessPatterns[1].${path}`, line]),
      );
    }
    const ordered = workload(
      VECTOR,
      "{ nearest: embedding, k: 5, recall: 0.9 }\n    limit: 5\n    orderBy: { chunkId: asc }",
    );
    expect(errors(ordered)).toEqual([
      ["workload.invalidValue", "accessPatterns[1].limit", lineOf(ordered, "limit:")],
      ["workload.invalidValue", "accessPatterns[1].orderBy", lineOf(ordered, "orderBy:")],
    ]);
    const onWrite = workload(
      TEXT,
      "{ fullText: content, k: 5 }",
      "  - { id: W2, name: x, type: write, operation: create, entity: Chunk, search: { k: 1 }, rps: { avg: 1, peak: 1 } }",
    );
    expect(errors(onWrite)).toEqual([
      ["workload.fieldNotAllowed", "accessPatterns[2].search", lineOf(onWrite, "W2")],
    ]);
  });

  it("names the valid data types and distance functions", () => {
    const loaded = loadWorkload(
      workload(
        "      embedding: { type: array, vector: { dimensions: 8, dataType: float16, distance: manhattan } }",
        "{ nearest: embedding, k: 5, recall: 1 }",
      ),
    );
    const messages = loaded.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
    expect(messages).toContain(
      'entities.Chunk.attributes.embedding.vector.dataType: expected one of "float32", "int8", "uint8", got "float16"',
    );
    expect(messages).toContain(
      'entities.Chunk.attributes.embedding.vector.distance: expected one of "cosine", "dotproduct", "euclidean", got "manhattan"',
    );
  });
});
