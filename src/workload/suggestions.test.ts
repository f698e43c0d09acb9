/**
 * Issue 14: "did you mean" over a whole document is bounded: many misspelled references to many
 * long names give every error, located, with the list of valid names printed a few times only.
 */
import { describe, expect, it } from "vitest";
import { formatIssue } from "../common/issues.js";
import { DOCUMENT_SUGGESTION_BUDGET } from "../source/suggest.js";
import { loadWorkload } from "./load-workload.js";

const LENGTH = 120;
const name = (prefix: string, i: number, fill: string) =>
  `${prefix}${i}${fill.repeat(LENGTH)}`.slice(0, LENGTH);

function massDocument(entities: number, references: number): string {
  return [
    "version: 1",
    "name: n",
    "entities:",
    ...Array.from(
      { length: entities },
      (_, i) => `  ${name("E", i, "x")}: { key: k, count: 10, avgBytes: 100, attributes: { k: string } }`,
    ),
    "accessPatterns:",
    ...Array.from(
      { length: references },
      (_, i) =>
        `  - { id: Q${i}, name: q, type: read, entity: ${i === 0 ? `${name("E", 3, "x").slice(0, -1)}y` : name("F", i, "y")}, where: { k: eq }, rps: { avg: 1, peak: 2 } }`,
    ),
    "",
  ].join("\n");
}

describe("did you mean, across a document", () => {
  it("reports every misspelled reference with its line, suggests the close one, and lists the valid names a few times", () => {
    const result = loadWorkload(massDocument(300, 800), { file: "w.yaml" });
    const unknown = result.issues.filter((issue) => issue.code === "workload.unknownEntity");
    expect(unknown).toHaveLength(800);
    expect(unknown.every((issue) => issue.line !== undefined)).toBe(true);
    expect(unknown[0]?.suggestion).toBe(`did you mean "${name("E", 3, "x")}"?`);
    const listings = unknown.filter((issue) => issue.suggestion?.startsWith("valid:")).length;
    expect(listings).toBe(DOCUMENT_SUGGESTION_BUDGET.listings);
    // The output grows with the errors, not with errors x names: a line each of a few hundred bytes.
    const printed = result.issues.map(formatIssue).join("\n").length;
    expect(printed / unknown.length).toBeLessThan(500);
  });
});
