/**
 * The infrastructure of a container with search policies (issue 31): Bicep with the vector
 * embedding policy, vector indexes and full-text policy and the account capabilities (checked
 * against the Microsoft.DocumentDB extract of each resource's API version), the script creating
 * the container through the ARM REST API with the whole definition (its body checked against the
 * same extract), and Terraform, whose azurerm resource has no such arguments, saying so instead
 * of creating it without them.
 */
import { describe, expect, it } from "vitest";
import type { Model } from "../model/types.js";
import { parseBicepSubset } from "../test-support/bicep-subset.js";
import {
  bicepFileProblems,
  loadAzurermSchema,
  loadBicepSchemas,
  parseTerraform,
  restBodyProblems,
  terraformProblems,
} from "../test-support/iac-schemas.js";
import { renderAzureCli } from "./azure-cli.js";
import { FULL_TEXT_API_VERSION, renderBicep } from "./bicep.js";
import { renderTerraform } from "./terraform.js";
import { CHUNK_ITEM } from "../test-support/search-fixtures.js";

function model(fullText: boolean, shardKey = true): Model {
  return {
    version: 1,
    containers: [
      {
        name: "chunks",
        partitionKey: ["/tenantId"],
        throughput: { mode: "manual", rus: 400 },
        uniqueKeys: [],
        indexing: { kind: "custom", included: ["/tenantId/?", "/type/?"], excluded: ["/*"], composite: [] },
        items: [CHUNK_ITEM],
        search: {
          vectors: [
            {
              path: "/embedding",
              dataType: "float32",
              dimensions: 1536,
              distance: "cosine",
              index: "diskANN",
              ...(shardKey ? { shardKey: ["/tenantId"] } : {}),
            },
          ],
          fullText: fullText ? [{ path: "/content", language: "en-US" }] : [],
        },
      },
    ],
  };
}

describe("infrastructure of search containers", () => {
  it("Bicep: vector policy, vector index with its shard key, the path excluded, the capability; valid against the extract", () => {
    const bicep = renderBicep(model(false));
    expect(bicep).toMatch(/capabilities: \[\s*\{\s*name: 'EnableNoSQLVectorSearch'\s*\}\s*\]/);
    expect(bicep).toMatch(
      /vectorEmbeddingPolicy: \{\s*vectorEmbeddings: \[\s*\{\s*path: '\/embedding'\s*dataType: 'float32'\s*dimensions: 1536\s*distanceFunction: 'cosine'/,
    );
    expect(bicep).toMatch(
      /vectorIndexes: \[\s*\{\s*path: '\/embedding'\s*type: 'diskANN'\s*vectorIndexShardKey: \[\s*'\/tenantId'\s*\]/,
    );
    expect(bicep).toMatch(/path: '\/embedding\/\*'/);
    expect(bicep).toContain(`containers@${FULL_TEXT_API_VERSION}'`);
    expect(bicepFileProblems(parseBicepSubset(bicep), loadBicepSchemas())).toEqual([]);
    // Without a shard key: the 2024-11-15 types, whose VectorEmbedding and VectorIndex (path and
    // type only) the extract has in full.
    const unsharded = renderBicep(model(false, false));
    expect(unsharded).toContain("containers@2024-11-15'");
    expect(bicepFileProblems(parseBicepSubset(unsharded), loadBicepSchemas())).toEqual([]);
    // The check sees the vector properties: a wrong distance function, a missing dimension count.
    const wrong = unsharded
      .replace("distanceFunction: 'cosine'", "distanceFunction: 'manhattan'")
      .replace(/\n\s*dimensions: 1536/, "");
    expect(bicepFileProblems(parseBicepSubset(wrong), loadBicepSchemas())).toEqual([
      "resource container0.properties.resource.vectorEmbeddingPolicy.vectorEmbeddings[0].distanceFunction: 'manhattan' is not one of cosine, dotproduct, euclidean",
      "resource container0.properties.resource.vectorEmbeddingPolicy.vectorEmbeddings[0].dimensions: required, missing",
    ]);
  });

  it("Bicep: a full-text policy, its index and capability, on the API version that has fullTextPolicy", () => {
    const bicep = renderBicep(model(true));
    expect(bicep).toContain(`containers@${FULL_TEXT_API_VERSION}'`);
    expect(bicep).toMatch(/name: 'EnableNoSQLVectorSearch'\s*\}\s*\{\s*name: 'EnableNoSQLFullTextSearch'/);
    expect(bicep).toMatch(
      /fullTextPolicy: \{\s*defaultLanguage: 'en-US'\s*fullTextPaths: \[\s*\{\s*path: '\/content'\s*language: 'en-US'/,
    );
    expect(bicep).toMatch(/fullTextIndexes: \[\s*\{\s*path: '\/content'/);
    expect(bicepFileProblems(parseBicepSubset(bicep), loadBicepSchemas())).toEqual([]);
    // Why not an older version: neither 2024-11-15 nor 2024-12-01-preview (the version of
    // Microsoft's full-text samples) has any of the three properties this container needs.
    for (const older of ["2024-11-15", "2024-12-01-preview"]) {
      const onOlder = bicep.replace(`containers@${FULL_TEXT_API_VERSION}'`, `containers@${older}'`);
      expect(bicepFileProblems(parseBicepSubset(onOlder), loadBicepSchemas()), older).toEqual([
        "resource container0.properties.resource.indexingPolicy.vectorIndexes[0].vectorIndexShardKey: not a property of VectorIndex",
        "resource container0.properties.resource.indexingPolicy.fullTextIndexes: not a property of IndexingPolicy",
        "resource container0.properties.resource.fullTextPolicy: not a property of SqlContainerResource",
      ]);
    }
  });

  it("a resource on an API version without an extract is a problem", () => {
    const bicep = renderBicep(model(false, false)).replace(
      "'Microsoft.DocumentDB/databaseAccounts@2024-11-15'",
      "'Microsoft.DocumentDB/databaseAccounts@2023-04-15'",
    );
    expect(bicepFileProblems(parseBicepSubset(bicep), loadBicepSchemas())).toEqual([
      "resource account: Microsoft.DocumentDB/databaseAccounts@2023-04-15: no extract of API version 2023-04-15",
    ]);
  });

  it("the script: capabilities on the account, the container through az rest with its whole definition", () => {
    const cli = renderAzureCli(model(true));
    expect(cli).toContain("--capabilities EnableNoSQLVectorSearch EnableNoSQLFullTextSearch");
    expect(cli).toContain("az rest --method put");
    expect(cli).toContain(`api-version=${FULL_TEXT_API_VERSION}`);
    expect(cli).toContain('"vectorEmbeddingPolicy":{"vectorEmbeddings":[{"path":"/embedding"');
    expect(cli).toContain('"fullTextPolicy":{"defaultLanguage":"en-US"');
    expect(cli).not.toContain("az cosmosdb sql container create");
    // The body the script sends, against the extract of the API version in its URL: full text
    // and a shard key on 2025-10-15, vectors alone on 2024-11-15.
    for (const [m, version] of [
      [model(true), FULL_TEXT_API_VERSION],
      [model(false), FULL_TEXT_API_VERSION],
      [model(false, false), "2024-11-15"],
    ] as const) {
      const script = renderAzureCli(m);
      const url = /containers\/"'([^?']+)\?api-version=([^']+)'/.exec(script);
      const body = /--body '([^']*)'$/m.exec(script)?.[1];
      expect(url?.[2]).toBe(version);
      expect(
        restBodyProblems(
          `Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@${version}`,
          url?.[1] ?? "",
          JSON.parse(body ?? "null"),
          loadBicepSchemas(),
        ),
      ).toEqual([]);
    }
    // The same check finds what an older version lacks.
    const fullText = /--body '([^']*)'$/m.exec(renderAzureCli(model(true)))?.[1];
    const container = "Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@2024-11-15";
    expect(restBodyProblems(container, "chunks", JSON.parse(fullText ?? "null"), loadBicepSchemas())).toEqual(
      [
        `PUT ${container} chunks.properties.resource.indexingPolicy.vectorIndexes[0].vectorIndexShardKey: not a property of VectorIndex`,
        `PUT ${container} chunks.properties.resource.indexingPolicy.fullTextIndexes: not a property of IndexingPolicy`,
        `PUT ${container} chunks.properties.resource.fullTextPolicy: not a property of SqlContainerResource`,
      ],
    );
  });

  it("Terraform: the capabilities, and no container without its policies (azurerm has no arguments for them)", async () => {
    const tf = renderTerraform(model(true));
    expect(tf).toMatch(/capabilities \{\s*name = "EnableNoSQLVectorSearch"\s*\}/);
    expect(tf).toMatch(/capabilities \{\s*name = "EnableNoSQLFullTextSearch"\s*\}/);
    expect(tf).not.toContain('resource "azurerm_cosmosdb_sql_container"');
    expect(tf).toContain("# Container chunks: not created here.");
    expect(terraformProblems(await parseTerraform(tf), loadAzurermSchema())).toEqual([]);
  });
});
