import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadModel } from "./load-model.js";
import { readExample, readExampleWorkload, EXAMPLE_MODELS } from "../test-support/model-examples.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value inside `value`. */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const here = [prefix];
  if (Array.isArray(value))
    return [...here, ...value.flatMap((entry, index) => pathsOf(entry, [...prefix, index]))];
  if (value !== null && typeof value === "object") {
    return [...here, ...Object.entries(value).flatMap(([key, entry]) => pathsOf(entry, [...prefix, key]))];
  }
  return here;
}

function replaceAt(value: Json, path: readonly (string | number)[], replacement: Json | undefined): Json {
  const [head, ...rest] = path;
  if (head === undefined) return replacement ?? null;
  if (Array.isArray(value)) {
    const copy = [...value];
    const next = replaceAt(copy[head as number] ?? null, rest, replacement);
    copy[head as number] = next;
    return copy;
  }
  if (value !== null && typeof value === "object") {
    if (rest.length === 0 && replacement === undefined) {
      return Object.fromEntries(Object.entries(value).filter(([key]) => key !== head));
    }
    return { ...value, [head]: replaceAt(value[head as string] ?? null, rest, replacement) };
  }
  return value;
}

const oddValue = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom<Json>(
    null,
    0,
    -1,
    1.5,
    2,
    1e9,
    "",
    "{",
    "}",
    "{x}",
    "{shard}",
    "{bucket}",
    "a/b",
    "User.",
    ".x",
    "1m",
    "x",
    "automatic",
    [],
    {},
    [[]],
    ["{x"],
    { records: 0 },
    { by: "x", window: "0m" },
  ),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

describe("loadModel never throws", () => {
  it.each(EXAMPLE_MODELS)("%s: %s with random changes gives a result, not an exception", (example, path) => {
    const original = parse(readExample(path)) as Json;
    const paths = pathsOf(original);
    const workload = readExampleWorkload(example);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(paths.length - 1), oddValue), { minLength: 1, maxLength: 3 }),
        (changes) => {
          let mutated = original;
          for (const [index, value] of changes) mutated = replaceAt(mutated, paths[index] ?? [], value);
          const result = loadModel(JSON.stringify(mutated), { file: "m.json", workload });
          expect(result.ok || result.issues.some((issue) => issue.severity === "error")).toBe(true);
          for (const issue of result.issues) expect(issue.code).toMatch(/^(model|source)\.[a-zA-Z]+$/);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reports a malformed id template of a bucket item, not an exception (the key-change check skips it)", () => {
    const [example, path] = EXAMPLE_MODELS.find(([name]) => name === "iot-telemetry") ?? [];
    if (example === undefined || path === undefined) throw new Error("iot-telemetry has a model");
    const model = parse(readExample(path)) as { containers: { items: { id: string }[] }[] };
    const item = model.containers[0]?.items[0];
    if (item === undefined) throw new Error("iot-telemetry's model has an item");
    item.id = "}";
    const result = loadModel(JSON.stringify(model), {
      file: "m.json",
      workload: readExampleWorkload(example),
    });
    expect(result.ok).toBe(false);
    expect(result.issues.map((issue) => issue.code)).toContain("model.badTemplate");
  });

  it("handles any JSON document", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = loadModel(JSON.stringify(value) ?? "null");
        expect(result.ok).toBe(false);
      }),
    );
  });
});
