/**
 * End-to-end tests of the MCP server: the built CLI (`node dist/cli/main.js mcp --dir <tmp>`)
 * driven by the SDK's own client over stdio.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, root } from "../interview/terminal.js";

const examplesDir = join(root, "examples");
const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-mcp-"));
let client: Client;

beforeAll(async () => {
  ensureBuilt("mcp/server.js");
  client = new Client({ name: "cosmos-modeler-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--dir", dir], stderr: "pipe" }),
  );
});

afterAll(async () => {
  await client.close();
});

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

describe("cosmos-modeler mcp", () => {
  it("lists verb-first kebab-case tools, each with input and output schemas and annotations", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      "check-workload",
      "update-requirements",
      "get-next-questions",
      "estimate-request-charge",
      "evaluate-model",
      "render-artifacts",
      "design-model",
      "write-data-model",
    ]) {
      expect(names).toContain(name);
    }
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-z]+(-[a-z]+)+$/);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.annotations).toBeDefined();
      expect(typeof tool.annotations?.readOnlyHint).toBe("boolean");
      expect(tool.description?.length ?? 0).toBeGreaterThan(20);
    }
    const update = tools.find((tool) => tool.name === "update-requirements");
    expect(update?.annotations?.readOnlyHint).toBe(false);
    expect(JSON.stringify(update?.inputSchema)).toContain("estimate-rate");
  });

  it("check-workload loads an example with its counts and issues", async () => {
    const text = readFileSync(join(examplesDir, "blogging", "workload.yaml"), "utf8");
    writeFileSync(join(dir, "blogging.yaml"), text);
    const result = await call("check-workload", { path: "blogging.yaml" });
    expect(result.isError).toBeFalsy();
    const report = result.structuredContent as {
      ok: boolean;
      summary: { entities: number; accessPatterns: number; errors: number };
    };
    const file = parse(text) as { entities: Record<string, unknown>; accessPatterns: unknown[] };
    expect(report.ok).toBe(true);
    expect(report.summary.entities).toBe(Object.keys(file.entities).length);
    expect(report.summary.accessPatterns).toBe(file.accessPatterns.length);
    expect(report.summary.errors).toBe(0);
    const bad = await call("check-workload", {
      text: "version: 1\nname: x\nentities: {}\naccessPatterns: []\n",
    });
    expect((bad.structuredContent as { ok: boolean }).ok).toBe(false);
    const missing = await call("check-workload", { path: "nope.yaml" });
    expect(missing.isError).toBe(true);
  });

  it("update-requirements applies changes, rewrites the files and returns the turn summary; get-next-questions follows", async () => {
    const result = await call("update-requirements", {
      changes: [
        { kind: "set-application", name: "Shop", domain: "e-commerce", description: "An online shop" },
        { kind: "add-entity", name: "Customer", key: "customerId" },
        {
          kind: "add-access-pattern",
          id: "Q1",
          type: "read",
          name: "Get a customer",
          entity: "Customer",
          where: { customerId: "eq" },
        },
      ],
    });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as {
      learned: string[];
      filesUpdated: string[];
      summary: string;
      questions: { id: string; howToAnswer: string }[];
    };
    expect(data.learned).toContain("Access pattern Q1 (read): Get a customer.");
    expect(data.filesUpdated).toEqual(["workload.yaml", "cosmosdb_requirements.md"]);
    expect(data.summary).toMatch(
      /^1\. What I learned:[\s\S]*2\. Files updated:[\s\S]*3\. Next steps:[\s\S]*4\. Questions:/,
    );
    expect(data.questions.map((q) => q.id)).toEqual(["rate:Q1:avg", "rate:Q1:peak"]);
    // one change for the question's parts, numbers shown as numbers (not "<...>" strings)
    expect(data.questions[0]?.howToAnswer).toContain(
      '{"kind":"set-rate","pattern":"Q1","avg":<number: requests/s, a number of at least 0>,"peak":<number: requests/s, a number more than 0>}',
    );
    expect(data.questions[0]?.howToAnswer).toContain('"kind":"mark-rate-unknown"');
    expect(readFileSync(join(dir, "cosmosdb_requirements.md"), "utf8")).toContain(
      "| Q1 | Get a customer | unknown | Read |",
    );
    expect(parse(readFileSync(join(dir, "workload.yaml"), "utf8"))).toMatchObject({
      name: "Shop",
      entities: { Customer: { key: "customerId" } },
    });

    const next = await call("get-next-questions");
    const status = next.structuredContent as {
      questions: { id: string }[];
      ready: boolean;
      reasons: string[];
    };
    expect(status.questions.map((q) => q.id)).toEqual(["rate:Q1:avg", "rate:Q1:peak"]);
    expect(status.ready).toBe(false);
    expect(text(next)).toContain("at most three");

    // the user does not know: business figures give an estimate that is not applied until accepted
    await call("update-requirements", { changes: [{ kind: "mark-rate-unknown", pattern: "Q1" }] });
    const estimated = await call("update-requirements", {
      changes: [
        {
          kind: "estimate-rate",
          pattern: "Q1",
          dailyActiveUsers: 864_000,
          actionsPerUserPerDay: 5,
          peakFactor: 4,
        },
      ],
    });
    // 864,000 x 5 / 86,400 = 50 requests/s; x 4 = 200 at peak
    expect(text(estimated)).toContain("average = 4,320,000 / 86,400 s per day = 50 requests/s");
    expect(parse(readFileSync(join(dir, "workload.yaml"), "utf8")).accessPatterns[0].rps).toBeUndefined();
    expect((estimated.structuredContent as { questions: { id: string }[] }).questions[0]?.id).toBe(
      "rate:Q1:estimate",
    );
  });

  it("update-requirements reports invalid changes as an isError result and applies nothing", async () => {
    const before = readFileSync(join(dir, "workload.yaml"), "utf8");
    const result = await call("update-requirements", {
      changes: [
        { kind: "add-entity", name: "Order", key: "orderId" },
        { kind: "set-rate", pattern: "Q9", avg: 1 },
      ],
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("there is no access pattern Q9");
    expect(readFileSync(join(dir, "workload.yaml"), "utf8")).toBe(before);
    // an unknown field is refused with the field it probably meant, not dropped
    const misspelled = await call("update-requirements", {
      changes: [{ kind: "add-entity", name: "Order", keyy: "orderId" }],
    });
    expect(misspelled.isError).toBe(true);
    expect(text(misspelled)).toContain('add-entity has no field "keyy" (did you mean "key"?)');
    // a with entry that is not one of the forms is refused with the forms
    const badWith = await call("update-requirements", {
      changes: [
        { kind: "add-entity", name: "MenuItem", key: "menuItemId" },
        { kind: "update-access-pattern", id: "Q1", with: ["MenuItem"] },
      ],
    });
    expect(badWith.isError).toBe(true);
    expect(text(badWith)).toContain('with entry "MenuItem" cannot be read: expected Entity.attribute');
    expect(readFileSync(join(dir, "workload.yaml"), "utf8")).toBe(before);
    // numbers sent as text are numbers
    const asText = await call("update-requirements", {
      changes: [{ kind: "add-entity", name: "Order", key: "orderId", count: "600", avgBytes: "1.5e3" }],
    });
    expect(asText.isError, text(asText)).toBeFalsy();
    expect(parse(readFileSync(join(dir, "workload.yaml"), "utf8")).entities.Order).toMatchObject({
      count: 600,
      avgBytes: 1500,
    });
  });

  it("estimate-request-charge prices operations with a range, and rejects invalid ones", async () => {
    const result = await call("estimate-request-charge", {
      operations: [
        { op: "read", itemBytes: 1000 },
        { op: "create", itemBytes: 1000 },
      ],
    });
    expect(result.isError).toBeFalsy();
    const { estimates } = result.structuredContent as {
      estimates: { estimate: number; low: number; high: number }[];
    };
    expect(estimates).toHaveLength(2);
    // Microsoft documents a 1 KB point read as 1 RU, and writes cost several times more.
    expect(estimates[0]?.estimate).toBeCloseTo(1, 0);
    expect((estimates[1]?.estimate ?? 0) > (estimates[0]?.estimate ?? 0) * 3).toBe(true);
    for (const e of estimates) expect(e.low <= e.estimate && e.estimate <= e.high).toBe(true);
    const bad = await call("estimate-request-charge", { operations: [{ op: "read", itemBytes: -5 }] });
    expect(bad.isError).toBe(true);
  });

  it("evaluate-model and render-artifacts work on a model file against a workload file", async () => {
    writeFileSync(
      join(dir, "small-workload.yaml"),
      [
        "version: 1",
        "name: Small",
        "entities:",
        "  Customer: { key: customerId, count: 100000, avgBytes: 1000, attributes: { customerId: string, name: string } }",
        "accessPatterns:",
        "  - { id: Q1, name: Get a customer, type: read, entity: Customer, where: { customerId: eq }, rps: { avg: 100, peak: 500 } }",
        "  - { id: C1, name: Sign up, type: write, operation: create, entity: Customer, rps: { avg: 1, peak: 10 } }",
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "small-model.yaml"),
      [
        "version: 1",
        "containers:",
        "  - name: customers",
        "    partitionKey: [/customerId]",
        "    items:",
        "      - { type: customer, entity: Customer, id: '{customerId}', partitionKey: ['{customerId}'] }",
        "",
      ].join("\n"),
    );
    const result = await call("evaluate-model", {
      model: "small-model.yaml",
      workload: "small-workload.yaml",
    });
    expect(result.isError).toBeFalsy();
    const evaluation = result.structuredContent as {
      patterns: {
        id: string;
        plan: { kind: string };
        fanOut: boolean;
        ru: { estimate: number };
        rus: { peak: number };
      }[];
      containers: { name: string; physicalPartitions: number }[];
      totals: { monthlyCostUSD: number };
    };
    const q1 = evaluation.patterns.find((p) => p.id === "Q1");
    expect(q1?.fanOut).toBe(false);
    // a point read of a ~1 KB item costs 1 RU (Microsoft's documented reference point)
    expect(q1?.ru.estimate).toBeCloseTo(1, 0);
    expect(q1?.rus.peak).toBeCloseTo(500 * (q1?.ru.estimate ?? 0), 6);
    expect(evaluation.containers.map((c) => c.name)).toEqual(["customers"]);
    expect(evaluation.totals.monthlyCostUSD).toBeGreaterThan(0);
    const missing = await call("evaluate-model", { model: "small-model.yaml" });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("not complete yet");

    const rendered = await call("render-artifacts", { model: "small-model.yaml", outDir: "artifacts" });
    expect(rendered.isError).toBeFalsy();
    const files = (rendered.structuredContent as { files: string[] }).files;
    expect(files).toContain("infra/main.bicep");
    expect(readFileSync(join(dir, "artifacts", "infra", "main.bicep"), "utf8")).toContain("customers");
    // an artifact edited by hand is not overwritten without force
    writeFileSync(join(dir, "artifacts", "diagram.mmd"), "my diagram\n");
    writeFileSync(
      join(dir, "small-model.yaml"),
      readFileSync(join(dir, "small-model.yaml"), "utf8").replace("customers", "clients"),
    );
    const protectedResult = await call("render-artifacts", {
      model: "small-model.yaml",
      outDir: "artifacts",
    });
    expect(protectedResult.isError).toBe(true);
    expect(text(protectedResult)).toContain("diagram.mmd");
    expect(text(protectedResult)).toContain("force: true");
    expect(readFileSync(join(dir, "artifacts", "diagram.mmd"), "utf8")).toBe("my diagram\n");
    const forced = await call("render-artifacts", {
      model: "small-model.yaml",
      outDir: "artifacts",
      force: true,
    });
    expect(forced.isError).toBeFalsy();
    const outside = await call("render-artifacts", { model: "small-model.yaml", outDir: "../elsewhere" });
    expect(outside.isError).toBe(true);
  });

  it("offers the cosmos-data-modeling prompt and the examples as resources", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain("cosmos-data-modeling");
    const prompt = await client.getPrompt({
      name: "cosmos-data-modeling",
      arguments: { application: "a ticketing system" },
    });
    const body = prompt.messages.map((m) => (m.content.type === "text" ? m.content.text : "")).join("\n");
    expect(body).toContain("Never invent a number");
    expect(body).toContain("at most three questions");
    expect(body).toContain("a ticketing system");
    const { resources } = await client.listResources();
    const blogging = resources.find((r) => r.uri === "cosmos-modeler://examples/blogging/workload.yaml");
    expect(blogging).toBeDefined();
    const requirements = await client.readResource({
      uri: "cosmos-modeler://session/cosmosdb_requirements.md",
    });
    const session = requirements.contents[0];
    expect(session && "text" in session ? session.text : "").toContain(
      "Azure Cosmos DB NoSQL Modeling Session: Shop",
    );
    const read = await client.readResource({ uri: "cosmos-modeler://examples/blogging/workload.yaml" });
    const content = read.contents[0];
    expect(content && "text" in content ? content.text : "").toContain("name: Blogging platform");
    // The documentation the tool descriptions cite is served too.
    for (const page of ["workload-format", "model-format", "json-output", "how-numbers-are-computed"])
      expect(resources.map((r) => r.uri)).toContain(`cosmos-modeler://docs/${page}.md`);
    const docs = await client.readResource({ uri: "cosmos-modeler://docs/workload-format.md" });
    const doc = docs.contents[0];
    expect(doc && "text" in doc ? doc.text : "").toContain("# Workload format");
  });
});
