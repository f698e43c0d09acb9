/**
 * Issue 27, "results sized for an assistant's context": design-model's result for a 300-entity
 * workload is a summary under 100 KB (the busiest patterns, the costliest containers, the
 * decisions that change the cost most, counts of the rest), its structured content sent once;
 * `detail: "full"` gives every plan and decision.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateWorkload } from "../../src/design/generate-workload.js";
import { serializeWorkload } from "../../src/workload/serialize-workload.js";
import { cli, ensureBuilt, root } from "../interview/terminal.js";

const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-size-"));
let client: Client;

beforeAll(async () => {
  ensureBuilt("mcp/server.js");
  writeFileSync(join(dir, "big.yaml"), serializeWorkload(generateWorkload(300)));
  writeFileSync(
    join(dir, "blogging.yaml"),
    readFileSync(join(root, "examples", "blogging", "workload.yaml")),
  );
  client = new Client({ name: "cosmos-modeler-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--dir", dir], stderr: "pipe" }),
  );
});

afterAll(async () => {
  await client.close();
});

const call = async (args: Record<string, unknown>) =>
  (await client.callTool({ name: "design-model", arguments: args }, undefined, {
    timeout: 600_000,
  })) as CallToolResult;

describe("design-model's result size", () => {
  it("is a summary under 100 KB for 300 entities, its structured content once", async () => {
    const result = await call({ workload: "big.yaml" });
    expect(result.isError).toBeFalsy();
    const size = JSON.stringify(result).length;
    expect(size).toBeLessThan(100_000);
    expect(result.content).toHaveLength(1);
    const data = result.structuredContent as {
      evaluation: { patterns: unknown[]; counts: { patterns: number; decisions: number } };
      decisions: unknown[];
    };
    expect(data.evaluation.counts.patterns).toBeGreaterThan(data.evaluation.patterns.length);
    expect(data.decisions.length).toBeLessThanOrEqual(20);
    const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    expect(text).toMatch(/^Design of .*: 300 container\(s\)|^Design of .*: \d+ container\(s\)/);
    expect(text).toContain('detail: "full"');
    expect(text).not.toContain("--decisions");
  }, 600_000);

  it("gives every plan and decision with detail: full", async () => {
    const result = await call({ workload: "blogging.yaml", detail: "full" });
    const data = result.structuredContent as {
      evaluation: { patterns: { plan: { operations?: unknown[] } }[] };
      decisions: unknown[];
    };
    expect(data.evaluation.patterns.every((p) => Array.isArray(p.plan.operations))).toBe(true);
    const summary = (await call({ workload: "blogging.yaml" })).structuredContent as { decisions: unknown[] };
    expect(data.decisions.length).toBeGreaterThanOrEqual(summary.decisions.length);
  }, 600_000);
});
