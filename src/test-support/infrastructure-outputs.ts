/**
 * Test support: the containers each infrastructure output creates, read back from the output
 * itself (never from the plan that rendered it): `containers.json` as JSON, `main.bicep` with the
 * Bicep subset parser, `main.tf` with `@cdktf/hcl2json` (azurerm containers and the search
 * containers' `azapi_resource`), and `create-containers.sh` run with a
 * stand-in `az` that records its calls. So a test can say "every output creates X with Y".
 */
import type { RenderedFile } from "../render/artifacts.js";
import { parseBicepSubset, type BicepNode } from "./bicep-subset.js";
import { parseTerraform } from "./iac-schemas.js";
import { runWithStubAz } from "./shell-checks.js";

/** What an output says about one container. */
export interface OutputContainer {
  readonly id: string;
  readonly partitionKeyPaths: readonly string[];
  readonly defaultTtl?: number;
  /** Manual RU/s or autoscale maximum RU/s, when the output provisions the container's own. */
  readonly rus?: number;
}

/** The infrastructure outputs, by file. */
export const INFRASTRUCTURE_FILES = [
  "containers.json",
  "infra/main.bicep",
  "infra/main.tf",
  "infra/create-containers.sh",
] as const;
export type InfrastructureFile = (typeof INFRASTRUCTURE_FILES)[number];

function fileText(files: readonly RenderedFile[], path: string): string {
  const file = files.find((f) => f.path === path);
  if (file === undefined) throw new Error(`no ${path} among ${files.map((f) => f.path).join(", ")}`);
  return file.content;
}

function definitionOf(raw: Record<string, unknown>, rus?: number): OutputContainer {
  const partitionKey = raw["partitionKey"] as { paths: string[] } | undefined;
  const ttl = raw["defaultTtl"];
  return {
    id: String(raw["id"]),
    partitionKeyPaths: partitionKey?.paths ?? [],
    ...(typeof ttl === "number" ? { defaultTtl: ttl } : {}),
    ...(rus === undefined ? {} : { rus }),
  };
}

/** A Bicep node as plain JSON (expressions as their text). */
function plain(node: BicepNode | undefined): unknown {
  if (node === undefined) return undefined;
  switch (node.kind) {
    case "string":
    case "number":
    case "bool":
      return node.value;
    case "expression":
      return node.text;
    case "array":
      return node.items.map(plain);
    case "object":
      return Object.fromEntries([...node.properties].map(([key, value]) => [key, plain(value)]));
    case "for":
      return { for: node.binding, in: node.source, body: plain(node.body) };
    default:
      return node satisfies never;
  }
}

function rusOfOptions(options: unknown): number | undefined {
  const o = (options ?? {}) as { throughput?: number; autoscaleSettings?: { maxThroughput?: number } };
  return o.throughput ?? o.autoscaleSettings?.maxThroughput;
}

function bicepContainers(text: string): OutputContainer[] {
  return parseBicepSubset(text)
    .resources.filter((r) =>
      r.typeAndVersion.startsWith("Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@"),
    )
    .map((r) => {
      const body = plain(r.body) as { properties: { resource: Record<string, unknown>; options?: unknown } };
      return definitionOf(body.properties.resource, rusOfOptions(body.properties.options));
    });
}

/** An `azapi_resource` as `@cdktf/hcl2json` reads it. */
interface AzapiResourceJson {
  readonly type?: string;
  readonly body?: {
    readonly properties: { readonly resource: Record<string, unknown>; readonly options?: unknown };
  };
}

async function terraformContainers(text: string): Promise<OutputContainer[]> {
  const json = (await parseTerraform(text)) as {
    resource?: {
      azurerm_cosmosdb_sql_container?: Record<string, Record<string, unknown>[]>;
      azapi_resource?: Record<string, AzapiResourceJson[]>;
    };
  };
  const azurerm = Object.values(json.resource?.azurerm_cosmosdb_sql_container ?? {}).flatMap((blocks) =>
    blocks.map((block) => {
      const autoscale = block["autoscale_settings"] as { max_throughput?: number }[] | undefined;
      const rus = (block["throughput"] as number | undefined) ?? autoscale?.[0]?.max_throughput;
      const ttl = block["default_ttl"];
      return {
        id: String(block["name"]),
        partitionKeyPaths: block["partition_key_paths"] as string[],
        ...(typeof ttl === "number" ? { defaultTtl: ttl } : {}),
        ...(rus === undefined ? {} : { rus }),
      };
    }),
  );
  // Search containers: azapi_resource with the ARM body (render/terraform.ts).
  const azapi = Object.values(json.resource?.azapi_resource ?? {})
    .flat()
    .flatMap((block) =>
      block.type?.startsWith("Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@") === true &&
      block.body !== undefined
        ? [definitionOf(block.body.properties.resource, rusOfOptions(block.body.properties.options))]
        : [],
    );
  return [...azurerm, ...azapi];
}

/** The value of `--flag` in a recorded `az` call. */
function flag(call: readonly string[], name: string): string | undefined {
  const at = call.indexOf(name);
  return at < 0 ? undefined : call[at + 1];
}

/** Environment that runs a generated script to its end with a stand-in `az`. */
export const SCRIPT_ENV: Readonly<Record<string, string>> = {
  RESOURCE_GROUP: "rg",
  ACCOUNT_NAME: "acct",
  LOCATION: "westeurope",
  SUBSCRIPTION_ID: "00000000-0000-0000-0000-000000000000",
};

/** The containers the script creates, from the `az` calls of a run with `env` (quota raised). */
export function scriptContainers(
  script: string,
  env: Readonly<Record<string, string>> = SCRIPT_ENV,
): OutputContainer[] {
  const run = runWithStubAz(
    script,
    env,
    "/subscriptions/s/resourceGroups/rg/providers/x/databaseAccounts/acct",
    // Throughput over the default maximum is what these tests read back too.
    ["--quota-increased"],
  );
  if (run.status !== 0) throw new Error(`the script failed (${String(run.status)}): ${run.stderr}`);
  return run.calls.flatMap((call): OutputContainer[] => {
    if (call.slice(0, 4).join(" ") === "cosmosdb sql container create") {
      const ttl = flag(call, "--ttl");
      const rus = flag(call, "--throughput") ?? flag(call, "--max-throughput");
      return [
        {
          id: flag(call, "--name") ?? "",
          partitionKeyPaths: [flag(call, "--partition-key-path") ?? ""],
          ...(ttl === undefined ? {} : { defaultTtl: Number(ttl) }),
          ...(rus === undefined ? {} : { rus: Number(rus) }),
        },
      ];
    }
    if (
      call[0] === "rest" &&
      flag(call, "--method") === "put" &&
      (flag(call, "--url") ?? "").includes("/containers/")
    ) {
      const body = JSON.parse(flag(call, "--body") ?? "{}") as {
        properties: { resource: Record<string, unknown>; options?: unknown };
      };
      return [definitionOf(body.properties.resource, rusOfOptions(body.properties.options))];
    }
    return [];
  });
}

/** The containers of every infrastructure output among `files` (the rendered artifacts). */
export async function containersOfEveryOutput(
  files: readonly RenderedFile[],
): Promise<Record<InfrastructureFile, OutputContainer[]>> {
  const json = JSON.parse(fileText(files, "containers.json")) as Record<string, unknown>[];
  return {
    "containers.json": json.map((raw) => definitionOf(raw)),
    "infra/main.bicep": bicepContainers(fileText(files, "infra/main.bicep")),
    "infra/main.tf": await terraformContainers(fileText(files, "infra/main.tf")),
    "infra/create-containers.sh": scriptContainers(fileText(files, "infra/create-containers.sh")),
  };
}
