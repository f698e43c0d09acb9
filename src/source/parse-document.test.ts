import { describe, expect, it } from "vitest";
import {
  MAX_ALIASES,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_SEPARATORS,
  parseSourceDocument,
} from "./parse-document.js";

function refusal(text: string) {
  const parsed = parseSourceDocument(text, "d.yaml");
  if (parsed.ok) throw new Error("expected a refusal");
  expect(parsed.issues).toHaveLength(1);
  return parsed.issues[0];
}

describe("parseSourceDocument refuses what it cannot read in bounded time and memory, with a line", () => {
  it("an alias bomb, at its first alias", () => {
    const bomb = [
      "version: 1",
      "a: &a [x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
    ].join("\n");
    expect(refusal(bomb)).toMatchObject({ code: "source.aliasBomb", file: "d.yaml", line: 3 });
    expect(MAX_ALIASES).toBe(100);
  });

  it("a document of more entries than reading may take, at the line where the limit falls", () => {
    const lists = `version: 1\nname: x\nentities: [${"[],".repeat(MAX_DOCUMENT_SEPARATORS)}[]]\n`;
    const issue = refusal(lists);
    expect(issue).toMatchObject({ code: "source.tooComplex", line: 3 });
    expect(issue?.message).toContain("more than 200,000 list and mapping entries");
    // Under the limit it is read.
    expect(parseSourceDocument(`x: [${"1,".repeat(1_000)}1]`).ok).toBe(true);
  });

  it("nesting deeper than the parser's stack, as too deep (not a stack overflow)", () => {
    const depth = 50_000;
    const issue = refusal(`version: 1\nx: ${"[".repeat(depth)}1${"]".repeat(depth)}\n`);
    expect(issue?.message).toMatch(/nested too deeply/);
    expect(issue?.line).toBeGreaterThanOrEqual(1);
  });

  it("text over 10 MB, at the line where the limit falls", () => {
    const line = `${"a".repeat(1023)}\n`;
    const text = line.repeat(Math.ceil(MAX_DOCUMENT_BYTES / line.length) + 10);
    expect(refusal(text)).toMatchObject({ code: "source.tooLarge", line: MAX_DOCUMENT_BYTES / 1024 + 1 });
  });

  it("gives an empty document line 1", () => {
    for (const text of ["", "# only a comment\n"]) {
      const parsed = parseSourceDocument(text);
      expect(parsed.ok && parsed.document.lineOf([])).toBe(1);
    }
  });
});
