import { describe, expect, it } from "vitest";
import type { Issue } from "../common/issues.js";
import { locateIssues } from "./locate-issues.js";

const workload = [
  "version: 1",
  "name: w",
  "accessPatterns:",
  "  - id: Q1",
  "    name: a",
  "  - id: Q2",
  "    name: b",
].join("\n");
const model = [
  "version: 1",
  "containers:",
  "  - name: posts",
  "    partitionKey: [/postId]",
  "    physicalPartitions: 70",
  "    items:",
  "      - { type: post, entity: Post }",
  "      - { type: comment, entity: Comment }",
  "  - name: posts.archive",
  "    items: []",
].join("\n");

const issue = (...path: (string | number)[]): Issue => ({
  code: "evaluate.patternNotServed",
  pattern: "Q",
  severity: "error",
  path,
  message: "m",
});

describe("locateIssues", () => {
  it("points pattern issues at the pattern's line and container issues at the container's, field's or item type's", () => {
    const located = locateIssues(
      [
        issue("accessPatterns", 1),
        issue("containers", "posts"),
        issue("containers", "posts", "physicalPartitions"),
        issue("containers", "posts", "items", "comment"),
        issue("containers", "posts.archive"),
        issue("containers"),
        issue("scale"),
      ],
      { workload: { file: "w.yaml", text: workload }, model: { file: "m.yaml", text: model } },
    );
    expect(located.map((i) => [i.file, i.line])).toEqual([
      ["w.yaml", 6],
      ["m.yaml", 3],
      ["m.yaml", 5],
      ["m.yaml", 8],
      ["m.yaml", 9],
      ["m.yaml", 2],
      [undefined, undefined],
    ]);
  });

  it("keeps issues that are located already, and container issues when there is no model file", () => {
    const own: Issue = { ...issue("accessPatterns", 0), file: "x.yaml", line: 2 };
    expect(
      locateIssues([own, issue("containers", "posts")], { workload: { file: "w.yaml", text: workload } }),
    ).toEqual([own, issue("containers", "posts")]);
  });
});
