import { describe, expect, it } from "vitest";
import { MAX_PROVISIONED_RUS } from "../cosmos/limits.js";
import { modelThroughputOf } from "./throughput.js";

describe("modelThroughputOf", () => {
  it("writes the evaluated RU/s into the model", () => {
    expect(
      modelThroughputOf({ mode: "autoscale", maxRus: 4_000, provisionedRus: 4_000, reason: "" }),
    ).toEqual({ mode: "autoscale", maxRus: 4_000 });
    expect(modelThroughputOf({ mode: "manual", provisionedRus: 1_200, reason: "" })).toEqual({
      mode: "manual",
      rus: 1_200,
    });
  });

  it("leaves out a figure no account can be set to, so the written model loads back", () => {
    const over = MAX_PROVISIONED_RUS + 1_000;
    expect(modelThroughputOf({ mode: "autoscale", maxRus: over, provisionedRus: over, reason: "" })).toEqual({
      mode: "autoscale",
    });
    expect(modelThroughputOf({ mode: "manual", rus: over, provisionedRus: over, reason: "" })).toEqual({
      mode: "manual",
    });
  });
});
