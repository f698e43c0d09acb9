import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload, WritePattern } from "../workload/types.js";
import { generateDataset } from "./generate-records.js";
import { generateWriteRecord } from "./generate-writes.js";
import { mulberry32 } from "./random.js";
import { EXAMPLES_DIR } from "../test-support/model-examples.js";

function example(name: string): Workload {
  const result = loadWorkload(readFileSync(`${EXAMPLES_DIR}${name}/workload.yaml`, "utf8"));
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

const pattern = (workload: Workload, id: string): WritePattern =>
  workload.accessPatterns.find((candidate) => candidate.id === id) as WritePattern;

describe("generateWriteRecord", () => {
  const blogging = example("blogging");
  const dataset = generateDataset(blogging, { seed: 9, maxItemsPerEntity: 300 });

  it("creates a comment with a fresh key, the newest date, on a post that has room", () => {
    const rng = mulberry32(4);
    for (let request = 0; request < 10; request++) {
      const comment = generateWriteRecord(blogging, dataset, pattern(blogging, "C3"), rng);
      const comments = dataset.entities["Comment"] ?? [];
      expect(comments.some((existing) => existing["commentId"] === comment?.["commentId"])).toBe(false);
      const newest =
        comments
          .map((existing) => existing["creationDate"] as string)
          .sort()
          .at(-1) ?? "";
      expect(String(comment?.["creationDate"]) > newest).toBe(true);
      const siblings = comments.filter((existing) => existing["postId"] === comment?.["postId"]).length;
      expect(siblings).toBeGreaterThan(0); // a post with comments, so its readers see the new one
      expect(siblings).toBeLessThan(25);
      expect((dataset.entities["User"] ?? []).some((user) => user["userId"] === comment?.["userId"])).toBe(
        true,
      );
    }
  });

  it("changes only the listed attributes of an existing record on upsert with changes", () => {
    const user = generateWriteRecord(blogging, dataset, pattern(blogging, "C1"), mulberry32(2));
    const before = (dataset.entities["User"] ?? []).find(
      (existing) => existing["userId"] === user?.["userId"],
    );
    expect(before).toBeDefined();
    expect(user?.["username"]).not.toBe(before?.["username"]);
  });

  it("keeps unique attributes unique and deletes childless records first", () => {
    const accounts = example("accounts-sessions");
    const data = generateDataset(accounts, { seed: 1, maxItemsPerEntity: 200 });
    const edit = generateWriteRecord(accounts, data, pattern(accounts, "C2"), mulberry32(8));
    const emails = new Set((data.entities["Account"] ?? []).map((account) => account["email"]));
    expect(emails.has(edit?.["email"])).toBe(false);
    const created = generateWriteRecord(accounts, data, pattern(accounts, "C1"), mulberry32(8));
    expect(emails.has(created?.["email"])).toBe(false);
    const removed = generateWriteRecord(accounts, data, pattern(accounts, "C4"), mulberry32(8));
    expect(
      (data.entities["Session"] ?? []).some((session) => session["sessionId"] === removed?.["sessionId"]),
    ).toBe(true);
  });

  it("a patch without a list changes what may change and keeps what never does (sampled design 2/17)", () => {
    const text = `version: 1
name: patch without a list
entities:
  Order:
    key: orderId
    count: 100
    avgBytes: 500
    attributes:
      orderId: string
      title: { type: string, distinct: 20 }
      status: { type: string, distinct: 5, changes: frequent }
accessPatterns:
  - { id: W1, name: patch Order, type: write, operation: patch, entity: Order, rps: { avg: 1, peak: 2 } }
`;
    const loaded = loadWorkload(text);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    const workload = loaded.value;
    const data = generateDataset(workload, { seed: 3, maxItemsPerEntity: 100 });
    const rng = mulberry32(5);
    let statusChanged = 0;
    for (let request = 0; request < 20; request++) {
      const patched = generateWriteRecord(workload, data, pattern(workload, "W1"), rng);
      const before = (data.entities["Order"] ?? []).find(
        (order) => order["orderId"] === patched?.["orderId"],
      );
      expect(patched?.["title"]).toBe(before?.["title"]);
      if (patched?.["status"] !== before?.["status"]) statusChanged++;
    }
    expect(statusChanged).toBeGreaterThan(10);
  });
});
