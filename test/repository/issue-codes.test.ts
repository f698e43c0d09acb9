/**
 * Every issue code the tool can report is documented for users: each key of `IssuePayloads`
 * (`src/common/issues.ts`) appears, in backticks, in one of the documents under `docs/`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { evaluateModel } from "../../src/cost/evaluate.js";
import { designedExample, exampleWorkload } from "../../src/test-support/designed-examples.js";
import { loadExample } from "../../src/test-support/evaluate-fixtures.js";
import { EXAMPLE_NAMES } from "../../src/test-support/model-examples.js";

const repo = resolve(import.meta.dirname, "../..");

/** The property names of the `IssuePayloads` interface, read with the TypeScript parser. */
function issueCodes(): string[] {
  const file = join(repo, "src/common/issues.ts");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const payloads = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === "IssuePayloads",
  );
  if (payloads === undefined) throw new Error("IssuePayloads not found in src/common/issues.ts");
  return payloads.members.flatMap((member) =>
    member.name !== undefined && ts.isStringLiteral(member.name) ? [member.name.text] : [],
  );
}

describe("issue codes", () => {
  const codes = issueCodes();
  const docs = readdirSync(join(repo, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => readFileSync(join(repo, "docs", name), "utf8"))
    .join("\n");

  it("reads the codes", () => {
    expect(codes.length).toBeGreaterThan(50);
    expect(codes).toContain("evaluate.hotPartition");
  });

  it("documents every code in docs/", () => {
    expect(codes.filter((code) => !docs.includes(`\`${code}\``))).toEqual([]);
  });
});

/**
 * The severity column of docs/json-output.md's table of the evaluation's findings, by code: each
 * severity the evaluation gives a code (observed on the examples' naive, designed and expert
 * models) must be the one the table says (issue 29: the table said `warning` for
 * `evaluate.hotPhysicalPartition`, an error in the code).
 */
describe("the severities docs/json-output.md gives the evaluation's findings", () => {
  const table = new Map<string, string>();
  for (const line of readFileSync(join(repo, "docs", "json-output.md"), "utf8").split("\n")) {
    const match = /^\| `(evaluate\.[A-Za-z]+)` \| ([^|]+) \|/.exec(line);
    if (match !== null) table.set(match[1] ?? "", match[2] ?? "");
  }

  it("are those the evaluation gives", () => {
    const observed = new Map<string, Set<string>>();
    for (const name of EXAMPLE_NAMES) {
      const workload = exampleWorkload(name);
      const evaluations = [
        designedExample(name, { baseline: true }).design.evaluation,
        designedExample(name).design.evaluation,
        evaluateModel(workload, loadExample(name).model),
      ];
      for (const issue of evaluations.flatMap((evaluation) => evaluation.issues)) {
        const seen = observed.get(issue.code) ?? new Set<string>();
        seen.add(issue.severity);
        observed.set(issue.code, seen);
      }
    }
    expect(observed.size).toBeGreaterThan(5);
    const wrong: string[] = [];
    for (const [code, severities] of observed) {
      const documented = table.get(code);
      for (const severity of severities)
        if (documented === undefined || !new RegExp(`\\b${severity}\\b`).test(documented))
          wrong.push(`${code}: the code gives ${severity}, the table says ${documented ?? "nothing"}`);
    }
    expect(wrong).toEqual([]);
  });
});
