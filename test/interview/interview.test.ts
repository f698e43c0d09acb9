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
    // the keys of every entity, one question
    await first.waitFor("Which attribute identifies one item of each entity?");
    await first.answer("Which attribute identifies one Customer", "customerId");
    await first.answer("Which attribute identifies one Order", "orderId");
    // the access patterns, one form after the other
    await first.keys("Read or write?", KEY.enter);
    await first.keys("Which entity?", KEY.down, KEY.enter);
    await first.answer("Describe it in a few words", "List a customer's orders");
    await first.answer("Filters as attribute:operator", "customerId:eq");
    await first.answer("Sort as attribute", "");
    await first.answer("At most how many items returned?", "");
    await first.answer("Average requests per second", ""); // not known yet: asked next turn
    await first.keys("Order.customerId is new: what type is it?", KEY.enter);
    await first.answer("Add another access pattern?", "n");
    await first.waitFor("Access pattern Q1 (read): List a customer's orders");
    // the rate: average and peak asked together; signs and ranges checked as typed
    await first.waitFor(
      "How many requests per second does Q1 (List a customer's orders) receive, on average and at peak?",
    );
    await first.answer("receive on average?", "-5");
    await first.waitFor("expected a number of at least 0, got -5");
    first.press(KEY.backspace, KEY.backspace);
    first.type("12");
    first.press(KEY.enter);
    await first.answer("And at peak", "1e99");
    await first.waitFor("at most 9,007,199,254,740,991");
    first.press(...Array.from({ length: 4 }, () => KEY.backspace));
    first.type("5");
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
    await first.answer("Average requests per second", "2");
    await first.answer("Peak requests per second", "10");
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
    await second.keys("What next?", ...Array.from({ length: 4 }, () => KEY.down), KEY.enter); // quit
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
    await run.keys("Do many records lack a value", KEY.enter); // none
    await run.keys("Must any of the writes", KEY.enter); // none
    await run.keys("Which consistency level", KEY.enter); // session
    await run.answer("In how many Azure regions", "1");
    await run.answer("For how many months ahead must the design hold", ""); // keep the file's
    await run.keys("Must every region accept writes", KEY.enter); // one write region
    await run.waitFor("You confirmed consistency, regions, the horizon and multi-region writes.");
    await run.keys("Is every read and write the application makes captured", KEY.enter);
    await run.waitFor("No open questions.");
    await run.keys("What next?", KEY.enter); // the default is the design
    await run.answer("Design the model and write cosmosdb_data_model.md and its artifacts now?", "");
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
    await run.keys("What next?", KEY.down, KEY.enter); // edit
    await run.keys("What do you want to change?", KEY.enter); // access patterns
    await run.keys("Access patterns", KEY.down, KEY.down, KEY.enter); // remove
    await run.keys("Which access pattern?", KEY.enter); // C1, the first
    await run.answer("Remove C1?", "y");
    await run.waitFor("Removed access pattern C1.");
    // without C1 nothing creates Account items: the session asks about it
    await run.waitFor("no write pattern that creates them");
    await run.keys("no write pattern that creates them", KEY.up, KEY.enter); // the menu
    await run.keys("What next?", KEY.down, KEY.enter); // edit
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
    await run.keys("What next?", KEY.down, KEY.enter); // edit
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
    await run.keys("What next?", ...Array.from({ length: 4 }, () => KEY.down), KEY.enter); // quit
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
