/**
 * End-to-end tests of what keeps the MCP server safe for the user, over stdio with the SDK's
 * client and the built server: every path argument of every tool stays inside the session folder
 * after following links (refused without echoing anything read), a message over the size limit
 * gets an error and the server keeps running, malformed requests with an id are answered, and a
 * long tool runs off the request loop (ping answered, progress reported, cancellation honoured).
 */
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateWorkload } from "../../src/design/generate-workload.js";
import { serializeWorkload } from "../../src/workload/serialize-workload.js";
import { cli, ensureBuilt } from "../interview/terminal.js";

const SECRET = "SECRET-LINE-8f1c2e: do not echo";
const outside = mkdtempSync(join(tmpdir(), "cosmos-modeler-outside-"));
const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-mcp-safety-"));
let client: Client;
let transport: StdioClientTransport;
/** Every message the server sent, as the client's transport received it. */
const received: JSONRPCMessage[] = [];

const SMALL_WORKLOAD = [
  "version: 1",
  "name: Small",
  "entities:",
  "  Customer: { key: customerId, count: 100000, avgBytes: 1000, attributes: { customerId: string, name: string } }",
  "accessPatterns:",
  "  - { id: Q1, name: Get a customer, type: read, entity: Customer, where: { customerId: eq }, rps: { avg: 100, peak: 500 } }",
  "  - { id: C1, name: Sign up, type: write, operation: create, entity: Customer, rps: { avg: 1, peak: 10 } }",
  "",
].join("\n");

const SMALL_MODEL = [
  "version: 1",
  "containers:",
  "  - name: customers",
  "    partitionKey: [/customerId]",
  "    items:",
  "      - { type: customer, entity: Customer, id: '{customerId}', partitionKey: ['{customerId}'] }",
  "",
].join("\n");

beforeAll(async () => {
  ensureBuilt("mcp/server.js");
  writeFileSync(join(outside, "secret.yaml"), `${SECRET}\n`);
  writeFileSync(join(dir, "workload-file.yaml"), SMALL_WORKLOAD);
  writeFileSync(join(dir, "model.yaml"), SMALL_MODEL);
  writeFileSync(join(dir, "big.yaml"), serializeWorkload(generateWorkload(160)));
  symlinkSync(join(outside, "secret.yaml"), join(dir, "link-to-secret.yaml"));
  symlinkSync(outside, join(dir, "link-out"));
  symlinkSync(join(outside, "not-yet.yaml"), join(dir, "dangling.yaml"));
  mkdirSync(join(dir, "linked-artifacts"));
  symlinkSync(outside, join(dir, "linked-artifacts", "infra"));
  client = new Client({ name: "cosmos-modeler-test", version: "1.0.0" });
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "mcp", "--dir", dir],
    stderr: "pipe",
  });
  await client.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message) => {
    received.push(message);
    deliver?.(message);
  };
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

/** Waits for the response to `id` among the messages received. */
async function responseTo(id: string | number | null, after = 0): Promise<Record<string, unknown>> {
  const started = Date.now();
  for (;;) {
    const found = received
      .slice(after)
      .find((m) => "id" in m && m.id === id && ("error" in m || "result" in m));
    if (found !== undefined) return found as unknown as Record<string, unknown>;
    if (Date.now() - started > 10_000) throw new Error(`no response to ${String(id)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Runs the server with raw lines on standard input (objects are sent as JSON, strings as they
 * are) until `done` holds for the messages received; returns them in order.
 */
async function rawSession(
  messages: readonly unknown[],
  done: (received: readonly Record<string, unknown>[]) => boolean,
): Promise<Record<string, unknown>[]> {
  const child = spawn(process.execPath, [cli, "mcp", "--dir", dir], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    out += chunk;
  });
  for (const message of messages)
    child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  const parse = (): Record<string, unknown>[] =>
    out
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const started = Date.now();
  while (!done(parse()) && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 20));
  child.kill();
  return parse();
}

/** CPU seconds the server process used so far (user + system, from /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

describe("MCP paths stay inside the session folder", () => {
  it("every path argument of every tool is refused outside the folder, through links too, without echoing content", async () => {
    const { tools } = await client.listTools();
    const probed: string[] = [];
    for (const tool of tools) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      const paths = Object.entries(properties)
        .filter(([, schema]) => schema.description?.includes("inside the session folder") === true)
        .map(([name]) => name);
      for (const name of paths) {
        const valid: Record<string, unknown> = {};
        for (const other of paths) {
          if (other !== name && (tool.inputSchema.required ?? []).includes(other))
            valid[other] = other === "workload" ? "workload-file.yaml" : "model.yaml";
        }
        const writes = name === "outDir";
        const probes = writes
          ? ["/tmp", "../elsewhere", "link-out", "link-out/sub"]
          : ["/etc/passwd", "../../../../etc/passwd", "link-to-secret.yaml", "link-out/secret.yaml", "-"];
        for (const probe of probes) {
          const result = await call(tool.name, { ...valid, [name]: probe });
          const shown = text(result);
          expect(result.isError, `${tool.name} ${name}=${probe}: ${shown}`).toBe(true);
          expect(shown, `${tool.name} ${name}=${probe}`).toMatch(
            /outside the session folder|not a file path/,
          );
          expect(shown).not.toContain("SECRET-LINE");
          expect(shown).not.toContain("root:");
          probed.push(`${tool.name}.${name}`);
        }
      }
    }
    // the tools that take paths, and each of their path arguments
    for (const expected of [
      "check-workload.path",
      "evaluate-model.model",
      "evaluate-model.workload",
      "evaluate-model.prices",
      "design-model.workload",
      "design-model.prices",
      "render-artifacts.model",
      "render-artifacts.outDir",
      "write-data-model.prices",
      "verify-model.model",
      "verify-model.workload",
      "import-database.source",
    ]) {
      expect(probed).toContain(expected);
    }
    expect(readdirSync(outside)).toEqual(["secret.yaml"]);
  });

  it("a folder inside that links out, or a link to a file not there yet, is refused for writes", async () => {
    const linked = await call("render-artifacts", { model: "model.yaml", outDir: "linked-artifacts" });
    expect(linked.isError).toBe(true);
    expect(text(linked)).toContain("outside the session folder");
    const dangling = await call("render-artifacts", { model: "model.yaml", outDir: "dangling.yaml" });
    expect(dangling.isError).toBe(true);
    expect(readdirSync(outside)).toEqual(["secret.yaml"]);
    // paths inside still work
    const inside = await call("render-artifacts", { model: "model.yaml", outDir: "artifacts" });
    expect(inside.isError, text(inside)).toBeFalsy();
    expect(existsSync(join(dir, "artifacts", "infra", "main.bicep"))).toBe(true);
    const checked = await call("check-workload", { path: "workload-file.yaml" });
    expect((checked.structuredContent as { ok: boolean }).ok).toBe(true);
  });

  it("a session whose own files link out of the folder is refused", async () => {
    const linkedDir = mkdtempSync(join(tmpdir(), "cosmos-modeler-mcp-linked-"));
    symlinkSync(join(outside, "secret.yaml"), join(linkedDir, "workload.yaml"));
    const other = new Client({ name: "cosmos-modeler-test", version: "1.0.0" });
    await other.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, "mcp", "--dir", linkedDir],
        stderr: "pipe",
      }),
    );
    try {
      for (const name of ["get-next-questions", "check-workload", "design-model", "write-data-model"]) {
        const result = (await other.callTool({ name, arguments: {} })) as CallToolResult;
        expect(result.isError, name).toBe(true);
        expect(text(result)).toContain("outside the session folder");
        expect(text(result)).not.toContain("SECRET-LINE");
      }
      const refused = (await other.callTool({
        name: "update-requirements",
        arguments: { changes: [{ kind: "set-application", name: "X" }] },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(readFileSync(join(outside, "secret.yaml"), "utf8")).toBe(`${SECRET}\n`);
    } finally {
      await other.close();
    }
  });
});

describe("MCP requests that could stop or freeze the server", () => {
  it("a message over the size limit gets a JSON-RPC error naming the limit, and the server keeps running", async () => {
    const huge = "x".repeat(17 * 1024 * 1024);
    const error = await client.callTool({ name: "check-workload", arguments: { text: huge } }).then(
      () => undefined,
      (e: unknown) => e as { code?: number; message?: string },
    );
    expect(error?.code).toBe(-32600);
    expect(error?.message).toContain("Request too large");
    expect(error?.message).toContain("16,777,216 bytes");
    await client.ping();
    const after = await call("check-workload", { path: "workload-file.yaml" });
    expect(after.isError).toBeFalsy();
  });

  it("every malformed request with an id is answered with a JSON-RPC error", async () => {
    const cases: {
      message: Record<string, unknown> | unknown[];
      id: string | number | null;
      code: number;
    }[] = [
      {
        message: { jsonrpc: "2.0", id: 901, method: "tools/call", params: "not an object" },
        id: 901,
        code: -32600,
      },
      { message: { jsonrpc: "2.0", id: 902 }, id: 902, code: -32600 },
      { message: { jsonrpc: "1.0", id: 903, method: "ping" }, id: 903, code: -32600 },
      { message: { id: "no-version", method: "ping" }, id: "no-version", code: -32600 },
      { message: { jsonrpc: "2.0", id: 906, method: "no/such/method" }, id: 906, code: -32601 },
    ];
    for (const { message, id, code } of cases) {
      const before = received.length;
      await transport.send(message as unknown as JSONRPCMessage);
      const response = await responseTo(id, before);
      expect(response.error, JSON.stringify(message)).toMatchObject({ code });
    }
    // an unknown tool and arguments of the wrong type are answered too (the SDK answers them as
    // tool results with isError)
    const unknownAt = received.length;
    await transport.send({ jsonrpc: "2.0", id: 907, method: "tools/call", params: { name: "no-such-tool" } });
    expect(JSON.stringify(await responseTo(907, unknownAt))).toContain("no-such-tool");
    const before = received.length;
    await transport.send({
      jsonrpc: "2.0",
      id: 908,
      method: "tools/call",
      params: { name: "check-workload", arguments: { path: 5 } },
    });
    const typed = await responseTo(908, before);
    expect(JSON.stringify(typed)).toMatch(/path/);
    await client.ping();
  });

  it("lines without a usable id are answered with id null (raw stdio: the SDK client drops those), and the server keeps reading", async () => {
    const lines = await rawSession(
      [
        "this is not json",
        { jsonrpc: "2.0", id: null, method: "ping" },
        [{ jsonrpc: "2.0", id: 5, method: "ping" }],
        "42",
      ].concat([{ jsonrpc: "2.0", id: 1, method: "ping" }]),
      (received) => received.some((m) => m.id === 1),
    );
    expect(lines[0]).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect(lines[1]).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(lines[2]).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(String((lines[2]?.error as { message?: string }).message)).toContain("batches are not supported");
    expect(lines[3]).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(lines[4]).toMatchObject({ jsonrpc: "2.0", id: 1, result: {} });
  });
});

describe("long tools run off the request loop", () => {
  it("design-model reports progress, ping is answered while it runs, and a cancellation stops it", async () => {
    const controller = new AbortController();
    const progress: { progress: number; total?: number | undefined; message?: string | undefined }[] = [];
    let firstProgress: () => void = () => undefined;
    const started = new Promise<void>((r) => {
      firstProgress = r;
    });
    const running = client
      .callTool({ name: "design-model", arguments: { workload: "big.yaml" } }, undefined, {
        signal: controller.signal,
        onprogress: (p) => {
          progress.push(p);
          firstProgress();
        },
        timeout: 120_000,
      })
      .then(
        () => "completed",
        (e: unknown) => (e instanceof Error ? e.name : "error"),
      );
    await started;
    // the design is running in a worker: ping comes back at once
    for (let i = 0; i < 3; i++) {
      const t = Date.now();
      await client.ping();
      expect(Date.now() - t).toBeLessThan(1_000);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(progress.length).toBeGreaterThan(1);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]?.progress ?? 0).toBeGreaterThan(progress[i - 1]?.progress ?? 0);
    expect(progress[0]?.total).toBeGreaterThan(0);
    expect(progress[0]?.message).toMatch(/aggregates|unique|partition/);
    controller.abort("the user changed their mind");
    expect(await running).not.toBe("completed");
    // the worker is gone: the server process is idle again and answers at once
    const pid = transport.pid ?? 0;
    await new Promise((r) => setTimeout(r, 300));
    const cpuBefore = cpuSeconds(pid);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(cpuSeconds(pid) - cpuBefore).toBeLessThan(0.3);
    const next = await call("update-requirements", {
      changes: [{ kind: "set-application", name: "After the cancellation" }],
    });
    expect(next.isError, text(next)).toBeFalsy();
  });

  it("a complete design-model reports every step as progress up to its total, before the result", async () => {
    // raw stdio: the SDK client drops progress that arrives in the same chunk as the result
    const lines = await rawSession(
      [
        {
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "raw", version: "1" },
          },
        },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "design-model",
            arguments: { workload: "workload-file.yaml" },
            _meta: { progressToken: "p1" },
          },
        },
      ],
      (received) => received.some((m) => m.id === 1),
    );
    const progress = lines
      .filter((m) => m.method === "notifications/progress")
      .map((m) => m.params as { progressToken: string; progress: number; total: number; message: string });
    // Every step of the one group of entities, then the final evaluation, each with the same total.
    const total = progress[0]?.total ?? 0;
    expect(total).toBeGreaterThanOrEqual(8);
    expect(progress.every((p) => p.progressToken === "p1" && p.total === total)).toBe(true);
    expect(progress.map((p) => p.progress)).toEqual(Array.from({ length: total + 1 }, (_, step) => step));
    expect(progress.some((p) => p.message.includes("partition keys"))).toBe(true);
    expect(progress.at(-1)?.message).toContain("final evaluation");
    const result = lines.findIndex((m) => m.id === 1);
    expect(result).toBeGreaterThan(lines.findIndex((m) => m.method === "notifications/progress"));
    expect((lines[result]?.result as CallToolResult).isError).toBeFalsy();
  });
});
