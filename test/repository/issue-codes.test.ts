/**
 * Every issue code the tool can report is documented for users: each key of `IssuePayloads`
 * (`src/common/issues.ts`) appears, in backticks, in one of the documents under `docs/`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

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
