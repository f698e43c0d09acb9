import { describe, expect, it } from "vitest";
import { CosmosModelerError } from "../../common/errors.js";
import { failureIssue } from "./report-failure.js";

describe("failureIssue", () => {
  it("reports an edge's failure as the input's problem, with its file and line", () => {
    const { issue, internal } = failureIssue(
      new CosmosModelerError("cli.inputTooLarge", "too large", { context: { file: "w.yaml", line: 3 } }),
    );
    expect(internal).toBe(false);
    expect(issue).toMatchObject({ code: "cli.inputTooLarge", file: "w.yaml", line: 3, message: "too large" });
  });

  it("reports any other exception, and a model error raised on checked inputs, as an internal error to report", () => {
    for (const error of [
      new RangeError("Invalid array length"),
      new CosmosModelerError("model.unknownSource", "x"),
    ]) {
      const { issue, internal } = failureIssue(error);
      expect(internal).toBe(true);
      expect(issue.code).toBe("internal.error");
      expect(issue.message).toMatch(/^internal error, please report it/);
    }
  });
});
