/**
 * End-to-end tests of `cosmos-modeler interview`, the built CLI driven in a real pseudo-terminal
 * (tmux) as a user types: numbers with signs and units checked against their range as they are
 * typed, an answer the session refuses asked again alone (the others of its question kept), no
 * menu between turns, Ctrl+C that keeps the half-answered question and exits 130, and a session
 * that resumes with nothing lost.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { KEY, PtyTerminal, tmuxAvailable } from "./pty-terminal.js";
import { ensureBuilt, root } from "./terminal.js";

const TMUX_MISSING = "tmux not found: install Debian's tmux package (apt-get install tmux), as .ci/run does";
const haveTmux = tmuxAvailable();
if (!haveTmux) console.warn(`interview tests skipped: ${TMUX_MISSING}`);

beforeAll(() => ensureBuilt("cli/commands/interview.js"));

const terminals: PtyTerminal[] = [];
function terminal(args: readonly string[]): PtyTerminal {
  const created = new PtyTerminal(args);
  terminals.push(created);
  return created;
}
afterEach(() => {
  for (const t of terminals.splice(0)) t.close();
});

function workloadOf(dir: string): Record<string, unknown> {
  return parse(readFileSync(join(dir, "workload.yaml"), "utf8")) as Record<string, unknown>;
}

describe.skipIf(!haveTmux)("cosmos-modeler interview in a terminal", () => {
  it("checks numbers as typed, asks a refused answer again alone, keeps a half-answered question on Ctrl+C (exit 130) and resumes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interview-"));
    const first = terminal(["interview", "--dir", dir]);
    await first.waitFor("New modeling session");
    // no menu before the first turn: the questions start at once
    await first.answer("What is the application called?", "Shop");
    await first.answer("What is its domain", "e-commerce");
    await first.answer("what business rules matter", ""); // optional: skipped
    await first.waitFor("1. What I learned:");
    await first.waitFor("Application name: Shop; domain: e-commerce.");
    await first.answer("Which kinds of items does the application store", "Customer, Order");
    // the keys of every entity, one question with a suggestion taken with Enter; "n" asks each
    await first.waitFor("Which attribute identifies one item of each entity?");
    await first.answer("Keep customerId for Customer, orderId for Order?", "n");
    await first.answer("Which attribute identifies one Customer", ""); // the suggested customerId
    await first.answer("Which attribute identifies one Order", "orderId");
    // the access patterns, one line each; "?" opens the step-by-step form
    await first.answer("Access pattern 1", "?");
    await first.keys("Read or write?", KEY.enter);
    await first.keys("Which entity?", KEY.down, KEY.enter);
    await first.answer("Describe it in a few words", "List a customer's orders");
    await first.answer("Filters as attribute:operator", "customerId:eq");
    await first.answer("Sort as attribute", "");
    await first.answer("At most how many items returned?", "");
    await first.answer("Average and peak requests per second", ""); // not known yet: asked next turn
    await first.answer("Order: customerId is new", ""); // the suggested type (string, as Customer's key)
    await first.answer("Access pattern 2 (blank when done)", "");
    await first.waitFor("Access pattern Q1 (read): List a customer's orders");
    // the rate: average and peak on one line; signs and ranges checked as typed, part by part
    await first.waitFor(
      "How many requests per second does Q1 (List a customer's orders) receive, on average and at peak?",
    );
    await first.answer("Answers 1-2", "-5, 1e99");
    await first.waitFor("1 (average): expected a number of at least 0, got -5");
    await first.waitFor("at most 9,007,199,254,740,991");
    first.press(...Array.from({ length: 9 }, () => KEY.backspace));
    first.type("12, 5");
    first.press(KEY.enter);
    // the session refuses a peak below the average: only the peak is asked again
    await first.waitFor("the peak rate (5/s) is below the average (12/s): asked again");
    await first.answer("And at peak", "40/s");
    await first.waitFor("Q1 (List a customer's orders), rate avg 12/s, peak 40/s.");
    // every read without a write (and entity without a pattern) at once; answer the first,
    // then press Ctrl+C in the middle of the second
    await first.waitFor("Some reads have no write that creates their items, or writes are never read:");
    await first.keys("no write pattern that creates them", KEY.enter); // "Yes, add the write"
    await first.answer("Describe it in a few words", "Place an order");
    await first.answer("Average and peak requests per second", "2, 10");
    await first.keys("No access pattern reads or writes Customer items yet", KEY.ctrlC);
    await first.waitFor("Interrupted. Every answer so far is saved");
    expect(await first.exited()).toBe(130);

    const workload = workloadOf(dir);
    expect(workload).toMatchObject({
      name: "Shop",
      domain: "e-commerce",
      entities: {
        Customer: { key: "customerId" },
        Order: { key: "orderId", attributes: { customerId: "string" } },
      },
    });
    // the half-answered question's answer is kept
    expect(workload.accessPatterns).toEqual([
      {
        id: "Q1",
        name: "List a customer's orders",
        type: "read",
        entity: "Order",
        where: { customerId: "eq" },
        rps: { avg: 12, peak: 40 },
      },
      {
        id: "C1",
        name: "Place an order",
        type: "write",
        operation: "create",
        entity: "Order",
        rps: { avg: 2, peak: 10 },
      },
    ]);
    expect(readFileSync(join(dir, "cosmosdb_requirements.md"), "utf8")).toContain(
      "| Q1 | List a customer's orders | peak 40, avg 12 RPS | Read |",
    );

    const second = terminal(["interview", "--dir", dir]);
    await second.waitFor("Resuming the session");
    await second.waitFor("Q1 read Order List a customer's orders 12 40");
    // only the open part is asked again; the menu is a choice of the question
    await second.keys("No access pattern reads or writes Customer items yet", KEY.up, KEY.enter);
    await second.keys("What next?", ...Array.from({ length: 5 }, () => KEY.down), KEY.enter); // quit
    await second.waitFor("Session saved");
    expect(await second.exited()).toBe(0);
    expect(workloadOf(dir).accessPatterns).toHaveLength(2);
  });

  it("continues an existing workload file, asks only what is open, then verifies and writes the data model", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interview-"));
    copyFileSync(join(root, "examples", "accounts-sessions", "workload.yaml"), join(dir, "workload.yaml"));
    const run = terminal(["interview", "--dir", dir]);
    await run.waitFor("Started from the existing workload.yaml.");
    await run.keys("How do the reads of Session by accountId spread over the Accounts?", KEY.enter); // evenly
    // every question of the turn has a suggested answer: one prompt takes them all
    await run.waitFor("Do many records lack a value");
    await run.answer("no sparse attributes, no writes that commit together?", ""); // yes
    // the suggested answers, taken together with Enter (n asks each)
    await run.answer("Keep session consistency", "n");
    await run.keys("Which consistency level", KEY.enter); // session
    await run.answer("In how many Azure regions", "1"); // one region: multi-region writes not asked
    await run.answer("For how many months ahead must the design hold", ""); // keep the file's
    await run.waitFor("You confirmed consistency, regions, the horizon and multi-region writes.");
    // confirming the last open question starts the design at once
    await run.keys("Is every read and write the application makes captured", KEY.enter);
    await run.waitFor("No open questions.");
    await run.waitFor("Verified on the embedded Cosmos DB endpoint", 120_000);
    await run.waitFor("Written in", 60_000);
    expect(await run.exited()).toBe(0);
    const document = readFileSync(join(dir, "cosmosdb_data_model.md"), "utf8");
    expect(document).toContain("# Azure Cosmos DB NoSQL Data Model: Accounts and sessions");
    expect(document).toContain("## Verification on a Cosmos DB Endpoint");
    expect(existsSync(join(dir, "model.yaml"))).toBe(true);
    expect(existsSync(join(dir, "infra", "main.bicep"))).toBe(true);
  });

  it("edits and removes through the menu, reached from a question", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interview-"));
    copyFileSync(join(root, "examples", "accounts-sessions", "workload.yaml"), join(dir, "workload.yaml"));
    const run = terminal(["interview", "--dir", dir]);
    // the menu is the last choice of a question (or /menu typed at a text question)
    await run.keys("spread over the Accounts?", KEY.up, KEY.enter);
    await run.keys("What next?", KEY.down, KEY.down, KEY.enter); // edit
    await run.keys("What do you want to change?", KEY.enter); // access patterns
    await run.keys("Access patterns", KEY.down, KEY.down, KEY.enter); // remove
    await run.keys("Which access pattern?", KEY.enter); // C1, the first
    await run.answer("Remove C1?", "y");
    await run.waitFor("Removed access pattern C1.");
    // without C1 nothing creates Account items: the session asks about it
    await run.waitFor("no write pattern that creates them");
    await run.keys("no write pattern that creates them", KEY.up, KEY.enter); // the menu
    await run.keys("What next?", KEY.down, KEY.down, KEY.enter); // edit
    await run.keys("What do you want to change?", KEY.down, KEY.enter); // entities
    await run.keys("Entities", KEY.down, KEY.enter); // edit
    await run.keys("Which entity?", KEY.enter); // Account
    await run.keys("Change Account", KEY.enter); // item count
    await run.answer("New value", "0");
    await run.waitFor("expected a number more than 0, got 0");
    run.press(KEY.backspace);
    run.type("25M");
    run.press(KEY.enter);
    await run.waitFor("Entity Account: 25,000,000 items.");
    // an attribute's distinct values, uniqueness and how often writes change it
    await run.keys("no write pattern that creates them", KEY.up, KEY.enter);
    await run.keys("What next?", KEY.down, KEY.down, KEY.enter); // edit
    await run.keys("What do you want to change?", KEY.down, KEY.enter); // entities
    await run.keys("Entities", KEY.down, KEY.enter); // edit
    await run.keys("Which entity?", KEY.enter); // Account
    await run.keys("Change Account", ...Array.from({ length: 8 }, () => KEY.down), KEY.enter); // an attribute
    await run.keys("Which attribute?", KEY.down, KEY.down, KEY.down, KEY.enter); // displayName
    await run.answer("Distinct values (blank to keep)", "1000");
    await run.answer("Unique across all items?", "n");
    await run.keys("How often do writes change it?", KEY.down, KEY.down, KEY.enter); // frequent
    await run.waitFor("Attribute Account.displayName");
    await run.keys("no write pattern that creates them", KEY.up, KEY.enter);
    await run.keys("What next?", ...Array.from({ length: 5 }, () => KEY.down), KEY.enter); // quit
    await run.waitFor("Session saved");
    expect(await run.exited()).toBe(0);
    const workload = workloadOf(dir) as {
      entities: { Account: { count: number; attributes: Record<string, unknown> } };
      accessPatterns: { id: string }[];
    };
    expect(workload.entities.Account.count).toBe(25_000_000);
    expect(workload.entities.Account.attributes.displayName).toMatchObject({
      distinct: 1000,
      changes: "frequent",
    });
    expect(workload.accessPatterns.map((p) => p.id)).not.toContain("C1");
  });

  it("takes a person through a 3-entity, 6-pattern application in at most 25 prompts, to a verified data model", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interview-"));
    const run = terminal(["interview", "--dir", dir]);
    await run.answer("What is the application called?", "Library");
    await run.answer("What is its domain", "library lending");
    await run.answer("what business rules matter", "");
    // the entities with their keys, as people write them (was refused, the error printed 3 times)
    await run.answer(
      "Which kinds of items does the application store",
      "Member (memberId), Book (bookId), Loan (loanId)",
    );
    await run.waitFor("Entity Loan: key loanId.");
    // one line per access pattern; a point read is not asked for an order or a limit
    await run.answer("Access pattern 1", "get Book by bookId, 50/s peak 200/s");
    await run.answer(
      "Access pattern 2",
      "A member's loans: list Loan by memberId, sorted by dueAt desc, limit 20, 12/s peak 40/s",
    );
    await run.waitFor("Loan.memberId: string, like the key of the entity it names");
    await run.answer("Loan: dueAt is new", ""); // the suggested dueAt:datetime
    await run.answer("Access pattern 3", "get Member by memberId, 5/s peak 20/s");
    await run.answer("Access pattern 4", "Join: create Member, 0.1/s peak 1/s");
    await run.answer("Access pattern 5", "Add a book: create Book, 0.5/s peak 2/s");
    await run.answer("Access pattern 6", "Borrow: create Loan, 2/s peak 10/s");
    await run.answer("Access pattern 7 (blank when done)", "");
    // an entity's count, size, growth and retention on one line
    await run.waitFor("Member: how many items");
    const before = readFileSync(join(dir, "cosmosdb_requirements.md"), "utf8");
    await run.answer("Answers 1-4", "50k, 1 KB, 500");
    // the files are rewritten after every answer, not once per turn
    await run.waitFor("Book: how many items");
    expect((workloadOf(dir).entities as Record<string, unknown>).Member).toMatchObject({ count: 50_000 });
    expect(readFileSync(join(dir, "cosmosdb_requirements.md"), "utf8")).not.toBe(before);
    await run.answer("Answers 1-4", "200k, 2 KB, 1k");
    await run.answer("Answers 1-4", "1M, 500 B, 20k");
    // one value changed in one prompt, at any text question
    await run.keys("How are they related?", KEY.enter); // each Member has many Loans
    await run.answer("Answers 1-2", "/set Book count 250k");
    await run.waitFor("Entity Book: 250,000 items.");
    await run.answer("Answers 1-2", "5, unbounded");
    await run.keys("Can a Loan exist without its Member", KEY.enter); // it belongs to its Member
    await run.keys("spread over the Members?", KEY.enter); // evenly
    // the details and the distribution: their suggested answers, one prompt each
    await run.answer("Keep no latency target, no sparse attributes, no writes that commit together?", "");
    await run.waitFor("Writes that commit together: each write stands alone."); // "no", not "skipped"
    await run.answer("Keep session consistency, 1 region, a 12-month horizon, one write region?", "");
    // confirming that every pattern is captured starts the design at once
    await run.keys("Is every read and write the application makes captured", KEY.enter);
    await run.waitFor("Verified on the embedded Cosmos DB endpoint: 6 of 6 access patterns passed", 120_000);
    await run.waitFor("Written in", 60_000);
    await run.waitFor("src/data-access-runtime/ (");
    expect(await run.exited()).toBe(0);
    expect(run.prompts).toBeLessThanOrEqual(25);
    expect(run.output).not.toContain("Skipped question");
    const workload = workloadOf(dir) as {
      entities: Record<string, { key: unknown; count: number }>;
      accessPatterns: Record<string, unknown>[];
    };
    expect(workload.entities.Book).toMatchObject({ key: "bookId", count: 250_000 });
    expect(workload.accessPatterns.find((p) => p.id === "Q2")).toEqual({
      id: "Q2",
      name: "A member's loans",
      type: "read",
      entity: "Loan",
      where: { memberId: "eq" },
      orderBy: { dueAt: "desc" },
      limit: 20,
      rps: { avg: 12, peak: 40 },
    });
    expect(readFileSync(join(dir, "cosmosdb_data_model.md"), "utf8")).toContain(
      "# Azure Cosmos DB NoSQL Data Model: Library",
    );
  });

  it("stops with a clear message when workload.yaml was edited into an invalid file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interview-"));
    writeFileSync(
      join(dir, "workload.yaml"),
      "version: 1\nname: Edited\nentities:\n  User: { key: userId, count: -3 }\n",
    );
    const run = terminal(["interview", "--dir", dir]);
    expect(await run.exited()).toBe(1);
    expect(run.output).toContain("is not a valid workload file");
    expect(run.output).toMatch(
      /workload\.yaml:4 entities\.User\.count: expected a number more than 0, got -3/,
    );
    expect(run.output).not.toMatch(/\n\s+at /);
  });
});
