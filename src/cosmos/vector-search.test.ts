/**
 * The vector-search facts: the documented limits as published, the JSON size of a vector
 * measured again from vectors written by JSON.stringify (an independent source for the bytes per
 * element), every undocumented figure labelled so, and overrides.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_VECTOR_SEARCH_FACTS,
  VECTOR_INDEX_TYPES,
  vectorJsonBytes,
  withVectorSearchFacts,
} from "./vector-search.js";

/** A deterministic Gaussian (Box-Muller over a Park-Miller generator). */
function gaussian(seed: number): () => number {
  let state = seed;
  const uniform = () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

describe("vector search facts", () => {
  it("keeps the documented limits: flat 505 dimensions, quantizedFlat and diskANN 4,096 and 1,000 vectors", () => {
    const { indexes } = DEFAULT_VECTOR_SEARCH_FACTS;
    expect(indexes.flat.maxDimensions).toBe(505);
    expect(indexes.quantizedFlat.maxDimensions).toBe(4096);
    expect(indexes.diskANN.maxDimensions).toBe(4096);
    expect(indexes.quantizedFlat.minVectors).toBe(1000);
    expect(indexes.diskANN.minVectors).toBe(1000);
    expect(indexes.quantizedFlat.advisedMaxVectors).toBe(100_000);
    expect(indexes.flat.recall).toMatchObject({ low: 1, high: 1, documented: true });
    expect(DEFAULT_VECTOR_SEARCH_FACTS.vectorCapability).toBe("EnableNoSQLVectorSearch");
    expect(DEFAULT_VECTOR_SEARCH_FACTS.fullTextCapability).toBe("EnableNoSQLFullTextSearch");
  });

  it("says 'not documented' of every RU figure it assumes, with a range around the estimate", () => {
    const assumed = [
      ...VECTOR_INDEX_TYPES.flatMap((type) => [
        DEFAULT_VECTOR_SEARCH_FACTS.indexes[type].ruPerVectorCompared,
        DEFAULT_VECTOR_SEARCH_FACTS.indexes[type].ruPerVectorWritten,
      ]),
      DEFAULT_VECTOR_SEARCH_FACTS.fullScanRuPerVectorDimension,
      DEFAULT_VECTOR_SEARCH_FACTS.diskAnnVisitsPerLog2Vector,
      DEFAULT_VECTOR_SEARCH_FACTS.fullTextRuPerTermPerThousandItems,
      DEFAULT_VECTOR_SEARCH_FACTS.fullTextRuPerHundredBytesWritten,
    ];
    for (const figure of assumed) {
      expect(figure.basis).toMatch(/not documented/);
      expect(figure.low).toBeLessThan(figure.estimate);
      expect(figure.high).toBeGreaterThan(figure.estimate);
    }
  });

  it("sizes a float32 vector as JavaScript writes it, within 2% of JSON.stringify on unit vectors", () => {
    const next = gaussian(7);
    let total = 0;
    const samples = 10;
    for (let n = 0; n < samples; n++) {
      const raw = Array.from({ length: 1536 }, next);
      const norm = Math.hypot(...raw);
      total += JSON.stringify(raw.map((x) => Math.fround(x / norm))).length;
    }
    const measured = total / samples;
    expect(Math.abs(vectorJsonBytes(1536, "float32") - measured) / measured).toBeLessThan(0.02);
  });

  it("sizes int8 and uint8 vectors by the average length of their integers", () => {
    const every = (min: number, max: number) =>
      JSON.stringify(Array.from({ length: max - min + 1 }, (_, i) => min + i)).length;
    expect(vectorJsonBytes(256, "int8")).toBe(every(-128, 127));
    expect(vectorJsonBytes(256, "uint8")).toBe(every(0, 255));
  });

  it("applies overrides to one index type and keeps the others", () => {
    const facts = withVectorSearchFacts({
      indexes: { flat: { maxDimensions: 1024 } },
      vectorCapability: "X",
    });
    expect(facts.indexes.flat.maxDimensions).toBe(1024);
    expect(facts.indexes.flat.minVectors).toBe(0);
    expect(facts.indexes.diskANN).toEqual(DEFAULT_VECTOR_SEARCH_FACTS.indexes.diskANN);
    expect(facts.vectorCapability).toBe("X");
  });
});
