/**
 * The generated data-access code of the write-path reproducers (test/fixtures/writes/) on the
 * embedded endpoint: what the functions return and which items they leave behind, and how many
 * requests they make against what the plan costs (the embedded endpoint charges 1 RU per
 * request, so a request charge is a request count there).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TOMBSTONE_PROPERTY } from "../model/deletes.js";
import { renderDataAccessFiles } from "../render/code/render-data-access.js";
import { importGenerated, loadWriteFixture, type LoadedExample } from "../test-support/generated-module.js";
import { deployModel, type Deployment } from "./deploy.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "./endpoint.js";

interface Result {
  readonly items?: Record<string, unknown>[];
  readonly item?: Record<string, unknown>;
  readonly changes?: unknown[];
  readonly requestCharge: number;
}
type Access = Record<string, (input: unknown, related?: unknown) => Promise<Result>>;

interface Fixture {
  readonly example: LoadedExample;
  readonly deployment: Deployment;
  readonly call: (name: string, input: unknown, related?: unknown) => Promise<Result>;
  /** Every item of a container, by a query (not counted as a request of the code under test). */
  readonly itemsOf: (container: string) => Promise<Record<string, unknown>[]>;
}

let endpoint: CosmosEndpoint | undefined;
const deployments: Deployment[] = [];

beforeAll(async () => {
  endpoint = await startEmbeddedEndpoint();
}, 30_000);

afterAll(async () => {
  for (const deployment of deployments) await deployment.remove();
  await endpoint?.close();
});

async function openFixture(name: string): Promise<Fixture> {
  if (endpoint === undefined) throw new Error("no endpoint");
  const example = loadWriteFixture(name);
  const deployment = await deployModel(endpoint.client, example.model);
  deployments.push(deployment);
  const module = await importGenerated(
    `writes-${name}`,
    renderDataAccessFiles(example.workload, example.model, example.plans),
  );
  const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
  let turn = 0;
  const access = create(deployment.database, {
    transactionalBatch: false,
    random: () => (turn++ % 4) / 4,
  });
  return {
    example,
    deployment,
    call: (fn, input, related) => {
      const found = access[fn];
      if (found === undefined) throw new Error(`no function ${fn} in ${Object.keys(access).join(", ")}`);
      return found(input, related);
    },
    itemsOf: async (container) => {
      const cosmos = deployment.containers.get(container);
      if (cosmos === undefined) throw new Error(`no container ${container}`);
      const { resources } = await cosmos.items.query<Record<string, unknown>>("SELECT * FROM c").fetchAll();
      return resources;
    },
  };
}

describe("select and truncate (sel.yaml)", () => {
  it("a point read returns only the selected attributes; a query cuts in the SQL and to bytes", async () => {
    const fixture = await openFixture("sel");
    const customer = {
      customerId: "c1",
      name: "Ann",
      email: "ann@example.com",
      passwordHash: "secret-hash",
      bio: "é".repeat(80),
      city: "Lyon",
    };
    await fixture.call("c1SignUp", customer);
    const card = await fixture.call("q2CustomerCard", { customerId: "c1" });
    expect(card.item).toEqual({ id: "c1", customerId: "c1", name: "Ann", email: "ann@example.com" });
    // Still one point read, charged for the whole item.
    expect(card.requestCharge).toBe(1);
    const city = await fixture.call("q1CustomersInCity", { city: "Lyon" });
    // 80 two-byte characters cut to 100 bytes: 50 characters, never half of one.
    expect(city.items).toEqual([{ id: "c1", customerId: "c1", name: "Ann", bio: "é".repeat(50) }]);
  }, 60_000);

  it("the query asks for LEFT(bio) and the selected properties only", () => {
    const plan = loadWriteFixture("sel").plans.find((p) => p.patternId === "Q1");
    const first = plan?.operations[0];
    expect(first?.kind === "query" ? first.sql : "").toBe(
      "SELECT c.id, c.customerId, c.name, LEFT(c.bio, @bioChars) AS bio FROM c WHERE c.type = @type AND c.city = @city",
    );
    // The pattern's limit is the page size (a continuation token gives the next page), not a TOP.
    expect(first?.kind === "query" ? first.pageSize : undefined).toBe(50);
  });
});

/**
 * Items that are not soft-delete tombstones (the model's default `deletes: softDelete` turns the
 * old item of a move into one: a patch of `deleted` and a ttl, which the change feed carries).
 */
function live(items: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return items.filter((item) => item[DEFAULT_TOMBSTONE_PROPERTY] !== true);
}

/** Items of a container whose `type` is `itemType`, by id. */
function byId(
  items: readonly Record<string, unknown>[],
  itemType: string,
): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    items.filter((item) => item["type"] === itemType).map((item) => [item["id"], item]),
  );
}

describe("a write that changes the partition key (status.yaml)", () => {
  it("moves the ticket (create, then delete) instead of patching its key, and keeps its copy", async () => {
    const fixture = await openFixture("status");
    const ticket = { ticketId: "t1", status: "open", createdAt: "2026-11-24T10:00:00Z" };
    await fixture.call("applyChanges", (await fixture.call("c1OpenTicket", ticket)).changes);
    const moved = await fixture.call("w1ChangeStatus", { ticketId: "t1", status: "closed" });
    // The plan's requests for a moved record: the copy, the ticket, the create and the delete.
    const plan = fixture.example.plans.find((p) => p.patternId === "W1");
    const reads = plan?.operations.filter((step) => step.kind === "pointRead") ?? [];
    expect(reads.map((step) => step.container)).toEqual(["tickets-by-ticketid", "tickets"]);
    expect(moved.requestCharge).toBe(reads.length + 2);
    const tickets = await fixture.itemsOf("tickets");
    expect(live(tickets).map((item) => [item["id"], item["status"]])).toEqual([["t1", "closed"]]);
    // The old ticket is a tombstone until its ttl, so the latest-version feed sees its removal.
    expect(
      tickets.filter((item) => item[DEFAULT_TOMBSTONE_PROPERTY] === true).map((item) => item["status"]),
    ).toEqual(["open"]);
    await fixture.call("applyChanges", moved.changes);
    // The copy keyed by ticketId holds the new status: the old ticket's delete did not remove it.
    const copies = byId(await fixture.itemsOf("tickets-by-ticketid"), "ticket");
    expect(Object.keys(copies)).toEqual(["t1"]);
    expect(copies["t1"]?.["status"]).toBe("closed");
    expect((await fixture.call("q2TicketById", { ticketId: "t1" })).item).toMatchObject({ status: "closed" });
    // The same status again: found the same way, and nothing else to write (W1 changes only the key).
    const same = await fixture.call("w1ChangeStatus", { ticketId: "t1", status: "closed" });
    // The only patch W1 plans is the old ticket's tombstone (no in-place write of the status).
    expect(
      plan?.operations.filter(
        (step) => step.kind === "write" && step.operation === "patch" && !step.note.startsWith("soft delete"),
      ),
    ).toEqual([]);
    expect(same.requestCharge).toBe(reads.length);
    expect(live(await fixture.itemsOf("tickets")).length).toBe(1);
    // Back to "open": the create at the old address replaces the tombstone there (a live ticket
    // again, without the tombstone property), and the "closed" ticket becomes the tombstone.
    const reopened = await fixture.call("w1ChangeStatus", { ticketId: "t1", status: "open" });
    await fixture.call("applyChanges", reopened.changes);
    const back = await fixture.itemsOf("tickets");
    expect(live(back).map((item) => [item["id"], item["status"], item["ttl"]])).toEqual([
      ["t1", "open", undefined],
    ]);
    expect(
      back.filter((item) => item[DEFAULT_TOMBSTONE_PROPERTY] === true).map((item) => item["status"]),
    ).toEqual(["closed"]);
    expect((await fixture.call("q2TicketById", { ticketId: "t1" })).item).toMatchObject({ status: "open" });
  }, 60_000);

  it("finds the ticket by a query when its copy lags, and refuses a ticket that does not exist", async () => {
    const fixture = await openFixture("status");
    // Written without its change-feed work: the copy does not exist yet.
    await fixture.call("c1OpenTicket", { ticketId: "t2", status: "open", createdAt: "2026-11-24T10:00:00Z" });
    const moved = await fixture.call("w1ChangeStatus", { ticketId: "t2", status: "pending" });
    // The copy (missing), the query, the create and the delete.
    expect(moved.requestCharge).toBe(4);
    expect(live(await fixture.itemsOf("tickets")).map((item) => item["status"])).toEqual(["pending"]);
    await expect(fixture.call("w1ChangeStatus", { ticketId: "none", status: "open" })).rejects.toMatchObject({
      code: "notFound",
    });
  }, 60_000);
});

describe("a copy keyed by an attribute writes change (esc.yaml)", () => {
  it("moves the copy: the old one under the previous escalatedTo is found and deleted", async () => {
    const fixture = await openFixture("esc");
    const complaint = {
      complaintId: "k1",
      customerId: "c1",
      escalatedTo: "e1",
      createdAt: "2026-11-24T10:00:00Z",
    };
    await fixture.call("applyChanges", (await fixture.call("c1FileComplaint", complaint)).changes);
    const escalated = await fixture.call("w1Escalate", { complaintId: "k1", escalatedTo: "e2" });
    const maintained = await fixture.call("applyChanges", escalated.changes);
    const copies = (await fixture.itemsOf("complaints-by-escalatedto")).map((item) => [
      item["id"],
      item["escalatedTo"],
    ]);
    expect(copies).toEqual([["k1", "e2"]]);
    // Both copies upserted, the search for the old copy and its delete: what the plan lists.
    const plan = fixture.example.plans.find((p) => p.patternId === "W1");
    const planned = plan?.type === "write" ? plan.async.flatMap((step) => step.steps) : [];
    expect(planned.map((step) => step.kind)).toEqual(["write", "write", "query", "write"]);
    expect(maintained.requestCharge).toBe(planned.length);
    expect((await fixture.call("q2ComplaintsEscalatedTo", { escalatedTo: "e1" })).items).toEqual([]);
  }, 60_000);

  it("a change the feed reports without its kind (latest version) searches once and keeps the copy", async () => {
    const fixture = await openFixture("esc");
    const complaint = {
      complaintId: "k2",
      customerId: "c1",
      escalatedTo: "e1",
      createdAt: "2026-11-24T10:00:00Z",
    };
    const written = await fixture.call("c1FileComplaint", complaint);
    const asFeed = (written.changes ?? []).map((change) => ({ ...(change as object), kind: "upsert" }));
    const maintained = await fixture.call("applyChanges", asFeed);
    // Two copies created (201), one search for an old copy under another escalatedTo.
    expect(maintained.requestCharge).toBe(3);
    expect((await fixture.itemsOf("complaints-by-escalatedto")).map((item) => item["id"])).toEqual(["k2"]);
  }, 60_000);
});

describe("binned writes as the plan costs them (gps.yaml)", () => {
  it("a record is one patch of its bucket; a new bucket a 404 and a create; 12 buffered records two patches", async () => {
    const fixture = await openFixture("gps");
    const ping = (n: number, at: string) => ({
      pingId: `p${n}`,
      vehicleId: "v1",
      at,
      lat: 48.8,
      lon: 2.3,
    });
    const first = await fixture.call("c1Ping", ping(1, "2026-11-24T10:00:05Z"));
    expect(first.requestCharge).toBe(2); // the append finds no bucket (404), then the create
    const second = await fixture.call("c1Ping", ping(2, "2026-11-24T10:00:10Z"));
    expect(second.requestCharge).toBe(1); // one patch appends it
    const buffered = Array.from({ length: 12 }, (_, i) =>
      ping(10 + i, `2026-11-24T10:01:${String(10 + i)}Z`),
    );
    const appended = await fixture.call("c1Ping", buffered[0], { bucketRecords: buffered });
    expect(appended.requestCharge).toBe(2); // 12 records, at most 10 per patch
    const buckets = await fixture.itemsOf("pings");
    expect(buckets).toHaveLength(1);
    expect((buckets[0]?.["records"] as unknown[]).length).toBe(14);
    // Two writers append the first records of a new bucket at once: both find it missing, one
    // creates it, the other's create answers 409 and it appends: both records land, once.
    await Promise.all([
      fixture.call("c1Ping", ping(30, "2026-11-24T11:00:01Z")),
      fixture.call("c1Ping", ping(31, "2026-11-24T11:00:02Z")),
    ]);
    const raced = (await fixture.itemsOf("pings")).find((item) => item["at"] === "2026-11-24T11:00:00Z");
    expect((raced?.["records"] as { pingId: string }[]).map((r) => r.pingId).sort()).toEqual(["p30", "p31"]);
    // The plan states the same requests per record: a patch, and per bucket a 404 and a create.
    const plan = fixture.example.plans.find((p) => p.patternId === "C1");
    expect(plan?.operations.map((s) => (s.kind === "write" ? s.operation : s.kind))).toEqual([
      "patch",
      "pointRead",
      "create",
    ]);
  }, 60_000);
});

describe("a deleted parent's copies (parentdel.yaml)", () => {
  it("the orders of a closed account stay and read its priority as null, as the oracle answers", async () => {
    const fixture = await openFixture("parentdel");
    // The plan: the delete is a tombstone (the account carries its deletes to the copies), then
    // a query for the account's orders and a patch of each (5 per account, the relationship's avg).
    const plan = fixture.example.plans.find((p) => p.patternId === "W1");
    if (plan?.type !== "write") throw new Error("no write plan W1");
    expect(plan.operations.map((s) => (s.kind === "write" ? s.operation : s.kind))).toEqual(["patch"]);
    expect(plan.async.map((s) => [s.reason, s.itemType])).toEqual([["propagate", "order"]]);
    const [find, patch] = plan.async[0]?.steps ?? [];
    expect(find).toMatchObject({ kind: "query", times: 1, returned: 5 });
    expect(patch).toMatchObject({ kind: "write", operation: "patch", times: 5, sets: ["accountPriority"] });
    expect(plan.async[0]?.ru.estimate).toBeCloseTo(
      (find?.ru.estimate ?? 0) * 1 + (patch?.ru.estimate ?? 0) * 5,
      9,
    );

    const account = { accountId: "a1", priority: "high" };
    await fixture.call("applyChanges", (await fixture.call("c1OpenAccount", account)).changes);
    for (const orderId of ["o1", "o2"]) {
      const placed = await fixture.call("c2PlaceOrder", { orderId, accountId: "a1", amount: 3 });
      await fixture.call("applyChanges", placed.changes);
    }
    const read = async (orderId: string) =>
      (await fixture.call("q1OrderWithItsAccountsPriority", { orderId })).item?.["accountPriority"];
    expect(await read("o1")).toBe("high");
    const closed = await fixture.call("w1CloseAccount", account);
    const maintained = await fixture.call("applyChanges", closed.changes);
    // One query and one patch per order: the requests the plan lists for this account.
    expect(maintained.requestCharge).toBe(1 + 2);
    expect(await read("o1")).toBeNull();
    expect(await read("o2")).toBeNull();
    // Delivered again (at least once): the same null, no error.
    await fixture.call("applyChanges", closed.changes);
    expect(await read("o2")).toBeNull();
    // An order placed after the close copies nothing from the account's tombstone.
    await fixture.call("c2PlaceOrder", { orderId: "o3", accountId: "a1", amount: 4 });
    expect(await read("o3")).toBeNull();
    expect(live(await fixture.itemsOf("orders")).map((item) => item["id"])).toEqual(["o1", "o2", "o3"]);
  }, 60_000);
});

describe("a lookup item followed by the complete record and a parent's attribute (lookup.yaml, issue 11 6/0)", () => {
  it("reads the whole Item the lookup points to, and the Account.region of that Item's account", async () => {
    const fixture = await openFixture("lookup");
    const plan = fixture.example.plans.find((p) => p.patternId === "Q11");
    if (plan?.type !== "read") throw new Error("no read plan Q11");
    const [first, complete, region] = plan.operations;
    expect(first).toMatchObject({ itemType: "categoryLookup" });
    // Not by the id alone (the Item's key is its account): a query per lookup, of the whole item.
    expect(complete).toMatchObject({ kind: "query", itemType: "item", perResult: true });
    expect(complete?.kind === "query" ? complete.sql : "").toMatch(/^SELECT \* FROM c WHERE/);
    expect(region).toMatchObject({ itemType: "account", withEntry: "Account.region" });

    const account = { accountId: "a1", region: "west", priority: "p1" };
    await fixture.call("applyChanges", (await fixture.call("c1UpsertAccount", account)).changes);
    const item = { itemId: "item-1", accountId: "a1", category: 2, body: "2026-11-25T00:00:00Z" };
    await fixture.call("applyChanges", (await fixture.call("c9CreateItem", item)).changes);
    const read = await fixture.call("q11ReadItemByItemIdAndCategory", { itemId: "item-", category: 2 });
    expect(read.items).toEqual([
      { category: 2, accountId: "a1", body: item.body, itemId: "item-1", id: "item-item-1" },
    ]);
    // The account's region found from the complete Item (the lookup item has no accountId).
    const followUps = (read as unknown as { followUps: { itemType: string; items: unknown[] }[] }).followUps;
    expect(followUps.find((f) => f.itemType === "account")?.items).toEqual([
      { accountId: "a1", region: "west" },
    ]);
  }, 60_000);
});

describe("a counted child moved to another parent (countmove.yaml, issue 26)", () => {
  it("the bins' counters follow an item moved between them: kept from the change feed, not in a batch", async () => {
    const fixture = await openFixture("countmove");
    // Items move between bins, so no write batches a bin's counter: the feed's handler counts.
    for (const id of ["C2", "C3", "W4"]) {
      const plan = fixture.example.plans.find((p) => p.patternId === id);
      expect(plan?.type === "write" ? plan.operations.map((step) => step.kind) : []).not.toContain("batch");
      expect(plan?.type === "write" ? plan.async.map((step) => step.reason) : []).toEqual(["counter"]);
    }
    const run = async (fn: string, input: unknown): Promise<void> => {
      await fixture.call("applyChanges", (await fixture.call(fn, input)).changes);
    };
    const count = async (binId: string): Promise<unknown> =>
      (await fixture.call("q5ABinWithItsItemCount", { binId })).item?.["stockItemCount"];
    await run("c1AddABin", { binId: "b1", aisle: "a" });
    await run("c1AddABin", { binId: "b2", aisle: "a" });
    await run("c2PutAwayAnItem", { stockItemId: "i1", binId: "b1", sku: "s" });
    await run("c2PutAwayAnItem", { stockItemId: "i2", binId: "b1", sku: "s" });
    expect([await count("b1"), await count("b2")]).toEqual([2, 0]);
    await run("w4MoveAnItemToAnotherBin", { stockItemId: "i1", binId: "b2" });
    expect([await count("b1"), await count("b2")]).toEqual([1, 1]);
    await run("c3PickAnItem", { stockItemId: "i1", binId: "b2" });
    expect([await count("b1"), await count("b2")]).toEqual([1, 0]);
  }, 60_000);
});
