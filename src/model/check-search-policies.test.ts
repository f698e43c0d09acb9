/**
 * A model's search policies against the documented limits (issue 31): a flat index holds 505
 * dimensions and not 506, quantizedFlat and diskANN 4,096, one diskANN per container; and the
 * policies load and serialize back.
 */
import { describe, expect, it } from "vitest";
import { formatPath } from "../common/issues.js";
import { loadModel } from "./load-model.js";
import { serializeModel } from "./serialize-model.js";

const model = (vectors: string) =>
  [
    "version: 1",
    "containers:",
    "  - name: chunks",
    "    partitionKey: /tenantId",
    '    items: [{ type: chunk, entity: Chunk, id: "{chunkId}", partitionKey: "{tenantId}" }]',
    "    search:",
    "      vectors:",
    vectors,
    "      fullText: [{ path: /content, language: en-US }]",
  ].join("\n");

const vector = (path: string, dimensions: number, index: string) =>
  `        - { path: ${path}, dataType: float32, dimensions: ${dimensions}, distance: cosine, index: ${index} }`;

function errors(text: string): string[] {
  return loadModel(text)
    .issues.filter((i) => i.severity === "error")
    .map((i) => `${i.code} ${formatPath(i.path)}`);
}

describe("search policies of a model", () => {
  it("takes flat at 505 dimensions and refuses it at 506", () => {
    expect(errors(model(vector("/e", 505, "flat")))).toEqual([]);
    expect(errors(model(vector("/e", 506, "flat")))).toEqual([
      "model.invalidValue containers[0].search.vectors[0].index",
    ]);
  });

  it("takes quantizedFlat and diskANN at 4,096 dimensions and refuses 4,097", () => {
    expect(errors(model(vector("/e", 4096, "quantizedFlat")))).toEqual([]);
    expect(errors(model(vector("/e", 4097, "diskANN")))).toEqual([
      "model.invalidValue containers[0].search.vectors[0].index",
    ]);
    expect(errors(model(vector("/e", 100_000, "none")))).toEqual([]);
  });

  it("refuses two diskANN indexes in one container", () => {
    expect(errors(model(`${vector("/a", 8, "diskANN")}\n${vector("/b", 8, "diskANN")}`))).toEqual([
      "model.invalidValue containers[0].search.vectors",
    ]);
  });

  it("serializes the policies back as they load", () => {
    const loaded = loadModel(model(vector("/e", 1536, "diskANN")));
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const again = loadModel(serializeModel(loaded.value));
    expect(again.ok && again.value).toEqual(loaded.value);
    expect(loaded.value.containers[0]?.search).toEqual({
      vectors: [{ path: "/e", dataType: "float32", dimensions: 1536, distance: "cosine", index: "diskANN" }],
      fullText: [{ path: "/content", language: "en-US" }],
    });
  });
});
