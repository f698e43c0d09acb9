/**
 * End-to-end: a whole session over MCP, from the first answer to cosmosdb_data_model.md, with
 * the built server and the SDK's client. The data model is refused until the user confirms.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt } from "../interview/terminal.js";

const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-mcp-model-"));
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

describe("a session over MCP, up to the data model", () => {
  it("refuses write-data-model before the confirmation, then designs, verifies and writes it", async () => {
    const noModel = await call("verify-model");
    expect(noModel.isError).toBe(true);
    const empty = await call("write-data-model");
    expect(empty.isError).toBe(true);
    expect(text(empty)).toContain("not written yet");

    const captured = await call("update-requirements", {
      changes: [
        { kind: "set-application", name: "Shop", domain: "e-commerce", description: "An online shop" },
        {
          kind: "add-entity",
          name: "Customer",
          key: "customerId",
          count: 1_000_000,
          avgBytes: 1000,
          growthPerMonth: 10_000,
          attributes: { customerId: "string", name: "string" },
        },
        {
          kind: "add-entity",
          name: "Order",
          key: "orderId",
          count: 10_000_000,
          avgBytes: 2000,
          growthPerMonth: 500_000,
          attributes: { orderId: "string", customerId: "string", createdAt: "datetime" },
        },
        {
          kind: "add-relationship",
          parent: "Customer",
          child: "Order",
          via: "customerId",
          avg: 10,
          max: 5000,
          owned: true,
        },
        {
          kind: "add-access-pattern",
          id: "Q1",
          type: "read",
          name: "Get a customer",
          entity: "Customer",
          where: { customerId: "eq" },
          rps: { avg: 200, peak: 800 },
        },
        {
          kind: "add-access-pattern",
          id: "Q2",
          type: "read",
          name: "List a customer's orders, newest first",
          entity: "Order",
          where: { customerId: "eq" },
          orderBy: { createdAt: "desc" },
          limit: 20,
          rps: { avg: 100, peak: 400 },
        },
        {
          kind: "add-access-pattern",
          id: "C1",
          type: "write",
          name: "Sign up",
          entity: "Customer",
          operation: "create",
          rps: { avg: 1, peak: 10 },
        },
        {
          kind: "add-access-pattern",
          id: "C2",
          type: "write",
          name: "Place an order",
          entity: "Order",
          operation: "create",
          rps: { avg: 20, peak: 100 },
        },
        // how customers spread their orders, the reads' latency target, no sparse attributes or atomic writes
        { kind: "set-attribute", entity: "Order", name: "customerId", skew: 0 },
        { kind: "set-latency-target", latencyMs: 50 },
        { kind: "decline-question", question: "design:sparse-attributes" },
        { kind: "decline-question", question: "design:atomic-writes" },
        { kind: "set-scale", consistency: "session", regions: 1, multiRegionWrites: false },
        { kind: "confirm", subject: "distribution" },
      ],
    });
    expect(captured.isError).toBeFalsy();
    const status = captured.structuredContent as { questions: { id: string }[]; ready: boolean };
    expect(status.questions.map((q) => q.id)).toEqual(["confirmation:access-patterns"]);
    expect(status.ready).toBe(false);

    const refused = await call("write-data-model");
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain(
      "You confirmed that every read and write access pattern is captured: not confirmed yet",
    );
    expect(existsSync(join(dir, "cosmosdb_data_model.md"))).toBe(false);

    // design-model shows the decisions to discuss, without writing anything
    const design = await call("design-model");
    expect(design.isError).toBeFalsy();
    const designed = design.structuredContent as {
      model: { containers: unknown[] };
      decisions: { title: string }[];
      evaluation: { totals: { monthlyCostUSD: number } };
    };
    expect(designed.model.containers.length).toBeGreaterThan(0);
    expect(designed.evaluation.totals.monthlyCostUSD).toBeGreaterThan(0);
    expect(existsSync(join(dir, "model.yaml"))).toBe(false);

    const confirmed = await call("update-requirements", {
      changes: [{ kind: "confirm", subject: "access-patterns-complete" }],
    });
    expect((confirmed.structuredContent as { ready: boolean }).ready).toBe(true);

    const written = await call("write-data-model");
    expect(written.isError).toBeFalsy();
    const files = (written.structuredContent as { files: string[] }).files;
    expect(files).toEqual(
      expect.arrayContaining(["cosmosdb_data_model.md", "model.yaml", "evaluation.json", "infra/main.bicep"]),
    );
    expect(files).not.toContain("cosmosdb_requirements.md");
    const document = readFileSync(join(dir, "cosmosdb_data_model.md"), "utf8");
    expect(document).toContain("# Azure Cosmos DB NoSQL Data Model: Shop");
    // verified before it was written: every pattern's result is in the document
    const verification = (written.structuredContent as { verification: { ran: boolean; ok: boolean } })
      .verification;
    expect(verification).toMatchObject({ ran: true, ok: true });
    expect(document).toContain("## Verification on a Cosmos DB Endpoint");
    expect(document).toContain("[x] ✅ **4 of 4** access patterns passed");
    for (const id of ["Q1", "Q2", "C1", "C2"])
      expect(document).toMatch(new RegExp(`\\| ${id} \\| (read|write) \\| ✅ passed`));
    expect(text(written)).toContain(
      "Verified on the embedded Cosmos DB endpoint: 4 of 4 access patterns passed",
    );

    // verify-model runs the written model again (or a named one) and says each pattern's result
    const verified = await call("verify-model");
    expect(verified.isError, text(verified)).toBeFalsy();
    expect(verified.structuredContent).toMatchObject({
      verification: { ran: true, ok: true, failed: [], counts: { passed: 4, failed: 0 } },
    });
    // and the probes of the generated code that apply (here: paging the orders of a customer)
    const probes = (
      verified.structuredContent as { verification: { probes: { probe: string; status: string }[] } }
    ).verification.probes;
    expect(probes.map((p) => p.probe)).toContain("paging");
    expect(probes.filter((p) => p.status === "failed")).toEqual([]);
    expect(text(verified)).toMatch(/\d+ of \d+ probes passed/);
    // the monthly cost shown is the design's own figure
    const totals = (written.structuredContent as { totals: { monthlyCostUSD: number } }).totals;
    expect(totals.monthlyCostUSD).toBeCloseTo(designed.evaluation.totals.monthlyCostUSD, 6);
    // the requirements document is still the session's, with its interview status
    expect(readFileSync(join(dir, "cosmosdb_requirements.md"), "utf8")).toContain("## Interview Status");
  });
});
