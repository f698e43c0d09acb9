/**
 * The infrastructure of a container with search policies (issue 31): Bicep with the vector
 * embedding policy, vector indexes and full-text policy and the account capabilities (checked
 * against the Microsoft.DocumentDB extract of each resource's API version), the script creating
 * the container through the ARM REST API with the whole definition (its body checked against the
 * same extract), and Terraform, whose azurerm resource has no such arguments, creating it with
 * azapi's `azapi_resource` and the script's body (checked against the same extract).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
import { containersOfEveryOutput, INFRASTRUCTURE_FILES } from "../test-support/infrastructure-outputs.js";
import { renderModelArtifacts } from "./artifacts.js";
import { renderAzureCli } from "./azure-cli.js";
import { FULL_TEXT_API_VERSION, renderBicep } from "./bicep.js";
import { AZAPI_VERSION_CONSTRAINT, renderTerraform } from "./terraform.js";
import { CHUNK_ITEM } from "../test-support/search-fixtures.js";

/** The parts of a parsed `main.tf` these tests read. */
interface TerraformFile {
  readonly terraform: readonly { readonly required_providers: readonly Record<string, unknown>[] }[];
  readonly resource: {
    readonly azurerm_cosmosdb_sql_container?: Record<string, unknown>;
    readonly azapi_resource?: Record<
      string,
      readonly {
        readonly type: string;
        readonly name: string;
        readonly parent_id: string;
        readonly body: { readonly properties: { readonly resource: unknown; readonly options: unknown } };
      }[]
    >;
  };
}

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

  it("Terraform: the capabilities, and the container as an azapi_resource with the script's body", async () => {
    const tf = renderTerraform(model(true));
    expect(tf).toMatch(/capabilities \{\s*name = "EnableNoSQLVectorSearch"\s*\}/);
    expect(tf).toMatch(/capabilities \{\s*name = "EnableNoSQLFullTextSearch"\s*\}/);
    // Full text and a shard key on 2025-10-15, vectors alone on 2024-11-15, as in the script.
    for (const [m, version] of [
      [model(true), FULL_TEXT_API_VERSION],
      [model(false), FULL_TEXT_API_VERSION],
      [model(false, false), "2024-11-15"],
    ] as const) {
      const parsed = await parseTerraform(renderTerraform(m));
      const json = parsed as unknown as TerraformFile;
      expect(json.resource.azurerm_cosmosdb_sql_container).toBeUndefined();
      expect(json.terraform[0]?.required_providers[0]?.["azapi"]).toEqual({
        source: "Azure/azapi",
        version: AZAPI_VERSION_CONSTRAINT,
      });
      const resources = Object.values(json.resource.azapi_resource ?? {}).map((blocks) => blocks[0]);
      expect(resources).toHaveLength(1);
      const resource = resources[0];
      const type = `Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@${version}`;
      expect(resource?.type).toBe(type);
      expect(resource?.name).toBe("chunks");
      expect(resource?.parent_id).toBe("${azurerm_cosmosdb_sql_database.database.id}");
      // Two views of one container: what Terraform writes and what the script sends.
      const script = renderAzureCli(m);
      const scriptBody = JSON.parse(/--body '([^']*)'$/m.exec(script)?.[1] ?? "null") as {
        properties: { resource: unknown };
      };
      expect(resource?.body.properties.resource).toEqual(scriptBody.properties.resource);
      expect(resource?.body).toEqual(scriptBody);
      expect(resource?.body.properties.options).toEqual({ throughput: 400 });
      expect(restBodyProblems(type, "chunks", resource?.body, loadBicepSchemas())).toEqual([]);
      expect(terraformProblems(parsed, loadAzurermSchema())).toEqual([]);
    }
  });

  it("every output creates the search container, with the same key and RU/s", async () => {
    const outputs = await containersOfEveryOutput(renderModelArtifacts(model(true)));
    for (const file of INFRASTRUCTURE_FILES) {
      const expected = file === "containers.json" ? {} : { rus: 400 };
      expect(outputs[file], file).toEqual([{ id: "chunks", partitionKeyPaths: ["/tenantId"], ...expected }]);
    }
  });

  it("Terraform: azapi required only with a search container", async () => {
    const plain = model(false);
    const withoutSearch: Model = {
      ...plain,
      containers: plain.containers.map((c) => ({ ...c, search: { vectors: [], fullText: [] } })),
    };
    const tf = renderTerraform(withoutSearch);
    expect(tf).not.toContain("azapi");
    const parsed = await parseTerraform(tf);
    const json = parsed as unknown as TerraformFile;
    expect(Object.keys(json.resource.azurerm_cosmosdb_sql_container ?? {})).toEqual(["container_0"]);
    expect(terraformProblems(parsed, loadAzurermSchema())).toEqual([]);
  });

  it("Terraform: the check knows each resource's provider and finds a wrong azapi_resource", async () => {
    const tf = renderTerraform(model(true));
    const check = async (text: string) => terraformProblems(await parseTerraform(text), loadAzurermSchema());
    const container = "Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers";
    // An API version without full text: the body is checked against the extract `type` names.
    expect(
      await check(tf.replace(`${container}@${FULL_TEXT_API_VERSION}`, `${container}@2024-11-15`)),
    ).toEqual([
      `azapi_resource.container_0: PUT ${container}@2024-11-15 chunks.properties.resource.fullTextPolicy: not a property of SqlContainerResource`,
      `azapi_resource.container_0: PUT ${container}@2024-11-15 chunks.properties.resource.indexingPolicy.fullTextIndexes: not a property of IndexingPolicy`,
      `azapi_resource.container_0: PUT ${container}@2024-11-15 chunks.properties.resource.indexingPolicy.vectorIndexes[0].vectorIndexShardKey: not a property of VectorIndex`,
    ]);
    expect(
      await check(
        tf
          .replace('      source  = "Azure/azapi"', '      source  = "someone/azapi"')
          .replace(
            "parent_id = azurerm_cosmosdb_sql_database.database.id",
            "parent_id = azurerm_cosmosdb_account.account.id",
          )
          .replace(
            'resource "azurerm_cosmosdb_sql_role_assignment"',
            'resource "azurerm_cosmosdb_sql_nothing"',
          )
          .replace(
            'resource "azapi_resource" "container_0" {',
            'resource "azapi_resource" "container_0" {\n  location = "westeurope"',
          ) + 'resource "azapi_update_resource" "x" {\n}\n',
      ),
    ).toEqual([
      'azapi_resource.container_0: provider azapi not required with source "Azure/azapi"',
      "azapi_resource.container_0.location: not an argument this file's azapi_resource uses",
      'azapi_resource.container_0.parent_id: "${azurerm_cosmosdb_account.account.id}" is not the id of a azurerm_cosmosdb_sql_database of this file',
      "azapi_update_resource.x: resource type of neither azurerm nor azapi",
      "azurerm_cosmosdb_sql_nothing.data_contributor: resource type not in the extract",
    ]);
  });

  it("Terraform: terraform fmt accepts the azapi_resource as written (when terraform is installed)", () => {
    if (spawnSync("terraform", ["version"], { encoding: "utf8" }).status !== 0) return;
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-tf-"));
    writeFileSync(join(dir, "main.tf"), renderTerraform(model(true)));
    const fmt = spawnSync("terraform", [`-chdir=${dir}`, "fmt", "-check", "-diff"], { encoding: "utf8" });
    expect(fmt.status, fmt.stdout).toBe(0);
  });
});
