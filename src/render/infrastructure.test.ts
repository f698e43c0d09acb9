import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ContainerDefinition, PartitionKeyKind } from "@azure/cosmos";
import { describe, expect, it } from "vitest";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { readExample } from "../test-support/model-examples.js";
import { renderModelArtifacts } from "./artifacts.js";
import { renderAzureCli, shellQuote } from "./azure-cli.js";
import { bicepString, renderBicep } from "./bicep.js";
import { renderDiagram, mermaidText } from "./diagram.js";
import {
  planInfrastructure,
  renderContainerDefinitions,
  type ContainerDefinitionData,
} from "./infrastructure.js";
import { hclString, renderTerraform } from "./terraform.js";

function model(text: string): Model {
  const loaded = loadModel(text, { file: "model.yaml" });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return loaded.value;
}
function example(name: string): Model {
  return model(readExample(`${name}/expert-model.yaml`));
}
function definitions(m: Model): ContainerDefinitionData[] {
  return JSON.parse(renderContainerDefinitions(m)) as ContainerDefinitionData[];
}
/** The same data typed as the SDK's ContainerDefinition (kind is a string enum there). */
function asSdk(d: ContainerDefinitionData): ContainerDefinition {
  return {
    ...d,
    partitionKey: {
      ...d.partitionKey,
      paths: [...d.partitionKey.paths],
      kind: d.partitionKey.kind as PartitionKeyKind,
    },
  } as ContainerDefinition;
}

const twoLevel = `
version: 1
containers:
  - name: orders
    partitionKey: [/tenantId, /customerId]
    throughput: { mode: autoscale, maxRus: 4000 }
    uniqueKeys: [[/orderNumber]]
    indexing: automatic
    items:
      - { type: order, entity: Order, id: "{orderId}", partitionKey: ["{tenantId}", "{customerId}"] }
  - name: tenants
    partitionKey: [/tenantId]
    throughput: { mode: manual, rus: 800 }
    indexing: automatic
    items:
      - { type: tenant, entity: Tenant, id: "{tenantId}", partitionKey: ["{tenantId}"] }
`;

describe("container definitions", () => {
  it("use Hash with version 2 for the single-path keys of the social reactions model", () => {
    const defs = definitions(example("social-reactions"));
    // The model's containers, then its lease container (leases: leases), partitioned by /id.
    expect(defs.map((d) => d.id)).toEqual(["reactions", "posts", "users", "leases"]);
    expect(defs[3]?.partitionKey.paths).toEqual(["/id"]);
    for (const d of defs) expect(d.partitionKey).toMatchObject({ kind: "Hash", version: 2 });
    expect(defs[0]?.partitionKey.paths).toEqual(["/postShard"]);
    expect(defs[0]?.defaultTtl).toBe(-1);
    expect(asSdk(defs[0] as ContainerDefinitionData).id).toBe("reactions");
  });

  it("use MultiHash version 2 for hierarchical keys of 2 and 3 paths", () => {
    const [activity] = definitions(example("multitenant-saas"));
    expect(activity?.partitionKey).toEqual({
      paths: ["/tenantId", "/userId", "/sessionId"],
      kind: "MultiHash",
      version: 2,
    });
    const [orders, tenants] = definitions(model(twoLevel));
    expect(orders?.partitionKey).toEqual({
      paths: ["/tenantId", "/customerId"],
      kind: "MultiHash",
      version: 2,
    });
    expect(orders?.uniqueKeyPolicy).toEqual({ uniqueKeys: [{ paths: ["/orderNumber"] }] });
    expect(tenants?.partitionKey.kind).toBe("Hash");
  });

  it("carry the iot model's composite indexes and TTL", () => {
    const [telemetry, sites] = definitions(example("iot-telemetry"));
    expect(telemetry?.indexingPolicy.compositeIndexes).toEqual([
      [
        { path: "/deviceId", order: "ascending" },
        { path: "/timestamp", order: "descending" },
      ],
    ]);
    expect(telemetry?.defaultTtl).toBe(2592000);
    expect(sites?.indexingPolicy.compositeIndexes?.[0]?.map((p) => p.path)).toEqual([
      "/type",
      "/status",
      "/raisedAt",
    ]);
  });

  it("use a given derived policy, else fall back to automatic and say so", () => {
    const derived = model(`
version: 1
containers:
  - name: c
    partitionKey: [/k]
    items: [{ type: t, entity: E, id: "{k}", partitionKey: ["{k}"] }]
`);
    expect(derived.containers[0]?.indexing.kind).toBe("derived");
    const fallback = planInfrastructure(derived);
    expect(fallback.containers[0]?.definition.indexingPolicy.includedPaths).toEqual([{ path: "/*" }]);
    expect(fallback.containers[0]?.notes.join(" ")).toMatch(/automatic policy/);
    expect(renderBicep(derived)).toMatch(/\/\/ Note: Indexing is derived .* automatic policy/);
    const policy = {
      indexingMode: "consistent" as const,
      automatic: true,
      includedPaths: [{ path: "/k/?" }],
      excludedPaths: [{ path: "/*" }],
    };
    const given = planInfrastructure(derived, { derivedIndexing: { c: policy } });
    expect(given.containers[0]?.definition.indexingPolicy).toEqual(policy);
    expect(given.containers[0]?.notes.join(" ")).not.toMatch(/automatic policy/);
  });
});

describe("Bicep and Terraform", () => {
  it("contain the composite indexes of the iot model", () => {
    const iot = example("iot-telemetry");
    const bicep = renderBicep(iot);
    expect(bicep).toMatch(
      /compositeIndexes: \[\s*\[\s*\{\s*path: '\/deviceId'\s*order: 'ascending'\s*\}\s*\{\s*path: '\/timestamp'\s*order: 'descending'\s*\}\s*\]\s*\]/,
    );
    expect(bicep).toContain("defaultTtl: 2592000");
    const tf = renderTerraform(iot);
    expect(tf).toMatch(
      /composite_index \{\s*index \{\s*path {2}= "\/deviceId"\s*order = "ascending"\s*\}\s*index \{\s*path {2}= "\/timestamp"\s*order = "descending"\s*\}\s*\}/,
    );
    expect(tf).toMatch(/composite_index \{\s*index \{\s*path {2}= "\/type"/);
    expect(tf).toContain("default_ttl           = 2592000");
  });

  it("write hierarchical keys as MultiHash version 2 and the throughput modes", () => {
    const m = model(twoLevel);
    const bicep = renderBicep(m);
    expect(bicep).toMatch(/paths: \[\s*'\/tenantId'\s*'\/customerId'\s*\]\s*kind: 'MultiHash'\s*version: 2/);
    expect(bicep).toMatch(/options: \{\s*autoscaleSettings: \{\s*maxThroughput: 4000\s*\}/);
    expect(bicep).toMatch(/options: \{\s*throughput: 800\s*\}/);
    expect(bicep).toMatch(/uniqueKeys: \[\s*\{\s*paths: \[\s*'\/orderNumber'/);
    const tf = renderTerraform(m);
    expect(tf).toContain('partition_key_paths   = ["/tenantId", "/customerId"]');
    expect(tf).toContain('partition_key_kind    = "MultiHash"');
    expect(tf).toContain("partition_key_version = 2");
    expect(tf).toMatch(/autoscale_settings \{\s*max_throughput = 4000\s*\}/);
    expect(tf).toContain("throughput = 800");
    expect(tf).toMatch(/unique_key \{\s*paths = \["\/orderNumber"\]/);
    const cli = renderAzureCli(m);
    expect(cli).toContain("az rest --method put");
    expect(cli).toContain('"kind":"MultiHash","version":2');
    expect(cli).toContain('"autoscaleSettings":{"maxThroughput":4000}');
    expect(cli).toContain("--throughput 800");
  });

  it("make a serverless account with no throughput anywhere", () => {
    const m = model(twoLevel.replace("{ mode: autoscale, maxRus: 4000 }", "{ mode: serverless }"));
    const plan = planInfrastructure(m);
    expect(plan.serverless).toBe(true);
    expect(plan.notes.join(" ")).toMatch(/ignored/);
    const code = (text: string, comment: string): string =>
      text
        .split("\n")
        .filter((l) => !l.startsWith(comment))
        .join("\n");
    const bicep = renderBicep(m);
    expect(bicep).toMatch(/capabilities: \[\s*\{\s*name: 'EnableServerless'/);
    // Settings only: comments and parameter descriptions may name throughput.
    expect(code(code(bicep, "//"), "@description")).not.toMatch(/throughput/i);
    const tf = renderTerraform(m);
    expect(tf).toMatch(/capabilities \{\s*name = "EnableServerless"/);
    expect(tf).not.toMatch(/^\s*(throughput|autoscale_settings)/m);
    const cli = renderAzureCli(m);
    expect(cli).toContain("--capabilities EnableServerless");
    expect(code(cli, "#")).not.toMatch(/--(max-)?throughput|"options":\{"/);
  });

  it("put shared throughput on the database, and let evaluation numbers win over the model", () => {
    const m = model(twoLevel.replace("{ mode: manual, rus: 800 }", "{ mode: shared }"));
    const plan = planInfrastructure(m, { databaseThroughput: { mode: "autoscale", maxRus: 6000 } });
    expect(plan.databaseThroughput).toEqual({ kind: "autoscale", maxRus: 6000 });
    expect(plan.containers[1]?.throughput).toBeUndefined();
    const tf = renderTerraform(m, { databaseThroughput: { mode: "autoscale", maxRus: 6000 } });
    expect(tf).toMatch(
      /resource "azurerm_cosmosdb_sql_database" "database" \{[^}]*autoscale_settings \{\s*max_throughput = 6000/,
    );
    const overridden = planInfrastructure(model(twoLevel), {
      throughputByContainer: { orders: { mode: "manual", rus: 12000 } },
    });
    expect(overridden.containers[0]?.throughput).toEqual({ kind: "manual", rus: 12000 });
  });

  it("list the workload's regions and multi-region writes", () => {
    const m = model(twoLevel);
    const scale = {
      regions: 3,
      regionNames: ["westeurope", "northeurope", "eastus"],
      multiRegionWrites: true,
      consistency: "bounded" as const,
    };
    const bicep = renderBicep(m, { scale });
    expect(bicep).toContain("param location string = 'westeurope'");
    expect(bicep).toMatch(/param additionalLocations array = \[\s*'northeurope'\s*'eastus'\s*\]/);
    expect(bicep).toContain("enableMultipleWriteLocations: true");
    expect(bicep).toContain("defaultConsistencyLevel: 'BoundedStaleness'");
    const tf = renderTerraform(m, { scale });
    expect(tf).toContain('default     = ["northeurope", "eastus"]');
    expect(tf).toMatch(/multiple_write_locations_enabled\s+= true/);
    expect(renderAzureCli(m, { scale })).toContain("ADDITIONAL_LOCATIONS=('northeurope' 'eastus')");
  });
});

const EVIL = 'x\'; rm -rf / #\n${evil} %{if} "q" `cmd` $(id) \\ end';

describe("escaping of names in every language", () => {
  // Built directly: the model loader rejects such names, the renderers must not rely on it.
  const plain = model(`
version: 1
containers:
  - name: plain
    partitionKey: [/k]
    indexing: automatic
    items: [{ type: t, entity: E, id: "{k}", partitionKey: ["{k}"] }]
`);
  const container = plain.containers[0];
  if (!container) throw new Error("no container");
  const evilModel: Model = {
    ...plain,
    containers: [{ ...container, name: EVIL, partitionKey: ["/k'\"${x}"] }],
  };

  it("round-trips through a Bicep string literal", () => {
    // Decoder of Bicep's escapes (\\ \' \n \r \t \$ \u{x}).
    const decode = (literal: string): string =>
      literal
        .slice(1, -1)
        .replace(/\\(u\{[0-9a-f]+\}|.)/g, (_, c: string) =>
          c.startsWith("u{")
            ? String.fromCharCode(parseInt(c.slice(2, -1), 16))
            : (({ n: "\n", r: "\r", t: "\t" } as Record<string, string>)[c] ?? c),
        );
    expect(decode(bicepString(EVIL))).toBe(EVIL);
    expect(bicepString(EVIL)).not.toMatch(/(?<!\\)\$\{/);
    const bicep = renderBicep(evilModel);
    // The name never ends a comment line early: no line starts with the text after the newline.
    expect(bicep.split("\n").some((l) => l.startsWith("${evil}"))).toBe(false);
    expect(bicep).toContain(`name: ${bicepString(EVIL)}`);
  });

  it("round-trips through an HCL string literal and stays valid HCL", () => {
    const literal = hclString(EVIL);
    expect(literal).toContain("$${evil}");
    expect(literal).toContain("%%{if}");
    const tf = renderTerraform(evilModel);
    expect(tf.split("\n").some((l) => l.startsWith("${evil}"))).toBe(false);
    const terraform = spawnSync("terraform", ["version"], { encoding: "utf8" });
    if (terraform.status === 0) {
      const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-tf-"));
      writeFileSync(join(dir, "main.tf"), tf);
      // fmt parses the file: a broken string or block fails it.
      const fmt = spawnSync("terraform", [`-chdir=${dir}`, "fmt", "-check"], { encoding: "utf8" });
      expect(fmt.status, fmt.stderr).toBe(0);
    }
  });

  it("passes names to the shell as single words", () => {
    for (const value of [EVIL, "", "'", "a'b'c"]) {
      expect(execFileSync("bash", ["-c", `printf %s ${shellQuote(value)}`], { encoding: "utf8" })).toBe(
        value,
      );
    }
    const script = renderAzureCli(evilModel);
    const check = spawnSync("bash", ["-n"], { input: script, encoding: "utf8" });
    expect(check.status, check.stderr).toBe(0);
    // Run the script with a stand-in `az` that records its arguments.
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-cli-"));
    const log = join(dir, "az.log");
    writeFileSync(
      join(dir, "az"),
      `#!/usr/bin/env bash\nfor a in "$@"; do printf '%s\\0' "$a"; done >> ${shellQuote(log)}\nprintf '\\n\\0' >> ${shellQuote(log)}\n`,
      { mode: 0o755 },
    );
    writeFileSync(join(dir, "create.sh"), script);
    const run = spawnSync("bash", [join(dir, "create.sh")], {
      encoding: "utf8",
      env: {
        PATH: `${dir}:${process.env["PATH"] ?? ""}`,
        RESOURCE_GROUP: "rg",
        ACCOUNT_NAME: "acct",
        LOCATION: "westeurope",
      },
    });
    expect(run.status, run.stderr).toBe(0);
    const calls = readFileSync(log, "utf8")
      .split("\n\0")
      .filter((c) => c !== "")
      .map((c) => c.split("\0").filter((a) => a !== ""));
    const create = calls.find((c) => c.slice(0, 4).join(" ") === "cosmosdb sql container create");
    expect(create?.[create.indexOf("--name") + 1]).toBe(EVIL);
    expect(create?.[create.indexOf("--partition-key-path") + 1]).toBe("/k'\"${x}");
    expect(calls.find((c) => c[0] === "cosmosdb" && c[1] === "create")).toContain("regionName=westeurope");
  });

  it("keeps the container definitions JSON exact", () => {
    const [d] = definitions(evilModel);
    expect(d?.id).toBe(EVIL);
    expect(d?.partitionKey.paths).toEqual(["/k'\"${x}"]);
  });

  it("escapes Mermaid labels", () => {
    expect(mermaidText('a "b" <script>|`#')).toBe("a #quot;b#quot; #lt;script#gt;#124;#96;#35;");
    const diagram = renderDiagram(evilModel);
    expect(diagram).not.toContain("<script");
    expect(
      diagram.split("\n").every((l) => l === "" || l.startsWith("flowchart") || l.startsWith("  ")),
    ).toBe(true);
  });
});

describe("diagram", () => {
  it("draws change-feed copies, copied attributes and counters of the blogging model", () => {
    const diagram = renderDiagram(example("blogging"));
    expect(diagram).toMatch(/^flowchart LR/);
    expect(diagram.match(/subgraph /g)).toHaveLength(3);
    // posts/post is copied into users and feed by change feed.
    expect(diagram).toContain('c1_t0 -.->|"change feed copy"| c0_t1');
    expect(diagram).toContain('c1_t0 -.->|"change feed copy"| c2_t0');
    expect(diagram).toContain('c1_t1 -->|"count as commentCount"| c1_t0');
    expect(diagram).toContain('c0_t0 -->|"copy User.username as userUsername"| c1_t0');
  });
});

describe("renderModelArtifacts", () => {
  it("lists every artifact once, the script executable", () => {
    const files = renderModelArtifacts(example("ecommerce"));
    expect(files.map((f) => f.path)).toEqual([
      "containers.json",
      "infra/main.bicep",
      "infra/main.tf",
      "infra/create-containers.sh",
      "diagram.mmd",
    ]);
    expect(files.filter((f) => f.executable).map((f) => f.path)).toEqual(["infra/create-containers.sh"]);
    // Four containers and the change-feed processors' lease container.
    expect(JSON.parse(files[0]?.content ?? "")).toHaveLength(5);
  });
});

describe("throughput the management API cannot hold", () => {
  it("is capped at its largest value in the setting's steps, with a note, in every template", () => {
    const text = [
      "version: 1",
      "containers:",
      '  - { name: big, partitionKey: [/k], items: [{ type: t, entity: E, id: "{k}", partitionKey: ["{k}"] }] }',
      "",
    ].join("\n");
    const m = model(text);
    const plan = planInfrastructure(m, {
      throughputByContainer: { big: { mode: "autoscale", maxRus: 295_032_630_000 } },
    });
    expect(plan.containers[0]?.throughput).toEqual({ kind: "autoscale", maxRus: 2_147_483_000 });
    expect(plan.containers[0]?.notes.join(" ")).toContain("capped at 2,147,483,000 RU/s");
    const manual = planInfrastructure(m, { throughputByContainer: { big: { mode: "manual", rus: 3e9 } } });
    expect(manual.containers[0]?.throughput).toEqual({ kind: "manual", rus: 2_147_483_600 });
    const bicep = renderBicep(m, { throughputByContainer: { big: { mode: "manual", rus: 3e9 } } });
    expect(bicep).toContain("throughput: 2147483600");
    expect(bicep).not.toContain("3000000000");
  });
});

describe("the lease container of the change-feed processors", () => {
  it("is created by every template, partitioned by /id at the minimum throughput, and only when the model names it", () => {
    const model = example("blogging");
    expect(model.leases).toBe("leases");
    const files = renderModelArtifacts(model);
    const text = (path: string): string => files.find((f) => f.path === path)?.content ?? "";
    expect(text("infra/main.bicep")).toContain("leases");
    expect(text("infra/main.tf")).toContain("leases");
    expect(text("infra/create-containers.sh")).toMatch(/leases[\s\S]*\/id/);
    const { leases: _leases, ...unleased } = model;
    const withoutLeases = renderModelArtifacts(unleased);
    const ids = (JSON.parse(withoutLeases[0]?.content ?? "[]") as { id: string }[]).map((d) => d.id);
    expect(ids).not.toContain("leases");
  });
});
