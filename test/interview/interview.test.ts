/**
 * End-to-end test of `cosmos-modeler interview`: the built CLI, driven as a user types. It
 * answers a few turns, kills the process in the middle of a question, starts it again and
 * checks that the session resumed with nothing lost, then goes on.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { CTRL_C, DOWN, ENTER, Terminal, ensureBuilt, root } from "./terminal.js";

beforeAll(() => ensureBuilt("cli/commands/interview.js"));

describe("cosmos-modeler interview", () => {
  it("answers a few turns, is killed mid-question, resumes with nothing lost, and refuses the design until complete", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interview-"));
    const first = new Terminal(["interview", "--dir", dir]);
    await first.waitFor("New modeling session");
    await first.answer("What next?", ENTER);
    await first.answer("What is the application called?", `Shop${ENTER}`);
    await first.answer("What is its domain", `e-commerce${ENTER}`);
    await first.answer("what business rules matter", ENTER); // optional: skipped
    await first.waitFor("1. What I learned:");
    await first.waitFor("Application name: Shop; domain: e-commerce.");
    await first.waitFor("2. Files updated:");
    await first.waitFor("4. Questions:");
    await first.answer("What next?", ENTER);
    await first.answer("Which kinds of items does the application store", `Customer, Order${ENTER}`);
    await first.answer("What next?", ENTER);
    await first.answer("Which attribute identifies one Customer", `customerId${ENTER}`);
    await first.answer("Which attribute identifies one Order", `orderId${ENTER}`);
    await first.answer("What next?", ENTER);
    await first.answer("Read or write?", ENTER);
    await first.answer("Which entity?", `${DOWN}${ENTER}`);
    await first.answer("Describe it in a few words", `List a customer's orders${ENTER}`);
    await first.answer("Filters as attribute:operator", `customerId:eq${ENTER}`);
    await first.answer("Sort as attribute", ENTER);
    await first.answer("At most how many items returned?", ENTER);
    await first.answer("Order.customerId is new: what type is it?", ENTER);
    await first.answer("What next?", ENTER);
    await first.answer("receive on average?", `oops${ENTER}`);
    await first.waitFor('"oops" is not a number');
    first.send(`${"\u007f".repeat(4)}12${ENTER}`);
    await first.answer("And at peak", `40/s${ENTER}`);
    await first.waitFor("Q1 (List a customer's orders), rate avg 12/s, peak 40/s.");
    // the next turn asks about reads without writes; kill the process in the middle of it
    await first.answer("What next?", ENTER);
    await first.waitFor("no write pattern that creates them");
    first.child.kill("SIGKILL");
    await first.exited;

    const workload = parse(readFileSync(join(dir, "workload.yaml"), "utf8")) as Record<string, unknown>;
    expect(workload).toMatchObject({
      name: "Shop",
      domain: "e-commerce",
      entities: {
        Customer: { key: "customerId" },
        Order: { key: "orderId", attributes: { customerId: "string" } },
      },
      accessPatterns: [
        { id: "Q1", type: "read", entity: "Order", where: { customerId: "eq" }, rps: { avg: 12, peak: 40 } },
      ],
    });
    const requirements = readFileSync(join(dir, "cosmosdb_requirements.md"), "utf8");
    expect(requirements).toContain("| Q1 | List a customer's orders | peak 40, avg 12 RPS | Read |");

    const second = new Terminal(["interview", "--dir", dir]);
    await second.waitFor("Resuming the session");
    await second.waitFor("(5 answers so far)");
    await second.waitFor("Q1 read Order List a customer's orders 12 40");
    await second.answer("What next?", ENTER);
    await second.answer("no write pattern that creates them", ENTER); // "Yes, add the write"
    await second.answer("Describe it in a few words", `Place an order${ENTER}`);
    await second.waitFor("Access pattern C1 (write): Place an order.");
    // the design is refused, with the reasons, while the checklist is open
    await second.answer("What next?", `${DOWN}${DOWN}${DOWN}${ENTER}`);
    await second.waitFor("The data model cannot be written yet:");
    await second.waitFor("rate unknown: C1");
    await second.answer("What next?", CTRL_C);
    await second.waitFor("Every answer so far is saved");
    expect(await second.exited).toBe(0);

    const after = parse(readFileSync(join(dir, "workload.yaml"), "utf8")) as { accessPatterns: unknown[] };
    expect(after.accessPatterns).toEqual([
      {
        id: "Q1",
        name: "List a customer's orders",
        type: "read",
        entity: "Order",
        where: { customerId: "eq" },
        rps: { avg: 12, peak: 40 },
      },
      { id: "C1", name: "Place an order", type: "write", operation: "create", entity: "Order" },
    ]);
  });

  it("continues an existing workload file, asks only what is open, then writes the data model", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interview-"));
    copyFileSync(join(root, "examples", "accounts-sessions", "workload.yaml"), join(dir, "workload.yaml"));
    const run = new Terminal(["interview", "--dir", dir]);
    await run.waitFor("Started from the existing workload.yaml.");
    await run.waitFor("Which consistency level does the application need");
    await run.answer("What next?", ENTER);
    await run.answer("Which consistency level", ENTER); // session
    await run.answer("In how many Azure regions", `1${ENTER}`);
    await run.answer("Must every region accept writes", ENTER); // one write region
    await run.waitFor("You confirmed consistency, regions and multi-region writes.");
    await run.answer("What next?", ENTER);
    await run.answer("Is every read and write the application makes captured", ENTER);
    await run.waitFor("Everything is captured and confirmed: design the model");
    await run.answer("What next?", ENTER); // the default is now the design
    await run.answer("Design the model and write cosmosdb_data_model.md and its artifacts now?", ENTER);
    await run.waitFor("Written in", 60_000);
    expect(await run.exited).toBe(0);
    expect(readFileSync(join(dir, "cosmosdb_data_model.md"), "utf8")).toContain(
      "# Azure Cosmos DB NoSQL Data Model: Accounts and sessions",
    );
    expect(existsSync(join(dir, "model.yaml"))).toBe(true);
    expect(existsSync(join(dir, "infra", "main.bicep"))).toBe(true);
  });

  it("edits and removes through the menu at any point, and quits from it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interview-"));
    copyFileSync(join(root, "examples", "accounts-sessions", "workload.yaml"), join(dir, "workload.yaml"));
    const run = new Terminal(["interview", "--dir", dir]);
    await run.answer("What next?", `${DOWN}${ENTER}`);
    await run.answer("What do you want to change?", ENTER); // access patterns
    await run.answer("Access patterns", `${DOWN}${DOWN}${ENTER}`); // remove
    await run.answer("Which access pattern?", ENTER); // C1, the first
    await run.answer("Remove C1?", `y${ENTER}`);
    await run.waitFor("Removed access pattern C1.");
    // without C1 nothing creates Account items: the engine asks about it
    await run.waitFor("no write pattern that creates them");
    await run.answer("What next?", `${DOWN}${ENTER}`);
    await run.answer("What do you want to change?", `${DOWN}${ENTER}`); // entities
    await run.answer("Entities", `${DOWN}${ENTER}`); // edit
    await run.answer("Which entity?", ENTER); // Account
    await run.answer("Change Account", ENTER); // item count
    await run.answer("New value", `25M${ENTER}`);
    await run.waitFor("Entity Account: 25,000,000 items.");
    await run.answer("What next?", `${DOWN}${DOWN}${DOWN}${DOWN}${ENTER}`); // quit
    await run.waitFor("Session saved");
    expect(await run.exited).toBe(0);
    const workload = parse(readFileSync(join(dir, "workload.yaml"), "utf8")) as {
      entities: { Account: { count: number } };
      accessPatterns: { id: string }[];
    };
    expect(workload.entities.Account.count).toBe(25_000_000);
    expect(workload.accessPatterns.map((p) => p.id)).not.toContain("C1");
    expect(workload.accessPatterns).toHaveLength(10);
  });

  it("stops with a clear message when workload.yaml was edited into an invalid file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interview-"));
    writeFileSync(
      join(dir, "workload.yaml"),
      "version: 1\nname: Edited\nentities:\n  User: { key: userId, count: -3 }\n",
    );
    const run = new Terminal(["interview", "--dir", dir]);
    expect(await run.exited).toBe(1);
    expect(run.errors).toContain("is not a valid workload file");
    expect(run.errors).toMatch(/workload\.yaml:4 entities\.User\.count/);
    expect(run.errors).not.toMatch(/\n\s+at /);
  });
});
