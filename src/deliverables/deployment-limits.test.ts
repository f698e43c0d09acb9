/**
 * What a deployment needs besides the files, said where it is needed: throughput over the default
 * maximum RU/s per container (or shared database) is named in every template beside the
 * container, the script refuses to start without `--quota-increased`, and the evaluation and the
 * data model document name the container; the usage text of the script and the Terraform header
 * name exactly what must be given (checked by running the script with a stand-in `az`, and
 * against the variables Terraform declares without a default).
 */
import { describe, expect, it } from "vitest";
import { MAX_CONTAINER_RUS } from "../cosmos/limits.js";
import { evaluateModel } from "../cost/evaluate.js";
import type { Model } from "../model/types.js";
import type { RenderedFile } from "../render/artifacts.js";
import { renderAzureCli } from "../render/azure-cli.js";
import { planInfrastructure, type InfrastructureOptions } from "../render/infrastructure.js";
import { renderTerraform } from "../render/terraform.js";
import { parseBicepSubset } from "../test-support/bicep-subset.js";
import { loadExample, parseModel, parseWorkload } from "../test-support/evaluate-fixtures.js";
import {
  bicepFileProblems,
  loadAzurermSchema,
  loadBicepSchemas,
  parseTerraform,
  terraformProblems,
} from "../test-support/iac-schemas.js";
import { SCRIPT_ENV } from "../test-support/infrastructure-outputs.js";
import { EXAMPLE_NAMES } from "../test-support/model-examples.js";
import {
  bashSyntaxErrors,
  runWithStubAz,
  shellcheckAvailable,
  shellcheckReport,
} from "../test-support/shell-checks.js";
import { renderDeliverables } from "./render-deliverables.js";

const SHELLCHECK = shellcheckAvailable();

const BURST_WORKLOAD = `
version: 1
name: Telemetry burst
entities:
  Event:
    key: eventId
    count: 1000000
    avgBytes: 1000
    attributes:
      eventId: string
      deviceId: string
accessPatterns:
  - { id: C1, name: Record an event, type: write, operation: create, entity: Event, rps: { avg: 100000, peak: 250000 } }
  - { id: Q1, name: Get an event, type: read, entity: Event, where: { eventId: eq }, rps: { avg: 10, peak: 50 } }
`;

const BURST_MODEL = `
version: 1
containers:
  - name: events
    partitionKey: [/eventId]
    indexing: automatic
    items:
      - { type: event, entity: Event, id: "{eventId}", partitionKey: ["{eventId}"] }
`;

function text(files: readonly RenderedFile[], path: string): string {
  return files.find((f) => f.path === path)?.content ?? "";
}

/** The comment lines right above the line that starts `resource`'s declaration. */
function commentsAbove(source: string, declaration: string, comment: string): string {
  const lines = source.split("\n");
  const at = lines.findIndex((line) => line.startsWith(declaration));
  expect(at, declaration).toBeGreaterThan(0);
  let first = at;
  while (first > 0 && (lines[first - 1] ?? "").startsWith(comment)) first--;
  return lines.slice(first, at).join("\n");
}

/** A one-container model as the infrastructure tests write them. */
function oneContainer(name: string): Model {
  const workload = parseWorkload(BURST_WORKLOAD);
  return parseModel(BURST_MODEL.replace("name: events", `name: ${name}`), workload);
}

describe("throughput over the default maximum per container", () => {
  it("is named by the evaluation, the data model document and every template beside the container; the script refuses it without --quota-increased", async () => {
    const workload = parseWorkload(BURST_WORKLOAD);
    const model = parseModel(BURST_MODEL, workload);
    const evaluation = evaluateModel(workload, model);
    const rus = evaluation.containers.find((c) => c.name === "events")?.throughput.provisionedRus ?? 0;
    expect(rus).toBeGreaterThan(MAX_CONTAINER_RUS);
    expect(evaluation.issues.find((i) => i.code === "evaluate.overContainerMaximum")).toMatchObject({
      containers: ["events"],
      maximum: MAX_CONTAINER_RUS,
    });
    const files = await renderDeliverables(workload, model, evaluation);
    const document = text(files, "cosmosdb_data_model.md");
    expect(document).toMatch(
      /events needs [\d,]+ RU\/s, over the default maximum of 1,000,000 RU\/s per container/,
    );
    expect(document).toContain("support ticket");

    const bicep = text(files, "infra/main.bicep");
    const terraform = text(files, "infra/main.tf");
    const script = text(files, "infra/create-containers.sh");
    const formatted = rus.toLocaleString("en-US");
    for (const [source, declaration, comment] of [
      [bicep, "resource container0 ", "//"],
      [terraform, 'resource "azurerm_cosmosdb_sql_container" "container_0"', "#"],
      [script, "az cosmosdb sql container create", "#"],
    ] as const) {
      const above = commentsAbove(source, declaration, comment);
      expect(above).toContain("Container events");
      expect(above).toContain(
        `Quota increase needed: ${formatted} RU/s is over the default maximum of 1,000,000 RU/s per container`,
      );
      // And in the header, before anything is deployed.
      expect(source.split("\n").slice(0, 8).join("\n")).toContain(
        "Quota increase needed before deploying: container events",
      );
    }
    expect(terraformProblems(await parseTerraform(terraform), loadAzurermSchema())).toEqual([]);
    expect(bicepFileProblems(parseBicepSubset(bicep), loadBicepSchemas())).toEqual([]);
    expect(bashSyntaxErrors(script)).toBe("");
    if (SHELLCHECK) expect(shellcheckReport(script)).toBe("");

    expect(script).toContain("./create-containers.sh [--quota-increased]");
    const refused = runWithStubAz(script, SCRIPT_ENV);
    expect(refused.status).toBe(1);
    expect(refused.calls).toEqual([]);
    expect(refused.stderr).toContain("container events");
    expect(refused.stderr).toContain("--quota-increased");
    const unknown = runWithStubAz(script, SCRIPT_ENV, "", ["--quota"]);
    expect(unknown.status).toBe(2);
    expect(unknown.calls).toEqual([]);
    for (const run of [
      runWithStubAz(script, SCRIPT_ENV, "", ["--quota-increased"]),
      runWithStubAz(script, { ...SCRIPT_ENV, QUOTA_INCREASED: "true" }),
    ]) {
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      const create = run.calls.find((call) => call.slice(0, 4).join(" ") === "cosmosdb sql container create");
      expect(create?.join(" ")).toMatch(new RegExp(`--name events .*--(max-)?throughput ${rus}`));
    }
  });

  it("is nothing at the default maximum itself, and a shared database over it is named too", () => {
    const model = oneContainer("events");
    const at: InfrastructureOptions = {
      throughputByContainer: { events: { mode: "manual", rus: MAX_CONTAINER_RUS } },
    };
    expect(planInfrastructure(model, at).quotaIncreases).toEqual([]);
    const script = renderAzureCli(model, at);
    expect(script).not.toContain("QUOTA_INCREASED");
    expect(script).not.toContain("Quota increase");

    const shared: InfrastructureOptions = {
      throughputByContainer: { events: { mode: "shared" } },
      databaseThroughput: { mode: "autoscale", maxRus: 2_000_000 },
    };
    expect(planInfrastructure(model, shared).quotaIncreases).toEqual([
      { kind: "database", name: "appdb", rus: 2_000_000, maximum: MAX_CONTAINER_RUS },
    ]);
    const sharedScript = renderAzureCli(model, shared);
    expect(sharedScript).toContain(
      "database appdb (2,000,000 RU/s, over the default maximum of 1,000,000 RU/s per database)",
    );
    expect(runWithStubAz(sharedScript, SCRIPT_ENV).status).toBe(1);
    expect(renderTerraform(model, shared)).toContain(
      "Quota increase needed before deploying: database appdb",
    );
  });
});

/** The `NAME=<value>` words of a usage line, required (bare) or optional (in brackets). */
function usageVariables(usage: string): { required: string[]; optional: string[] } {
  const required = [...usage.matchAll(/(?<!\[)\b([A-Z_]+)=<[^>]+>(?!\])/g)].map((m) => m[1] ?? "");
  const optional = [...usage.matchAll(/\[([A-Z_]+)=<[^>]+>\]/g)].map((m) => m[1] ?? "");
  return { required, optional };
}

describe("the usage text names exactly what must be given", () => {
  const models: readonly (readonly [string, () => { model: Model; options: InfrastructureOptions }])[] = [
    ...EXAMPLE_NAMES.map(
      (name) =>
        [
          name,
          () => {
            const { workload, model } = loadExample(name);
            return { model, options: { scale: workload.scale } };
          },
        ] as const,
    ),
    [
      "a workload naming its regions",
      () => ({
        model: oneContainer("events"),
        options: {
          scale: {
            regions: 2,
            multiRegionWrites: false,
            consistency: "session",
            regionNames: ["westeurope", "northeurope"],
          },
        },
      }),
    ],
    ["a workload naming no region", () => ({ model: oneContainer("events"), options: {} })],
  ];

  it.each(models)(
    "%s: the script runs with the required variables alone, and stops without any of them",
    (_label, load) => {
      const { model, options } = load();
      const script = renderAzureCli(model, options);
      const usage = /^# Generated by cosmos-modeler\. Usage: (.*)$/m.exec(script)?.[1] ?? "";
      const { required, optional } = usageVariables(usage);
      expect(required.slice(0, 2)).toEqual(["RESOURCE_GROUP", "ACCOUNT_NAME"]);
      const named = planInfrastructure(model, options).primaryRegion !== undefined;
      expect(named ? optional : required).toContain("LOCATION");
      const env = Object.fromEntries(required.map((name) => [name, SCRIPT_ENV[name] ?? "x"]));
      // SUBSCRIPTION_ID falls back to `az account show` (the stand-in prints a value).
      const run = runWithStubAz(script, env, "00000000-0000-0000-0000-000000000000");
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      for (const name of required) {
        const { [name]: _dropped, ...without } = env;
        const stopped = runWithStubAz(script, without);
        expect(stopped.status, `without ${name}`).not.toBe(0);
        expect(stopped.stderr, `without ${name}`).toContain(name);
        expect(stopped.calls, `without ${name}`).toEqual([]);
      }
    },
  );

  it.each(models)(
    "%s: the Terraform header's apply command gives every variable without a default",
    async (_label, load) => {
      const { model, options } = load();
      const terraform = renderTerraform(model, options);
      const command =
        /^# Generated by cosmos-modeler\. (terraform init && terraform apply .*)$/m.exec(terraform)?.[1] ??
        "";
      const given = [...command.matchAll(/-var ([a-z_]+)=/g)].map((m) => m[1] ?? "");
      const json = (await parseTerraform(terraform)) as { variable: Record<string, { default?: unknown }[]> };
      const withoutDefault = Object.entries(json.variable)
        .filter(([, [declaration]]) => declaration !== undefined && !("default" in declaration))
        .map(([name]) => name);
      expect(withoutDefault.length).toBeGreaterThan(0);
      for (const name of withoutDefault) expect(given, name).toContain(name);
      for (const name of given) expect(Object.keys(json.variable), name).toContain(name);
    },
  );
});
