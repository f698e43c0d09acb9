import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatIssue } from "../common/issues.js";
import { evaluateModel } from "../cost/evaluate.js";
import { parseModel } from "../test-support/evaluate-fixtures.js";
import { loadWorkload } from "../workload/load-workload.js";
import { hotReplicatedKeyWhy } from "./unmet-limits.js";

const file = fileURLToPath(new URL("./__fixtures__/issue-11/status.yaml", import.meta.url));
const loaded = loadWorkload(readFileSync(file, "utf8"), { file: "status.yaml" });
if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
const workload = loaded.value;

/** Tickets by id, and the newest 20 per status in `replicas` replicas. */
function statusModel(replicas: number) {
  return parseModel(
    [
      "version: 1",
      "containers:",
      "  - name: tickets",
      "    partitionKey: [/ticketId]",
      "    items:",
      '      - { type: ticket, entity: Ticket, id: "{ticketId}", partitionKey: ["{ticketId}"] }',
      "  - name: tickets-latest-by-status",
      "    partitionKey: [/statusReplica]",
      "    items:",
      '      - { type: ticket, entity: Ticket, id: "{ticketId}", partitionKey: ["{status}-{replica}"], source: tickets/ticket,',
      `          keepLatest: { count: 20, by: createdAt }, replicas: ${replicas} }`,
    ].join("\n"),
    workload,
  );
}

describe("hotReplicatedKeyWhy", () => {
  it("splits the hottest key's load into reads and writes that add up to the evaluation's figure", () => {
    const model = statusModel(8);
    const evaluation = evaluateModel(workload, model);
    const hottest = evaluation.containers.find((c) => c.name === "tickets-latest-by-status");
    const why = hotReplicatedKeyWhy(workload, model, evaluation, {}, "tickets-latest-by-status", (m) =>
      evaluateModel(workload, m),
    );
    const figures =
      /takes ([\d,]+) RU\/s of reads \(Q1, and the change feed's reads of one replica\) and ([\d,]+) RU\/s of writes/.exec(
        why ?? "",
      );
    const [reads, writes] = [figures?.[1], figures?.[2]].map((f) => Number((f ?? "NaN").replace(/,/g, "")));
    expect(reads).toBeGreaterThan(writes ?? 0);
    expect((reads ?? 0) + (writes ?? 0)).toBeCloseTo(hottest?.hottestLogicalPartition.rus ?? 0, -1);
    // Replicas lower the reads only: 16 replicas halve the reads of 8, the writes stay.
    const at16 = evaluateModel(workload, statusModel(16)).containers.find(
      (c) => c.name === "tickets-latest-by-status",
    );
    expect(at16?.hottestLogicalPartition.rus).toBeCloseTo((writes ?? 0) + (reads ?? 0) / 2, -1);
    expect(why).toContain(
      `16: hottest key ${Math.round(at16?.hottestLogicalPartition.rus ?? 0).toLocaleString("en-US")} RU/s`,
    );
    expect(why).toContain("Serve Q1 from a cache");
  });

  it("says nothing of a container without replicas", () => {
    const model = statusModel(8);
    const evaluation = evaluateModel(workload, model);
    expect(
      hotReplicatedKeyWhy(workload, model, evaluation, {}, "tickets", (m) => evaluateModel(workload, m)),
    ).toBe(undefined);
  });
});
