import { describe, expect, it } from "vitest";
import { DESIGN_HEAP_MB, heapBudgetMb, runsInHeapLimitedWorker } from "./heap-budget.js";

describe("the heap budget of design", () => {
  it("runs design in the worker, other commands and standard input in the main thread", () => {
    expect(runsInHeapLimitedWorker(["node", "cm", "design", "w.yaml", "--out", "o"])).toBe(true);
    expect(runsInHeapLimitedWorker(["node", "cm", "--debug", "design", "w.yaml"])).toBe(true);
    expect(runsInHeapLimitedWorker(["node", "cm", "design", "-", "--json"])).toBe(false);
    expect(runsInHeapLimitedWorker(["node", "cm", "check", "w.yaml"])).toBe(false);
    expect(runsInHeapLimitedWorker(["node", "cm", "interview"])).toBe(false);
    expect(runsInHeapLimitedWorker(["node", "cm"])).toBe(false);
  });

  it("takes COSMOS_MODELER_HEAP_MB when it is a positive whole number", () => {
    expect(heapBudgetMb({})).toBe(DESIGN_HEAP_MB);
    expect(heapBudgetMb({ COSMOS_MODELER_HEAP_MB: "2048" })).toBe(2048);
    for (const bad of ["", "0", "-5", "1.5", "lots"])
      expect(heapBudgetMb({ COSMOS_MODELER_HEAP_MB: bad })).toBe(DESIGN_HEAP_MB);
  });
});
