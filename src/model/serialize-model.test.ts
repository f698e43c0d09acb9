import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadModel } from "./load-model.js";
import { serializeModel } from "./serialize-model.js";
import { readExample, EXAMPLE_MODELS } from "../test-support/model-examples.js";
import type { Container, ItemType, Model } from "./types.js";

function loaded(text: string): Model {
  const result = loadModel(text);
  if (!result.ok) throw new Error(JSON.stringify(result.issues, null, 2));
  return result.value;
}

describe("serializeModel", () => {
  it.each(EXAMPLE_MODELS)("%s: %s round-trips through serializeModel and loadModel", (_example, path) => {
    const model = loaded(readExample(path));
    expect(loaded(serializeModel(model))).toEqual(model);
  });

  it("writes the iot expert model in the compact style of the examples", () => {
    const text = serializeModel(loaded(readExample("iot-telemetry/expert-model.yaml")));
    expect(text).toBe(
      [
        "version: 1",
        "containers:",
        "  - name: telemetry",
        "    partitionKey: [/deviceId]",
        "    defaultTtl: 2592000",
        "    indexing:",
        "      included: [/deviceId/?, /timestamp/?]",
        "      excluded: [/*]",
        "      composite: [[/deviceId asc, /timestamp desc]]",
        "    items:",
        "      - type: readingBucket",
        "        entity: Reading",
        '        id: "{deviceId}-{bucket}"',
        '        partitionKey: ["{deviceId}"]',
        "        bucket: { by: timestamp, window: 1m }",
        "  - name: sites",
        "    partitionKey: [/siteId]",
        "    defaultTtl: -1",
        "    indexing:",
        "      included: [/*]",
        "      excluded: [/reading/*, /location/*, /thresholds/*]",
        "      composite: [[/type asc, /status asc, /raisedAt desc]]",
        "    items:",
        '      - { type: device, entity: Device, id: "{deviceId}", partitionKey: ["{siteId}"] }',
        '      - { type: alert, entity: Alert, id: "{alertId}", partitionKey: ["{siteId}"], ttl: 7776000 }',
        "",
      ].join("\n"),
    );
  });

  it("writes every optional field", () => {
    const model: Model = {
      version: 1,
      containers: [
        {
          name: "c",
          partitionKey: ["/k"],
          physicalPartitions: 3,
          throughput: { mode: "manual", rus: 400 },
          defaultTtl: -1,
          uniqueKeys: [["/email", "/name"]],
          indexing: { kind: "custom", included: [], excluded: ["/*"], composite: [] },
          items: [
            {
              type: "t",
              entity: "E",
              id: "{a}-{bucket}",
              partitionKey: ["{k}-{shard}-{replica}"],
              select: ["a", "k"],
              truncate: [{ attribute: "a", bytes: 10 }],
              embeds: [{ entity: "C", as: "cs", latest: 3 }],
              copies: [{ from: { entity: "P", attribute: "n" }, as: "pn" }],
              counts: [{ of: "C", as: "n" }],
              ancestors: { as: "path" },
              keepLatest: { count: 5, by: "a" },
              bucket: { kind: "records", records: 100 },
              shards: 4,
              shardBy: "a",
              ttl: 60,
              replicas: 2,
            },
            {
              type: "u",
              entity: "E",
              id: "{a}",
              partitionKey: ["{k}"],
              truncate: [],
              embeds: [],
              copies: [],
              counts: [],
              source: { container: "c", type: "t" },
            },
          ],
        },
      ],
    };
    const text = serializeModel(model);
    expect(text).toContain("throughput: { mode: manual, rus: 400 }");
    expect(text).toContain("bucket: { records: 100 }");
    expect(text).toContain("source: c/t");
    expect(loaded(text)).toEqual(model);
  });

  it("round-trips generated models, including names that YAML must quote", () => {
    const name = fc.oneof(
      fc.constantFrom("yes", "null", "123", "true", "a b", "#x", "x: y", "'q'", '"d"', "-", "~", "@a", "é"),
      fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,8}$/),
    );
    const attribute = fc
      .stringMatching(/^[a-z][a-zA-Z0-9]{0,8}$/)
      .filter((text) => !["shard", "replica", "bucket"].includes(text));
    const item = fc.record({
      type: name,
      entity: name,
      attribute,
      literal: fc.constantFrom("", "-", "post-", "a b ", ":", "x:"),
      select: fc.option(fc.array(attribute, { maxLength: 3 }), { nil: undefined }),
      truncate: fc.uniqueArray(attribute, { maxLength: 2 }),
      ttl: fc.option(fc.constantFrom(-1, 1, 900), { nil: undefined }),
      window: fc.option(fc.constantFrom(1, 59, 60, 90, 3600, 86_400, 172_800), { nil: undefined }),
    });
    const container = fc.record({
      name: fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9 -]{0,10}[a-zA-Z0-9]$/),
      path: fc.constantFrom(["/pk"], ["/a", "/b"], ["/x/y", "/z", "/w"]),
      items: fc.uniqueArray(item, { minLength: 1, maxLength: 3, selector: (entry) => entry.type }),
      indexing: fc.constantFrom<Container["indexing"]>(
        { kind: "derived" },
        { kind: "automatic" },
        {
          kind: "custom",
          included: ["/a/?"],
          excluded: ["/*"],
          composite: [
            [
              { path: "/a", order: "ascending" },
              { path: "/b", order: "descending" },
            ],
          ],
        },
      ),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(container, { minLength: 1, maxLength: 3, selector: (entry) => entry.name }),
        (containers) => {
          const model: Model = {
            version: 1,
            containers: containers.map((entry) => ({
              name: entry.name,
              partitionKey: entry.path,
              uniqueKeys: [],
              indexing: entry.indexing,
              items: entry.items.map((generated): ItemType => ({
                type: generated.type,
                entity: generated.entity,
                id: `${generated.literal}{${generated.attribute}}${generated.window === undefined ? "" : "-{bucket}"}`,
                partitionKey: entry.path.map(() => `${generated.literal}{${generated.attribute}}`),
                ...(generated.select === undefined ? {} : { select: generated.select }),
                truncate: generated.truncate.map((attributeName) => ({
                  attribute: attributeName,
                  bytes: 200,
                })),
                embeds: [],
                copies: [],
                counts: [],
                ...(generated.ttl === undefined ? {} : { ttl: generated.ttl }),
                ...(generated.window === undefined
                  ? {}
                  : {
                      bucket: {
                        kind: "window" as const,
                        by: generated.attribute,
                        windowSeconds: generated.window,
                      },
                    }),
              })),
            })),
          };
          const text = serializeModel(model);
          const result = loadModel(text);
          expect(result.issues.filter((issue) => issue.severity === "error")).toEqual([]);
          expect(result.ok && result.value).toEqual(model);
        },
      ),
      { numRuns: 200 },
    );
  });
});
