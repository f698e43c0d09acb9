/**
 * The integrated cache in the deliverables (issue 26): when the design puts a read behind a
 * dedicated gateway, the infrastructure creates the gateway and the generated code reads through
 * its endpoint with the read's staleness, and only that read does.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { designModel } from "../design/design-model.js";
import { loadWorkload } from "../workload/load-workload.js";
import { renderAzureCli } from "./azure-cli.js";
import { renderBicep } from "./bicep.js";
import { renderDataAccessModule } from "./code/render-data-access.js";
import { renderTerraform } from "./terraform.js";

const FIXTURES = new URL("../../test/fixtures/integrated-cache/", import.meta.url);

describe.each([
  ["leaderboard.yaml", 10],
  ["newsroom.yaml", 30],
])("%s: a cached read in the deliverables", (file, staleness) => {
  const loaded = loadWorkload(readFileSync(new URL(file, FIXTURES), "utf8"), { file });
  if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("; "));
  const workload = loaded.value;
  const result = designModel(workload);

  it("creates the gateway in the infrastructure and reads through it in the generated code", () => {
    const bicep = renderBicep(result.model);
    expect(bicep).toContain("'Microsoft.DocumentDB/databaseAccounts/services@2024-11-15'");
    expect(bicep).toContain("instanceCount: 3");
    expect(bicep).toContain("output dedicatedGatewayEndpoint string");
    expect(renderTerraform(result.model)).toContain(
      'resource "azurerm_cosmosdb_sql_dedicated_gateway" "gateway"',
    );
    expect(renderAzureCli(result.model)).toContain("az cosmosdb service create");
    const plans = result.evaluation.patterns.map((p) => p.plan);
    const code = renderDataAccessModule(workload, result.model, plans);
    expect(code).toContain(
      `const runtime = throughCache({ maxStalenessMs: ${staleness * 1000}, consistency: "Session" });`,
    );
    // Only the cached read goes through it.
    expect(code.match(/throughCache\(\{/g)).toHaveLength(1);
  });
});
