/**
 * Issue 26's atomic pairs: writes that must commit together (`atomicWith`) put their items in one
 * logical partition of one container (a transactional batch), even where the reads alone would
 * keep them apart (each has a control without `atomicWith`). Two workloads of our own: a complaint opened with its first communication, and
 * a ledger entry posted with its wallet's balance.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadWorkload } from "../workload/load-workload.js";
import { designModel } from "./design-model.js";

const FIXTURES = new URL("../../test/fixtures/expert-classes/", import.meta.url);

const CASES = [
  { file: "complaints.yaml", parent: "Complaint", child: "Communication", via: "complaintId" },
  { file: "ledger.yaml", parent: "Wallet", child: "Entry", via: "walletId" },
] as const;

describe("writes that must commit together", () => {
  it.each(CASES)("$file: parent and child in one logical partition", ({ file, parent, child, via }) => {
    const loaded = loadWorkload(readFileSync(new URL(file, FIXTURES), "utf8"), { file });
    if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("; "));
    const { model, evaluation, decisions } = designModel(loaded.value);
    const primary = (entity: string) =>
      model.containers.flatMap((container) =>
        container.items
          .filter((item) => item.entity === entity && item.source === undefined)
          .map((item) => ({ container: container.name, partitionKey: item.partitionKey })),
      );
    // Both written in one container, keyed by the parent's key: one transactional batch.
    expect(primary(parent)).toHaveLength(1);
    expect(primary(child)).toEqual(primary(parent));
    expect(primary(parent)[0]?.partitionKey).toEqual([`{${via}}`]);
    expect(evaluation.issues.filter((issue) => issue.code === "evaluate.notAtomic")).toEqual([]);
    expect(evaluation.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    const atomicity = decisions.filter((d) => d.subject.kind === "atomicity");
    for (const decision of atomicity)
      if (decision.subject.kind === "atomicity") expect(decision.subject.together).toBe(true);
  });

  it.each(CASES)(
    "$file: without atomicWith, the reads alone keep the child apart (the control)",
    ({ file, parent, child }) => {
      const text = readFileSync(new URL(file, FIXTURES), "utf8").replace(/,?\s*atomicWith: \[\w+\],?/g, ",");
      expect(text).not.toContain("atomicWith");
      const loaded = loadWorkload(text, { file });
      if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("; "));
      const { model } = designModel(loaded.value);
      const containerOf = (entity: string) =>
        model.containers.find((c) =>
          c.items.some((item) => item.entity === entity && item.source === undefined),
        )?.name;
      expect(containerOf(child)).not.toBe(containerOf(parent));
    },
  );
});
