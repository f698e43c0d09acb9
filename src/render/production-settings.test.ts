import { describe, expect, it } from "vitest";
import { DATA_CONTRIBUTOR_ROLE_ID } from "../cosmos/account-settings.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { parseBicepSubset, type BicepNode } from "../test-support/bicep-subset.js";
import {
  bicepFileProblems,
  loadAzurermSchema,
  loadBicepSchemas,
  parseTerraform,
  terraformProblems,
} from "../test-support/iac-schemas.js";
import { EXAMPLE_NAMES, readExample, readExampleWorkload } from "../test-support/model-examples.js";
import {
  bashSyntaxErrors,
  shellcheckAvailable,
  runWithStubAz,
  shellcheckReport,
} from "../test-support/shell-checks.js";
import { renderAzureCli } from "./azure-cli.js";
import { renderBicep } from "./bicep.js";
import { planInfrastructure } from "./infrastructure.js";
import { productionSettingsOf, type IacOptions } from "./production-settings.js";
import { AZURERM_VERSION_CONSTRAINT, renderTerraform } from "./terraform.js";

function model(text: string): Model {
  const loaded = loadModel(text, { file: "model.yaml" });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return loaded.value;
}

const twoContainers = (orders: string, tenants: string): Model =>
  model(`
version: 1
containers:
  - name: orders
    partitionKey: [/tenantId, /customerId]
    throughput: ${orders}
    indexing: automatic
    items:
      - { type: order, entity: Order, id: "{orderId}", partitionKey: ["{tenantId}", "{customerId}"] }
  - name: tenants
    partitionKey: [/tenantId]
    throughput: ${tenants}
    indexing: automatic
    items:
      - { type: tenant, entity: Tenant, id: "{tenantId}", partitionKey: ["{tenantId}"] }
`);

const autoscale = "{ mode: autoscale, maxRus: 4000 }";
const manual = "{ mode: manual, rus: 800 }";
const PRINCIPAL = "11111111-2222-3333-4444-555555555555";

/** Every example's expert model with its workload's scale, and the account shapes beside them. */
const VARIANTS: readonly (readonly [string, Model, IacOptions])[] = [
  ...EXAMPLE_NAMES.map(
    (name) =>
      [
        `example ${name}`,
        model(readExample(`${name}/expert-model.yaml`)),
        { scale: readExampleWorkload(name).scale },
      ] as const,
  ),
  [
    "three regions, multi-region writes, bounded staleness",
    twoContainers(autoscale, manual),
    {
      scale: {
        regions: 3,
        regionNames: ["westeurope", "northeurope", "eastus"],
        multiRegionWrites: true,
        consistency: "bounded",
      },
    },
  ],
  ["serverless", twoContainers("{ mode: serverless }", "{ mode: serverless }"), {}],
  [
    "shared database throughput",
    twoContainers(autoscale, "{ mode: shared }"),
    { databaseThroughput: { mode: "autoscale", maxRus: 6000 } },
  ],
  [
    "all versions and deletes, principals, private network",
    twoContainers(autoscale, autoscale),
    {
      production: {
        changeFeedMode: "allVersionsAndDeletes",
        dataContributorPrincipalIds: [PRINCIPAL],
        publicNetworkAccess: "Disabled",
        backupPolicy: "Continuous30Days",
      },
    },
  ],
];

describe("the infrastructure conforms to the schemas Azure applies", () => {
  const azurerm = loadAzurermSchema();
  const documentdb = loadBicepSchemas();

  it.each(VARIANTS)(
    "Terraform of %s: every argument is in the azurerm 4.78 schema",
    async (_, m, options) => {
      expect(terraformProblems(await parseTerraform(renderTerraform(m, options)), azurerm)).toEqual([]);
    },
  );

  it.each(VARIANTS)("Bicep of %s: every property is in Microsoft.DocumentDB 2024-11-15", (_, m, options) => {
    expect(bicepFileProblems(parseBicepSubset(renderBicep(m, options)), documentdb)).toEqual([]);
  });

  it.each(VARIANTS)("the Azure CLI script of %s passes bash -n", (_, m, options) => {
    expect(bashSyntaxErrors(renderAzureCli(m, options))).toBe("");
  });

  it.skipIf(!shellcheckAvailable()).each(VARIANTS)(
    "the Azure CLI script of %s passes shellcheck (skipped when the shellcheck binary is missing: apt-get install shellcheck)",
    (_, m, options) => {
      expect(shellcheckReport(renderAzureCli(m, options))).toBe("");
    },
  );

  it("the checks find wrong arguments, types and values", async () => {
    const [, m, options] = VARIANTS[0] as (typeof VARIANTS)[number];
    const tf = renderTerraform(m, options)
      .replace(/minimal_tls_version\s+= "Tls12"/, 'minimal_tls_version = "Tls13"\n  backup_mode = "x"')
      .replace("zone_redundant    = var.zone_redundant", "zone_redundant    = var.backup_policy");
    expect(terraformProblems(await parseTerraform(tf), azurerm)).toEqual([
      "azurerm_cosmosdb_account.account.backup_mode: not an argument or block of the schema",
      "azurerm_cosmosdb_account.account.geo_location[0].zone_redundant: variable backup_policy is string, the schema wants bool",
      'azurerm_cosmosdb_account.account.minimal_tls_version: "Tls13" is not one of Tls, Tls11, Tls12',
    ]);
    const noSubscription = renderTerraform(m, options).replace("subscription_id = var.subscription_id", "");
    expect(await parseTerraform(noSubscription)).toBeDefined();
    const bicep = renderBicep(m, options)
      .replace("minimalTlsVersion: 'Tls12'", "minimalTlsVersion: 'Tls13'\n    backupMode: 'x'")
      .replace("isZoneRedundant: zoneRedundant", "isZoneRedundant: backupPolicy")
      .replace("version: 2", "version: 3");
    expect(bicepFileProblems(parseBicepSubset(bicep), documentdb)).toEqual(
      expect.arrayContaining([
        "resource account.properties.locations (var primaryLocations)[0].isZoneRedundant: param backupPolicy is string, the schema wants bool",
        "resource account.properties.minimalTlsVersion: 'Tls13' is not one of Tls, Tls11, Tls12",
        "resource account.properties.backupMode: not a property of DatabaseAccountProperties",
        "resource container0.properties.resource.partitionKey.version: 3 > 2",
      ]),
    );
  });
});

/** A parameter's default as written in each form. */
function bicepDefault(node: BicepNode | undefined): unknown {
  if (node === undefined) return undefined;
  if (node.kind === "string" || node.kind === "bool" || node.kind === "number") return node.value;
  if (node.kind === "array") return node.items.map(bicepDefault);
  return node.kind;
}

function cliDefaults(script: string): Record<string, string> {
  return Object.fromEntries(
    [...script.matchAll(/^([A-Z_]+)="\$\{\1:-([^}]*)\}"$/gm)].map((m) => [m[1] as string, m[2] as string]),
  );
}

describe("production settings", () => {
  it("default to continuous backup, keys off, TLS 1.2, failover on, and agree in the three forms", async () => {
    const m = twoContainers(autoscale, manual);
    const options: IacOptions = { production: { dataContributorPrincipalIds: [PRINCIPAL] } };
    const bicep = parseBicepSubset(renderBicep(m, options)).params;
    const tf = (await parseTerraform(renderTerraform(m, options)))["variable"] as Record<
      string,
      readonly { readonly default?: unknown }[]
    >;
    const cli = cliDefaults(renderAzureCli(m, options));
    const forms = {
      backup: [
        bicepDefault(bicep.get("backupPolicy")?.defaultValue),
        tf["backup_policy"]?.[0]?.default,
        cli["BACKUP_POLICY"],
      ],
      zones: [
        bicepDefault(bicep.get("zoneRedundant")?.defaultValue),
        tf["zone_redundant"]?.[0]?.default,
        cli["ZONE_REDUNDANT"],
      ],
      failover: [
        bicepDefault(bicep.get("automaticFailover")?.defaultValue),
        tf["automatic_failover"]?.[0]?.default,
        cli["AUTOMATIC_FAILOVER"],
      ],
      keysOff: [
        bicepDefault(bicep.get("disableLocalAuth")?.defaultValue),
        tf["disable_local_auth"]?.[0]?.default,
        cli["DISABLE_LOCAL_AUTH"],
      ],
      network: [
        bicepDefault(bicep.get("publicNetworkAccess")?.defaultValue),
        tf["public_network_access_enabled"]?.[0]?.default,
        cli["PUBLIC_NETWORK_ACCESS"],
      ],
      principals: [
        bicepDefault(bicep.get("dataContributorPrincipalIds")?.defaultValue),
        tf["data_contributor_principal_ids"]?.[0]?.default,
        cli["DATA_CONTRIBUTOR_PRINCIPAL_IDS"],
      ],
    };
    expect(forms).toEqual({
      backup: ["Continuous7Days", "Continuous7Days", "Continuous7Days"],
      // Manual throughput in one write region: the zone premium would not be in the evaluated bill.
      zones: [false, false, "false"],
      failover: [true, true, "true"],
      keysOff: [true, true, "true"],
      network: ["Enabled", true, "ENABLED"],
      principals: [[PRINCIPAL], [PRINCIPAL], PRINCIPAL],
    });
    expect(renderBicep(m, options)).toContain("minimalTlsVersion: 'Tls12'");
    expect(renderTerraform(m, options)).toMatch(/minimal_tls_version\s+= "Tls12"/);
    expect(renderAzureCli(m, options)).toContain("--minimal-tls-version Tls12");
  });

  it("turn zone redundancy on by default only where it costs nothing more", () => {
    const zones = (m: Model, options: IacOptions = {}) =>
      productionSettingsOf(planInfrastructure(m, options)).zoneRedundant;
    expect(zones(twoContainers(autoscale, autoscale))).toBe(true);
    expect(zones(twoContainers(autoscale, manual))).toBe(false);
    expect(
      zones(twoContainers(autoscale, manual), {
        scale: {
          regions: 2,
          regionNames: ["westeurope", "northeurope"],
          multiRegionWrites: true,
          consistency: "session",
        },
      }),
    ).toBe(true);
    expect(zones(twoContainers("{ mode: serverless }", "{ mode: serverless }"))).toBe(false);
    expect(
      zones(twoContainers(autoscale, "{ mode: shared }"), {
        databaseThroughput: { mode: "manual", rus: 400 },
      }),
    ).toBe(false);
    expect(
      productionSettingsOf(planInfrastructure(twoContainers(autoscale, manual)), { zoneRedundant: true }),
    ).toMatchObject({
      zoneRedundant: true,
      zoneRedundancyReason: "set to on",
    });
  });

  it("give Terraform's provider the subscription from a variable (azurerm 4.x requires one)", async () => {
    const json = await parseTerraform(renderTerraform(twoContainers(autoscale, manual)));
    expect(json["provider"]).toEqual({
      azurerm: [{ features: [{}], subscription_id: "${var.subscription_id}" }],
    });
    expect((json["variable"] as Record<string, unknown>)["subscription_id"]).toEqual([
      expect.objectContaining({ type: "${string}", default: null }),
    ]);
    expect(json["terraform"]).toEqual([
      {
        required_providers: [
          { azurerm: { source: "hashicorp/azurerm", version: AZURERM_VERSION_CONSTRAINT } },
        ],
      },
    ]);
  });

  it("require continuous backup for the all-versions-and-deletes change feed and say how to turn it on", () => {
    const m = twoContainers(autoscale, autoscale);
    const options: IacOptions = {
      production: { changeFeedMode: "allVersionsAndDeletes", backupPolicy: "Periodic" },
    };
    const bicep = renderBicep(m, options);
    expect(parseBicepSubset(bicep).params.get("backupPolicy")?.allowed?.map(bicepDefault)).toEqual([
      "Continuous7Days",
      "Continuous30Days",
    ]);
    expect(bicep).toContain("param backupPolicy string = 'Continuous7Days'");
    expect(bicep).toMatch(/^\/\/ After deployment: turn on the all-versions-and-deletes change feed/m);
    const tf = renderTerraform(m, options);
    expect(tf).toContain('contains(["Continuous7Days", "Continuous30Days"], var.backup_policy)');
    expect(tf).toMatch(/^# After deployment: turn on the all-versions-and-deletes change feed/m);
    const script = renderAzureCli(m, options);
    const refused = runWithStubAz(script, {
      RESOURCE_GROUP: "rg",
      ACCOUNT_NAME: "acct",
      LOCATION: "westeurope",
      BACKUP_POLICY: "Periodic",
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("BACKUP_POLICY must be one of Continuous7Days, Continuous30Days");
    expect(refused.calls).toEqual([]);
    const accountId =
      "/subscriptions/s/resourceGroups/rg/providers/Microsoft.DocumentDB/databaseAccounts/acct";
    const run = runWithStubAz(
      script,
      { RESOURCE_GROUP: "rg", ACCOUNT_NAME: "acct", LOCATION: "westeurope" },
      accountId,
    );
    expect(run.status, run.stderr).toBe(0);
    const last = run.calls.at(-1);
    expect(last?.slice(0, 3)).toEqual(["rest", "--method", "patch"]);
    expect(last).toContain(`https://management.azure.com${accountId}?api-version=2024-12-01-preview`);
    expect(last).toContain('{"properties":{"enableAllVersionsAndDeletesChangeFeed":true}}');
  });

  it("let the script's settings be overridden from the environment, checked before any change", () => {
    const script = renderAzureCli(twoContainers(autoscale, manual), {
      scale: {
        regions: 2,
        regionNames: ["westeurope", "northeurope"],
        multiRegionWrites: false,
        consistency: "session",
      },
    });
    const env = { RESOURCE_GROUP: "rg", ACCOUNT_NAME: "acct" };
    const bad = runWithStubAz(script, { ...env, ZONE_REDUNDANT: "yes" });
    expect([bad.status, bad.stderr.trim(), bad.calls]).toEqual([
      1,
      "ZONE_REDUNDANT must be true or false",
      [],
    ]);
    const accountId =
      "/subscriptions/s/resourceGroups/rg/providers/Microsoft.DocumentDB/databaseAccounts/acct";
    const run = runWithStubAz(
      script,
      {
        ...env,
        ZONE_REDUNDANT: "true",
        BACKUP_POLICY: "Periodic",
        DATA_CONTRIBUTOR_PRINCIPAL_IDS: `${PRINCIPAL} ${PRINCIPAL.replace("1", "9")}`,
      },
      accountId,
    );
    expect(run.status, run.stderr).toBe(0);
    const create = run.calls.find((c) => c[0] === "cosmosdb" && c[1] === "create") ?? [];
    expect(create.filter((a) => a.startsWith("isZoneRedundant="))).toEqual([
      "isZoneRedundant=True",
      "isZoneRedundant=True",
    ]);
    expect(create.join(" ")).toContain(
      "--backup-policy-type Periodic --enable-automatic-failover true --disable-local-auth true",
    );
    expect(create.join(" ")).toContain(
      "--disable-key-based-metadata-write-access true --minimal-tls-version Tls12",
    );
    const assignments = run.calls.filter(
      (c) => c.slice(0, 5).join(" ") === "cosmosdb sql role assignment create",
    );
    expect(assignments.map((c) => c[c.indexOf("--principal-id") + 1])).toEqual([
      PRINCIPAL,
      PRINCIPAL.replace("1", "9"),
    ]);
    for (const a of assignments) {
      expect(a[a.indexOf("--role-definition-id") + 1]).toBe(
        `${accountId}/sqlRoleDefinitions/${DATA_CONTRIBUTOR_ROLE_ID}`,
      );
      expect(a[a.indexOf("--scope") + 1]).toBe(accountId);
    }
    const defaults = runWithStubAz(script, env);
    const created = defaults.calls.find((c) => c[0] === "cosmosdb" && c[1] === "create")?.join(" ");
    expect(created).toContain("isZoneRedundant=False");
    expect(created).toContain("--backup-policy-type Continuous --continuous-tier Continuous7Days");
    expect(defaults.calls.some((c) => c[0] === "cosmosdb" && c[1] === "show")).toBe(false);
  });

  it("grant the data contributors in Bicep and Terraform with the built-in role", () => {
    const m = twoContainers(autoscale, manual);
    expect(renderBicep(m)).toContain(
      "resource dataContributors 'Microsoft.DocumentDB/databaseAccounts/sqlRoleAssignments@2024-11-15' = [for principalId in dataContributorPrincipalIds: {",
    );
    expect(renderBicep(m)).toContain(
      "roleDefinitionId: '${account.id}/sqlRoleDefinitions/${dataContributorRoleId}'",
    );
    expect(renderBicep(m)).toContain(`var dataContributorRoleId = '${DATA_CONTRIBUTOR_ROLE_ID}'`);
    expect(renderTerraform(m)).toContain(
      `role_definition_id  = "\${azurerm_cosmosdb_account.account.id}/sqlRoleDefinitions/${DATA_CONTRIBUTOR_ROLE_ID}"`,
    );
    expect(renderTerraform(m)).toContain("for_each            = toset(var.data_contributor_principal_ids)");
  });
});
