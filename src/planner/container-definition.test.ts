import { describe, expect, it } from "vitest";
import type { Container } from "../model/types.js";
import { AUTOMATIC_INDEXING_POLICY, containerDefinitionOf } from "./container-definition.js";

const base: Container = {
  name: "c",
  partitionKey: ["/pk"],
  uniqueKeys: [],
  indexing: { kind: "automatic" },
  items: [],
};

describe("containerDefinitionOf", () => {
  it("uses Hash v2 for one path and MultiHash v2 for two or three", () => {
    expect(containerDefinitionOf(base).partitionKey).toEqual({ paths: ["/pk"], kind: "Hash", version: 2 });
    for (const paths of [
      ["/a", "/b"],
      ["/a", "/b", "/c"],
    ]) {
      expect(containerDefinitionOf({ ...base, partitionKey: paths }).partitionKey).toEqual({
        paths,
        kind: "MultiHash",
        version: 2,
      });
    }
  });

  it("writes a custom policy with composite indexes, adding the mandatory root path when missing", () => {
    const definition = containerDefinitionOf({
      ...base,
      indexing: {
        kind: "custom",
        included: ["/userId/?", "/creationDate/?"],
        excluded: [],
        composite: [
          [
            { path: "/userId", order: "ascending" },
            { path: "/creationDate", order: "descending" },
          ],
        ],
      },
    });
    expect(definition.indexingPolicy).toEqual({
      indexingMode: "consistent",
      automatic: true,
      includedPaths: [{ path: "/userId/?" }, { path: "/creationDate/?" }],
      excludedPaths: [{ path: "/*" }],
      compositeIndexes: [
        [
          { path: "/userId", order: "ascending" },
          { path: "/creationDate", order: "descending" },
        ],
      ],
    });
  });

  it("uses the derived policy given for derived indexing, else the automatic one; keeps ttl and unique keys", () => {
    const derived = { ...AUTOMATIC_INDEXING_POLICY, excludedPaths: [{ path: "/content/?" }] };
    const container: Container = {
      ...base,
      indexing: { kind: "derived" },
      defaultTtl: -1,
      uniqueKeys: [["/email"]],
    };
    expect(containerDefinitionOf(container, derived).indexingPolicy).toBe(derived);
    expect(containerDefinitionOf(container).indexingPolicy).toBe(AUTOMATIC_INDEXING_POLICY);
    expect(containerDefinitionOf(container)).toMatchObject({
      defaultTtl: -1,
      uniqueKeyPolicy: { uniqueKeys: [{ paths: ["/email"] }] },
    });
    expect("uniqueKeyPolicy" in containerDefinitionOf(base)).toBe(false);
    expect("defaultTtl" in containerDefinitionOf(base)).toBe(false);
  });
});
