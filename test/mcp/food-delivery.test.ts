/**
 * A scripted session over MCP for an application of the size of the food-delivery app the issue
 * measured (6 entities, 18 access patterns, about 20,000 GPS pings/s): the user's facts are
 * fixed below, and the "assistant" answers only what the server asks, as the server says to
 * answer it (each question's `fills` change, its choices' changes and `sets`), one
 * update-requirements call per turn. The session must reach a verified, written data model in
 * at most 15 update-requirements calls. Any question the script has no fact for fails the test
 * (the server asked something unexpected), so the count is honest.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt } from "../interview/terminal.js";

const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-food-"));
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

/** Every tool call the session made, of any tool. */
let toolCalls = 0;

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  toolCalls += 1;
  return (await client.callTool({ name, arguments: args }, undefined, {
    timeout: 300_000,
  })) as CallToolResult;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

// ---------------------------------------------------------------------------------------------
// The user's facts

type Attributes = Record<string, string>;
const ENTITIES: Record<
  string,
  { key: string; attributes: Attributes; count: number; avgBytes: number; growth: number; ttl?: number }
> = {
  Customer: {
    key: "customerId",
    attributes: { customerId: "string", email: "string", name: "string", address: "object" },
    count: 5_000_000,
    avgBytes: 800,
    growth: 100_000,
  },
  Restaurant: {
    key: "restaurantId",
    attributes: {
      restaurantId: "string",
      name: "string",
      city: "string",
      cuisine: "string",
      rating: "number",
      isOpen: "boolean",
    },
    count: 50_000,
    avgBytes: 2000,
    growth: 500,
  },
  MenuItem: {
    key: "menuItemId",
    attributes: {
      menuItemId: "string",
      restaurantId: "string",
      name: "string",
      price: "number",
      available: "boolean",
    },
    count: 2_500_000,
    avgBytes: 600,
    growth: 20_000,
  },
  Order: {
    key: "orderId",
    attributes: {
      orderId: "string",
      customerId: "string",
      restaurantId: "string",
      courierId: "string",
      status: "string",
      createdAt: "datetime",
      total: "number",
      promoCode: "string",
    },
    count: 30_000_000,
    avgBytes: 1500,
    // 8 orders/s on average x 2,592,000 s in a 30-day month
    growth: 20_736_000,
  },
  Courier: {
    key: "courierId",
    attributes: { courierId: "string", name: "string", status: "string", city: "string" },
    count: 200_000,
    avgBytes: 1000,
    growth: 2000,
  },
  CourierLocation: {
    key: "locationId",
    attributes: { locationId: "string", courierId: "string", lat: "number", lon: "number", at: "datetime" },
    // one day of pings at 12,000/s on average, kept for a day
    count: 1_036_800_000,
    avgBytes: 150,
    growth: 31_104_000_000,
    ttl: 86_400,
  },
};

const rate = (avg: number, peak: number) => ({ rps: { avg, peak } });
const PATTERNS: readonly Record<string, unknown>[] = [
  {
    id: "Q1",
    type: "read",
    name: "Get a customer",
    entity: "Customer",
    where: { customerId: "eq" },
    ...rate(50, 200),
  },
  {
    id: "Q2",
    type: "read",
    name: "Get a restaurant",
    entity: "Restaurant",
    where: { restaurantId: "eq" },
    ...rate(300, 1500),
  },
  {
    id: "Q3",
    type: "read",
    name: "Restaurants of a city by cuisine",
    entity: "Restaurant",
    where: { city: "eq", cuisine: "eq" },
    limit: 50,
    ...rate(200, 1000),
  },
  {
    id: "Q4",
    type: "read",
    name: "A restaurant's menu",
    entity: "MenuItem",
    where: { restaurantId: "eq" },
    ...rate(400, 2000),
  },
  {
    id: "Q5",
    type: "read",
    name: "An order with its restaurant's name",
    entity: "Order",
    where: { orderId: "eq" },
    with: ["Restaurant.name"],
    ...rate(150, 600),
  },
  {
    id: "Q6",
    type: "read",
    name: "A customer's orders, newest first",
    entity: "Order",
    where: { customerId: "eq" },
    orderBy: { createdAt: "desc" },
    limit: 20,
    ...rate(60, 300),
  },
  {
    id: "Q7",
    type: "read",
    name: "A restaurant's orders in a status",
    entity: "Order",
    where: { restaurantId: "eq", status: "eq" },
    ...rate(100, 400),
  },
  {
    id: "Q8",
    type: "read",
    name: "A courier's orders in a status",
    entity: "Order",
    where: { courierId: "eq", status: "eq" },
    ...rate(80, 300),
  },
  {
    id: "Q9",
    type: "read",
    name: "Get a courier",
    entity: "Courier",
    where: { courierId: "eq" },
    ...rate(100, 400),
  },
  {
    id: "Q10",
    type: "read",
    name: "Latest location of a courier",
    entity: "CourierLocation",
    where: { courierId: "eq" },
    orderBy: { at: "desc" },
    limit: 1,
    ...rate(500, 2000),
  },
  { id: "C1", type: "write", name: "Sign up", entity: "Customer", operation: "create", ...rate(0.04, 2) },
  {
    id: "C2",
    type: "write",
    name: "Register a restaurant",
    entity: "Restaurant",
    operation: "create",
    ...rate(0.0002, 0.1),
  },
  {
    id: "C3",
    type: "write",
    name: "Add or change a menu item",
    entity: "MenuItem",
    operation: "upsert",
    ...rate(2, 20),
  },
  { id: "C4", type: "write", name: "Place an order", entity: "Order", operation: "create", ...rate(8, 40) },
  {
    id: "C5",
    type: "write",
    name: "Update an order's status and courier",
    entity: "Order",
    operation: "patch",
    changes: ["status", "courierId"],
    ...rate(30, 150),
  },
  {
    id: "C6",
    type: "write",
    name: "Register a courier",
    entity: "Courier",
    operation: "create",
    ...rate(0.0008, 0.1),
  },
  {
    id: "C7",
    type: "write",
    name: "Update a courier's status",
    entity: "Courier",
    operation: "patch",
    changes: ["status"],
    ...rate(20, 80),
  },
  {
    id: "C8",
    type: "write",
    name: "GPS ping",
    entity: "CourierLocation",
    operation: "create",
    ...rate(12_000, 20_000),
  },
];

/** Relationships: children per parent (average, at most; null = unbounded), owned, and how busy parents spread. */
const RELATIONSHIPS: Record<
  string,
  { avg: number; max: number | null; owned: boolean; skew: "even" | "popular" }
> = {
  "Customer:Order": { avg: 6, max: null, owned: false, skew: "even" },
  "Restaurant:MenuItem": { avg: 50, max: 1000, owned: true, skew: "popular" },
  "Restaurant:Order": { avg: 600, max: null, owned: false, skew: "popular" },
  "Courier:Order": { avg: 150, max: null, owned: false, skew: "even" },
  "Courier:CourierLocation": { avg: 5184, max: 21_600, owned: true, skew: "even" },
};

/** Distinct values and spread of the filtered attributes that are not keys or relationships. */
const CARDINALITY: Record<string, { distinct: number; skew: "even" | "popular" }> = {
  "Restaurant.city": { distinct: 200, skew: "popular" },
  "Restaurant.cuisine": { distinct: 40, skew: "even" },
  "Order.status": { distinct: 6, skew: "even" },
};

// ---------------------------------------------------------------------------------------------
// The assistant: answers each question the way the server says to answer it

interface ServerChoice {
  value: string;
  changes: Record<string, unknown>[];
  sets?: Record<string, unknown>;
  form?: { form: string; preset: Record<string, unknown> };
}
interface ServerQuestion {
  id: string;
  text: string;
  answer: { kind: string; choices?: ServerChoice[]; alternatives?: ServerChoice[] };
  fills?: { change: Record<string, unknown>; field: string };
  group?: { id: string };
  alsoChanges?: Record<string, unknown>[];
  howToAnswer: string;
}

/** How many orders the reads without a limit return (asked by the interview: issue 27). */
const RESULT_SIZES: Readonly<Record<string, number>> = { Q7: 12, Q8: 2 };

/** The fact answering a question: a value for its `fills`, a choice, changes of a form, or a skip. */
type Fact =
  | { kind: "value"; value: unknown }
  | { kind: "choice"; value: string; form?: Record<string, unknown>[] }
  | { kind: "changes"; changes: Record<string, unknown>[] }
  | { kind: "skip" };

function factFor(question: ServerQuestion): Fact {
  const id = question.id;
  const parts = id.split(":");
  const value = (v: unknown): Fact => ({ kind: "value", value: v });
  switch (parts[0]) {
    case "application":
      return parts[1] === "name"
        ? value("Food delivery")
        : parts[1] === "domain"
          ? value("food delivery")
          : value(
              "Customers order from restaurants; couriers deliver and send their GPS position every few seconds.",
            );
    case "entities":
      return {
        kind: "changes",
        changes: Object.entries(ENTITIES).map(([name, e]) => ({
          kind: "add-entity",
          name,
          key: e.key,
          attributes: e.attributes,
        })),
      };
    case "access-patterns":
      return { kind: "changes", changes: PATTERNS.map((p) => ({ kind: "add-access-pattern", ...p })) };
    case "massive-scale": {
      if (parts[2] === "binning") return value(60); // one bucket item per courier and minute
      if (parts[2] === "buffering") return value(1); // the app sends each ping as it comes
      break;
    }
    case "size": {
      const entity = ENTITIES[parts[1] ?? ""];
      if (entity === undefined) break;
      const field = parts[2];
      if (field === "count") return value(entity.count);
      if (field === "avgBytes") return value(entity.avgBytes);
      if (field === "growth") return value(entity.growth);
      if (field === "retention") return entity.ttl === undefined ? { kind: "skip" } : value(entity.ttl);
      break;
    }
    case "relationship": {
      const relationship = RELATIONSHIPS[`${parts[1]}:${parts[2]}`];
      if (relationship === undefined) break;
      if (parts[3] === "exists") return { kind: "choice", value: "one-to-many" };
      if (parts[3] === "avg") return value(relationship.avg);
      if (parts[3] === "max")
        return relationship.max === null ? { kind: "choice", value: "unbounded" } : value(relationship.max);
      if (parts[3] === "owned")
        return { kind: "choice", value: relationship.owned ? "owned" : "independent" };
      break;
    }
    case "skew": {
      const via = Object.entries(RELATIONSHIPS).find(
        ([pair]) => pair.split(":")[1] === parts[1] && ENTITIES[pair.split(":")[0] ?? ""]?.key === parts[2],
      );
      if (via !== undefined) return { kind: "choice", value: via[1].skew };
      const attribute = CARDINALITY[`${parts[1]}.${parts[2]}`];
      if (attribute !== undefined) return { kind: "choice", value: attribute.skew };
      break;
    }
    case "cardinality": {
      const attribute = CARDINALITY[`${parts[1]}.${parts[2]}`];
      if (attribute !== undefined) return value(attribute.distinct);
      break;
    }
    case "result-size": {
      // A restaurant's orders in one status (the open ones), a courier's: a few each.
      const size = RESULT_SIZES[parts[1] ?? ""];
      if (size !== undefined && parts[2] === undefined) return value(size);
      if (size !== undefined && parts[2] === "limit") return { kind: "skip" };
      break;
    }
    case "design":
      if (parts[1] === "latency") return value(100);
      if (parts[1] === "sparse-attributes")
        return {
          kind: "choice",
          value: "some",
          // an order has no courier until one accepts it
          form: [{ kind: "set-attribute", entity: "Order", name: "courierId", presence: 0.9 }],
        };
      if (parts[1] === "atomic-writes") return { kind: "choice", value: "none" };
      break;
    case "distribution":
      if (parts[1] === "consistency") return { kind: "choice", value: "session" };
      if (parts[1] === "regions") return value(1);
      if (parts[1] === "horizon") return value(24);
      if (parts[1] === "multi-region-writes") return { kind: "choice", value: "single" };
      break;
    case "confirmation":
      return { kind: "choice", value: "complete" };
    default:
      break;
  }
  throw new Error(`the script has no answer for question ${id}: ${question.text}\n${question.howToAnswer}`);
}

/** Sets a (dotted) field, as the server's `fills` describe. */
function setField(target: Record<string, unknown>, field: string, value: unknown): void {
  const [head = field, ...rest] = field.split(".");
  if (rest.length === 0) target[head] = value;
  else {
    const inner = (target[head] ?? {}) as Record<string, unknown>;
    target[head] = inner;
    setField(inner, rest.join("."), value);
  }
}

/** The changes of one turn: every question answered, group answers merged into their change. */
function answerTurn(questions: readonly ServerQuestion[]): Record<string, unknown>[] {
  const changes: Record<string, unknown>[] = [];
  const merged = new Map<string, Record<string, unknown>>();
  const skipped = new Set<string>();
  const fill = (question: ServerQuestion, values: Record<string, unknown>): void => {
    if (question.fills === undefined) throw new Error(`${question.id} fills no change`);
    const key = JSON.stringify(question.fills.change);
    let change = merged.get(key);
    if (change === undefined) {
      change = structuredClone(question.fills.change);
      merged.set(key, change);
      changes.push(change);
    }
    for (const [field, value] of Object.entries(values)) setField(change, field, value);
  };
  for (const question of questions) {
    if (skipped.has(question.id)) continue;
    const fact = factFor(question);
    switch (fact.kind) {
      case "skip":
        changes.push({ kind: "decline-question", question: question.id });
        break;
      case "changes":
        changes.push(...fact.changes);
        break;
      case "value":
        fill(question, { [question.fills?.field ?? ""]: fact.value });
        break;
      case "choice": {
        const choices = question.answer.choices ?? question.answer.alternatives ?? [];
        const choice = choices.find((c) => c.value === fact.value);
        if (choice === undefined) throw new Error(`${question.id} offers no choice ${fact.value}`);
        changes.push(...choice.changes, ...(fact.form ?? []));
        if (choice.sets !== undefined) fill(question, choice.sets);
        break;
      }
    }
    for (const also of question.alsoChanges ?? [])
      if (!changes.some((c) => JSON.stringify(c) === JSON.stringify(also))) changes.push(also);
  }
  return changes;
}

// ---------------------------------------------------------------------------------------------

/** What write-data-model returned for the session, for the verification test. */
let written: { verification: { ran: boolean; ok: boolean; failed: string[] } } | undefined;
let writtenText = "";

describe("a food-delivery session over MCP (6 entities, 18 patterns, 20,000 GPS pings/s)", () => {
  it("reaches a written data model, verified pattern by pattern, in at most 15 tool calls in all", async () => {
    let calls = 0;
    const asked: string[] = [];
    let status = (await call("get-next-questions")).structuredContent as {
      questions: ServerQuestion[];
      ready: boolean;
      reasons: string[];
    };
    while (status.questions.length > 0) {
      expect(calls, `questions still open after ${calls} calls: ${asked.join(" | ")}`).toBeLessThan(15);
      const groups = new Set(status.questions.map((q) => q.group?.id ?? q.id));
      expect(groups.size, JSON.stringify(status.questions.map((q) => q.id))).toBeLessThanOrEqual(3);
      asked.push(status.questions.map((q) => q.id).join(","));
      const result = await call("update-requirements", { changes: answerTurn(status.questions) });
      calls += 1;
      expect(result.isError, `call ${calls}: ${text(result)}`).toBeFalsy();
      status = result.structuredContent as typeof status;
    }
    expect(status.ready, status.reasons.join("\n")).toBe(true);
    expect(calls).toBeLessThanOrEqual(15);
    // the turns the server asked for (12 when this was written): app, entities, patterns,
    // massive scale, sizes x2, relationships x2, cardinality, details, distribution, confirmation
    expect(asked.length).toBe(calls);

    // the massive-scale answers are in the workload, structured
    const workload = parse(readFileSync(join(dir, "workload.yaml"), "utf8")) as {
      entities: Record<
        string,
        { binning?: unknown; ttlSeconds?: number; attributes: Record<string, unknown> }
      >;
      accessPatterns: { id: string; bufferedRecords?: number; latencyMs?: number }[];
    };
    expect(workload.entities.CourierLocation?.binning).toEqual({ windowSeconds: 60 });
    expect(workload.entities.CourierLocation?.ttlSeconds).toBe(86_400);
    expect(workload.accessPatterns.find((p) => p.id === "C8")?.bufferedRecords).toBe(1);
    expect(workload.entities.Order?.attributes.courierId).toMatchObject({ presence: 0.9 });
    // a boolean's distinct values were not asked: they are implied
    expect(workload.entities.Restaurant?.attributes.isOpen).toMatchObject({ type: "boolean", distinct: 2 });
    expect(asked.join(",")).not.toContain("cardinality:Restaurant:isOpen");

    const result = await call("write-data-model");
    expect(result.isError, text(result)).toBeFalsy();
    const data = result.structuredContent as {
      files: string[];
      verification: {
        ran: boolean;
        ok: boolean;
        failed: string[];
        counts: { passed: number; failed: number };
      };
    };
    // the whole session: get-next-questions, the update-requirements turns, write-data-model
    expect(toolCalls).toBe(calls + 2);
    expect(toolCalls).toBeLessThanOrEqual(15);
    expect(data.files).toContain("cosmosdb_data_model.md");
    expect(data.verification.ran).toBe(true);
    const document = readFileSync(join(dir, "cosmosdb_data_model.md"), "utf8");
    expect(document).toContain("## Verification on a Cosmos DB Endpoint");
    // every pattern's result is in the document, a failure as a failure
    for (const pattern of PATTERNS)
      expect(document).toMatch(new RegExp(`\\| ${String(pattern.id)} \\| (read|write) \\| `));
    if (!data.verification.ok) {
      expect(document).toContain("FAILED");
      for (const id of data.verification.failed)
        expect(document).toMatch(new RegExp(`\\| ${id} \\| (read|write) \\| ❌ FAILED`));
    }
    expect(existsSync(join(dir, "model.yaml"))).toBe(true);
    written = data;
    writtenText = text(result);
    // A session of 20-30 s alone, which the rest of the suite running beside it on two cores can
    // more than double: twice the suite's default timeout.
  }, 120_000);

  // KNOWN FAILURE, in the design (not the session): the designed `orders` container is
  // partitioned by [/status, /restaurantId, /courierId], two of them attributes that C5 (a patch
  // of status and courierId) changes. A patch cannot move an item to another partition key
  // value: verify reports C5 "the patch of Order ... failed: ... does not exist", and the copies
  // kept from `orders` (orders-by-orderid, the orders in customers) keep the old courierId and
  // status, so Q5, Q6 (stale courierId), Q7 and Q8 (an order missing from its status) fail.
  // The design moves an order whose partition key values a write changes (issue 11), so every
  // pattern passes now.
  it("every access pattern passes verify on the embedded endpoint", () => {
    expect(written, "the session test did not write a model").toBeDefined();
    expect(written?.verification.failed, writtenText).toEqual([]);
  });
});
