/**
 * End-to-end test of the interview's search forms (issue 31), the built CLI in a real
 * pseudo-terminal (tmux): a vector search read made with the step-by-step pattern form (its k
 * refused out of range as typed, then the suggested answers), its k changed with "Change one
 * value", and workload.yaml and cosmosdb_requirements.md listing the search as changed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { KEY, PtyTerminal, tmuxAvailable } from "./pty-terminal.js";
import { ensureBuilt } from "./terminal.js";

const haveTmux = tmuxAvailable();
if (!haveTmux) console.warn("interview search test skipped: tmux not found (apt-get install tmux)");

beforeAll(() => ensureBuilt("cli/commands/interview.js"));

const terminals: PtyTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.close();
});

/** Chunks with an embedding, written by one pattern and read by none yet. */
const WORKLOAD = `version: 1
name: Docs search
domain: retrieval for a support assistant
scale: { regions: 1, consistency: session, horizonMonths: 12 }
entities:
  Chunk:
    key: chunkId
    count: 100000
    avgBytes: 36000
    attributes:
      chunkId: string
      tenantId: { type: string, distinct: 100 }
      embedding: { type: array, vector: { dimensions: 1536, dataType: float32, distance: cosine } }
accessPatterns:
  - { id: C1, name: Ingest a chunk, type: write, operation: create, entity: Chunk, rps: { avg: 5, peak: 20 } }
`;

describe.skipIf(!haveTmux)("cosmos-modeler interview: a search read", () => {
  it("is made with the step-by-step form and its k changed with Change one value", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-interview-search-"));
    writeFileSync(join(dir, "workload.yaml"), WORKLOAD);
    const run = new PtyTerminal(["interview", "--dir", dir]);
    terminals.push(run);
    // nothing reads Chunk items: the session offers the read's form, which may be a search
    await run.keys("no access pattern reads them", KEY.enter); // yes, add a read
    await run.keys("A query or a search?", KEY.down, KEY.enter); // a search
    await run.answer("Describe it in a few words", "Similar chunks");
    await run.keys("What does it search?", KEY.enter); // nearest neighbours
    await run.keys("Which vector does it compare?", KEY.enter); // embedding
    await run.answer("How many results (k) does one search return?", "0");
    await run.waitFor('"0": k (the results a search returns) is a whole number of at least 1');
    run.press(KEY.backspace, KEY.enter); // the suggested 10
    await run.answer("What share of the true nearest neighbours must it return", ""); // 0.9
    await run.answer("Filters the search is scoped by", "tenantId:eq");
    await run.answer("Average and peak requests per second", "20, 60");
    await run.waitFor("Access pattern Q1 (read): Similar chunks, rate avg 20/s, peak 60/s.");
    // the next question offers the menu; Change one value is its second choice
    await run.keys("How are the requests that filter on Chunk.tenantId spread", KEY.up, KEY.enter);
    await run.keys("What next?", KEY.down, KEY.enter);
    await run.answer("The change, on one line", "Q1 recall 2");
    await run.waitFor("recall is the share of the true nearest neighbours, more than 0 and at most 1");
    run.press(KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace);
    run.press(KEY.backspace, KEY.backspace);
    run.type("k 25");
    run.press(KEY.enter);
    await run.waitFor("Access pattern Q1 updated: search.");
    await run.keys("How are the requests that filter on Chunk.tenantId spread", KEY.up, KEY.enter);
    await run.keys("What next?", ...Array.from({ length: 5 }, () => KEY.down), KEY.enter); // quit
    await run.waitFor("Session saved");
    expect(await run.exited()).toBe(0);

    const workload = parse(readFileSync(join(dir, "workload.yaml"), "utf8")) as {
      accessPatterns: readonly Record<string, unknown>[];
    };
    expect(workload.accessPatterns.find((p) => p.id === "Q1")).toEqual({
      id: "Q1",
      name: "Similar chunks",
      type: "read",
      entity: "Chunk",
      where: { tenantId: "eq" },
      rps: { avg: 20, peak: 60 },
      search: { nearest: "embedding", k: 25, recall: 0.9 },
    });
    expect(readFileSync(join(dir, "cosmosdb_requirements.md"), "utf8")).toContain(
      "| Q1 | Similar chunks | vector | Chunk.embedding | 25 | 0.9 | n/a | tenantId eq | peak 60, avg 20 RPS |",
    );
  });
});
