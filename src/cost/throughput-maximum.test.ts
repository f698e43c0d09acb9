import { describe, expect, it } from "vitest";
import { MAX_CONTAINER_RUS, MAX_PROVISIONED_RUS } from "../cosmos/limits.js";
import { throughputMaximumIssue } from "./throughput-maximum.js";

describe("throughputMaximumIssue", () => {
  it("nothing up to the default maximum, a warning naming the support ticket above it", () => {
    expect(throughputMaximumIssue(["a"], MAX_CONTAINER_RUS, false, [])).toBeUndefined();
    expect(throughputMaximumIssue(["a"], MAX_CONTAINER_RUS + 100, false, ["containers", "a"])).toMatchObject({
      code: "evaluate.overContainerMaximum",
      severity: "warning",
      maximum: MAX_CONTAINER_RUS,
      suggestion: expect.stringContaining("support ticket"),
    });
  });

  it("an error over the largest value the management API holds, which no ticket raises", () => {
    const issue = throughputMaximumIssue(["a", "b"], MAX_PROVISIONED_RUS + 1, true, ["containers"]);
    expect(issue).toMatchObject({ severity: "error", maximum: MAX_PROVISIONED_RUS, containers: ["a", "b"] });
    expect(issue?.message).toContain("2,147,483,647 RU/s");
    expect(issue?.message).toContain("shared database throughput (a, b)");
  });
});
