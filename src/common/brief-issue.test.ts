import { describe, expect, it } from "vitest";
import { briefIssue, briefIssues } from "./brief-issue.js";
import type { Issue } from "./issues.js";

const fanOut: Issue = {
  code: "evaluate.fanOutCannotScale",
  severity: "error",
  path: ["accessPatterns", 9],
  message: "Q6 cannot scale: each physical partition added to posts adds 11,140 RU/s",
  pattern: "Q6",
  container: "posts",
  rusAddedPerPartition: 11_140,
  physicalPartitions: 48,
};
const hot: Issue = {
  code: "evaluate.hotPhysicalPartition",
  severity: "error",
  path: ["containers", "posts"],
  message: "a physical partition of posts needs 12,000 RU/s",
  container: "posts",
  physicalPartitions: 9,
  rusPeak: 12_000,
};

describe("a finding in a few words", () => {
  it("names the pattern by its id and the container by its name, never a code or an index path", () => {
    const text = briefIssue(fanOut);
    expect(text).toBe("Q6's fan-out over posts cannot scale");
    expect(text).not.toMatch(/evaluate\.|accessPatterns\[/);
  });

  it("lists up to three, each once, then how many more", () => {
    expect(briefIssues([fanOut, hot, fanOut])).toBe(
      "Q6's fan-out over posts cannot scale; a physical partition of posts is over 10,000 RU/s",
    );
    const many = [1, 2, 3, 4, 5].map((n) => ({ ...fanOut, pattern: `Q${n}` }));
    expect(briefIssues(many)).toMatch(/^Q1's .*; Q3's fan-out over posts cannot scale and 2 more$/);
  });

  it("gives other issues their message", () => {
    const other: Issue = {
      code: "workload.unknownField",
      severity: "error",
      path: [],
      message: "no such field",
    };
    expect(briefIssue(other)).toBe("no such field");
  });
});
