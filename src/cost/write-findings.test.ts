/**
 * Findings of write plans as evaluation errors, on the write-path reproducers
 * (test/fixtures/writes/): a counter its counted child cannot address (counteraddr, issue 11's
 * sample 2/3).
 */
import { describe, expect, it } from "vitest";
import { formatIssue } from "../common/issues.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { readWriteFixture } from "../test-support/model-examples.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { evaluateModel } from "./evaluate.js";

function fixture(name: string): { workload: Workload; model: Model } {
  const text = readWriteFixture(name);
  const workload = loadWorkload(text.workload, { file: "workload.yaml" });
  if (!workload.ok) throw new Error(workload.issues.map(formatIssue).join("\n"));
  const model = loadModel(text.model, { file: "model.yaml", workload: workload.value });
  if (!model.ok) throw new Error(model.issues.map(formatIssue).join("\n"));
  return { workload: workload.value, model: model.value };
}

describe("evaluate.counterNotAddressable (counteraddr)", () => {
  it("an Item counted on an order keyed by accountId, which Item records lack: an error on the Item's create", () => {
    const { workload, model } = fixture("counteraddr");
    const found = evaluateModel(workload, model).issues.filter(
      (issue) => issue.code === "evaluate.counterNotAddressable",
    );
    expect(found).toEqual([
      expect.objectContaining({
        code: "evaluate.counterNotAddressable",
        severity: "error",
        pattern: "C6",
        container: "accounts",
        itemType: "order",
        property: "itemCount",
        entity: "Item",
        missing: ["accountId"],
        path: ["accessPatterns", 5],
      }),
    ]);
    // The Account's own count of its Orders is addressed by the Order's accountId (its via).
    expect(found.some((issue) => issue.pattern === "C4")).toBe(false);
  });

  it("the same counter on orders keyed by orderId (the Item's via) is no error", () => {
    const { workload, model } = fixture("counteraddr");
    const rekeyed: Model = {
      ...model,
      containers: model.containers.map((container) =>
        container.name !== "accounts"
          ? container
          : {
              ...container,
              items: container.items.map((item) =>
                item.type === "order" ? { ...item, partitionKey: ["{orderId}"] } : item,
              ),
            },
      ),
    };
    const codes = (m: Model) => evaluateModel(workload, m).issues.map((issue) => issue.code);
    expect(codes(model)).toContain("evaluate.counterNotAddressable");
    expect(codes(rekeyed)).not.toContain("evaluate.counterNotAddressable");
  });
});
