/**
 * Verification of search reads (issue 31): the oracle's nearest neighbours are exact (checked
 * against distances worked out by hand for each distance function), a vector answer is judged by
 * the recall the pattern needs, and verify says which searches it cannot check and why: on the
 * embedded endpoint none runs; on an account, full-text and hybrid rankings are not compared.
 */
import { describe, expect, it } from "vitest";
import type { Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import { EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS, REAL_CAPABILITIES } from "./endpoint.js";
import { answerReadPattern } from "./oracle.js";
import { checkVectorAnswer, nearestNeighbours, vectorScore } from "./search-oracle.js";
import { buildVerificationPlan } from "./verification-plan.js";
import { CHUNKS_MODEL } from "../test-support/search-fixtures.js";

const points = [
  { id: "a", v: [1, 0] },
  { id: "b", v: [0, 1] },
  { id: "c", v: [0.6, 0.8] },
  { id: "d", v: [2, 2] },
];

describe("nearest neighbours by brute force", () => {
  it("orders by cosine similarity, dot product and Euclidean distance as worked out by hand", () => {
    const query = [0.8, 0.6];
    // cosine: a 0.8, b 0.6, c 0.96, d 2.8 / 2.828 = 0.9899 -> d, c, a, b
    expect(nearestNeighbours(points, "v", query, "cosine", 4).map((n) => n.record.id)).toEqual([
      "d",
      "c",
      "a",
      "b",
    ]);
    // dot product: a 0.8, b 0.6, c 0.96, d 2.8 -> d, c, a, b
    expect(nearestNeighbours(points, "v", query, "dotproduct", 2).map((n) => n.record.id)).toEqual([
      "d",
      "c",
    ]);
    // euclidean: a 0.632, b 0.894, c 0.283, d 2.04 -> c, a (smallest first)
    expect(nearestNeighbours(points, "v", query, "euclidean", 2).map((n) => n.record.id)).toEqual(["c", "a"]);
    expect(vectorScore([1, 0], [0, 1], "cosine")).toBe(0);
    expect(vectorScore([3, 4], [0, 0], "euclidean")).toBe(5);
  });

  it("judges an approximate answer by the recall the pattern needs", () => {
    expect(checkVectorAnswer(["a", "b", "c", "d"], ["a", "b", "c", "e"], 0.75)).toBeUndefined();
    expect(checkVectorAnswer(["a", "b", "x", "y"], ["a", "b", "c", "e"], 0.75)).toMatch(
      /returned 2 of the 4 nearest neighbours \(recall 0\.50\), the pattern needs 0\.75/,
    );
    expect(checkVectorAnswer([], [], 1)).toBeUndefined();
  });
});

const text = `
version: 1
name: Search
entities:
  Chunk:
    key: chunkId
    count: 300
    avgBytes: 2000
    attributes:
      chunkId: string
      tenantId: { type: string, distinct: 3 }
      embedding: { type: array, vector: { dimensions: 16, distance: cosine } }
      content: { type: string, avgBytes: 300, fullText: { language: en-US } }
accessPatterns:
  - { id: W1, name: Ingest, type: write, operation: create, entity: Chunk, rps: { avg: 1, peak: 5 } }
  - { id: Q1, name: Nearest, type: read, entity: Chunk, where: { tenantId: eq }, search: { nearest: embedding, k: 5, recall: 1 }, rps: { avg: 10, peak: 50 } }
  - { id: Q2, name: Words, type: read, entity: Chunk, where: { tenantId: eq }, search: { fullText: content, k: 5 }, rps: { avg: 1, peak: 5 } }
`;

const model: Model = CHUNKS_MODEL;

describe("verify of search reads", () => {
  const loaded = loadWorkload(text);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  const workload = loaded.value;

  it("says the embedded endpoint cannot run them, per pattern (never a silent pass)", () => {
    const plan = buildVerificationPlan(workload, model, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS, {
      seed: 1,
    });
    const reasons = Object.fromEntries(
      plan.patterns.flatMap((p) => (p.kind === "read" ? [[p.patternId, p.notCheckable]] : [])),
    );
    expect(reasons.Q1).toMatch(/cannot run VectorDistance/);
    expect(reasons.Q2).toMatch(/cannot run FullTextScore/);
  });

  it("on an account: checks the vector search against the oracle's exact neighbours, not the BM25 ranking", () => {
    const plan = buildVerificationPlan(workload, model, REAL_CAPABILITIES, EMBEDDED_LIMITATIONS, { seed: 1 });
    const q1 = plan.patterns.find((p) => p.patternId === "Q1");
    const q2 = plan.patterns.find((p) => p.patternId === "Q2");
    expect(q1?.kind === "read" && q1.notCheckable).toBeFalsy();
    expect(q2?.kind === "read" && q2.notCheckable).toMatch(/BM25 ranking .* the service's own/);
    const request = q1?.kind === "read" ? q1.requests[0] : undefined;
    const vector = request?.parameters.embedding;
    expect(Array.isArray(vector) && vector.length).toBe(16);
    const pattern = workload.accessPatterns.find((p) => p.id === "Q1");
    if (pattern?.type !== "read" || request === undefined) throw new Error("no Q1");
    const answer = answerReadPattern(workload, plan.finalDataset, pattern, request.parameters);
    expect(answer).toHaveLength(5);
    // no vector in the answer, every result in the tenant, the anchor (the query's origin) first
    expect(answer.every((r) => !("embedding" in r) && r.tenantId === request.parameters.tenantId)).toBe(true);
  });
});
