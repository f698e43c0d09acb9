import { describe, expect, it } from "vitest";
import { applyChanges } from "../../session/apply-changes.js";
import { createSession } from "../../session/state.js";
import { RANGES } from "../../session/value-ranges.js";
import {
  parseEditLine,
  parseEntityLine,
  parseNumberLine,
  parsePatternLine,
  splitNumbers,
} from "./interview-lines.js";

function library() {
  const entities = applyChanges(createSession(), [
    { kind: "add-entity", name: "Member", key: "memberId" },
    { kind: "add-entity", name: "Book", key: "bookId" },
    { kind: "add-entity", name: "Loan", key: "loanId", attributes: { memberId: "string" } },
    { kind: "add-entity", name: "Category", key: "categoryId" },
  ]);
  if (!entities.ok) throw new Error(JSON.stringify(entities.issues));
  const read = applyChanges(entities.value.state, [
    {
      kind: "add-access-pattern",
      id: "Q1",
      type: "read",
      name: "a book",
      entity: "Book",
      where: { bookId: "eq" },
    },
  ]);
  if (!read.ok) throw new Error(JSON.stringify(read.issues));
  return read.value.state.workload;
}

describe("an entity line", () => {
  it("takes names with their keys in parentheses, composite keys included (was refused three times)", () => {
    expect(parseEntityLine("Member (memberId), Book (bookId), Loan(memberId, bookId), Fine")).toEqual({
      ok: true,
      value: [
        { name: "Member", key: ["memberId"] },
        { name: "Book", key: ["bookId"] },
        { name: "Loan", key: ["memberId", "bookId"] },
        { name: "Fine" },
      ],
    });
  });

  it("says every problem at once", () => {
    const result = parseEntityLine("1Member, Book (book-id), Book, Loan (a, a)");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(3); // the second Book is no duplicate: the first was refused
    expect(result.problems.join("\n")).toContain('"1Member"');
    expect(result.problems.join("\n")).toContain('"book-id"');
    expect(parseEntityLine("  ").ok).toBe(false);
  });
});

describe("a line of numbers", () => {
  const parts = [
    { label: "items", unit: "count", range: RANGES.positive, optional: false },
    { label: "average size", unit: "bytes", range: RANGES.positive, optional: false },
    { label: "new per month", unit: "count", range: RANGES.nonNegative, optional: true },
    { label: "kept for", unit: "seconds", range: RANGES.positive, optional: true, words: ["forever"] },
  ] as const;

  it("reads each part in its unit; a comma inside a number is kept", () => {
    expect(splitNumbers("1,000, 2 KB; 3")).toEqual(["1,000", "2 KB", "3"]);
    expect(parseNumberLine("50k, 1 KB, 1,000, 90 d", parts)).toEqual({
      ok: true,
      value: [50_000, 1024, 1000, 90 * 86_400],
    });
    expect(parseNumberLine("50k, 1 KB", parts)).toEqual({
      ok: true,
      value: [50_000, 1024, undefined, undefined],
    });
    expect(parseNumberLine("50k, 1 KB, -, forever", parts)).toEqual({
      ok: true,
      value: [50_000, 1024, undefined, "forever"],
    });
  });

  it("names each wrong part", () => {
    const result = parseNumberLine("-5, , 3, soon, 9", parts);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toContain("5 answers for 4 questions");
    expect(result.problems.join("\n")).toMatch(/1 \(items\): expected a number more than 0/);
    expect(result.problems.join("\n")).toContain("2 (average size) is needed");
    expect(result.problems.join("\n")).toMatch(/4 \(kept for\).*"forever"/);
  });
});

describe("an access pattern on one line", () => {
  const workload = library();

  it("reads a described read with filters, sort, limit and rates", () => {
    const result = parsePatternLine(
      "A member's loans: list Loans by memberId and dueAt range, sorted by dueAt desc, limit 20, 12/s peak 40/s",
      workload,
    );
    expect(result).toEqual({
      ok: true,
      value: {
        change: {
          kind: "add-access-pattern",
          type: "read",
          entity: "Loan",
          name: "A member's loans",
          where: { memberId: "eq", dueAt: "range" },
          orderBy: { dueAt: "desc" },
          limit: 20,
          rps: { avg: 12, peak: 40 },
        },
        newAttributes: ["dueAt"],
      },
    });
  });

  it("names a pattern without a description after the line, without its rate", () => {
    const result = parsePatternLine("get a book by bookId, 50/s peak 200/s", workload);
    expect(result.ok && result.value.change).toMatchObject({
      type: "read",
      entity: "Book",
      name: "Get a book by bookId",
      where: { bookId: "eq" },
      rps: { avg: 50, peak: 200 },
    });
    expect(result.ok && result.value.newAttributes).toEqual([]);
    expect(parsePatternLine("list categories, returns 40, 3 rps", workload)).toMatchObject({
      ok: true,
      value: { change: { entity: "Category", returns: { avg: 40 }, rps: { avg: 3 } } },
    });
  });

  it("reads writes with their operation and changed attributes", () => {
    expect(parsePatternLine("Borrow a book: create Loan, 2/s peak 10/s", workload)).toMatchObject({
      ok: true,
      value: { change: { type: "write", operation: "create", entity: "Loan", name: "Borrow a book" } },
    });
    expect(parsePatternLine("update Loan, changes returnedAt and status, peak 5/s", workload)).toMatchObject({
      ok: true,
      value: {
        change: { operation: "patch", changes: ["returnedAt", "status"], rps: { peak: 5 } },
        newAttributes: ["returnedAt", "status"],
      },
    });
    expect(parsePatternLine("remove the Member", workload)).toMatchObject({
      ok: true,
      value: { change: { operation: "delete", entity: "Member" } },
    });
  });

  it("says what is wrong, every problem at once", () => {
    const wrong = parsePatternLine(
      "list Lone by member-id, sorted by x sideways, limit 0, 40/s peak 12/s",
      workload,
    );
    expect(wrong.ok).toBe(false);
    if (wrong.ok) return;
    const text = wrong.problems.join("\n");
    expect(text).toContain('no entity is named "Lone" (the entities are Member, Book, Loan, Category)');
    expect(text).toContain('"member-id" is not an attribute name');
    expect(text).toContain('"sideways" is not a direction');
    expect(text).toContain("limit is a whole number of at least 1");
    expect(text).toContain("the peak (12/s) is below the average (40/s)");
    expect(parsePatternLine("Loan by memberId", workload)).toMatchObject({ ok: false });
    expect(parsePatternLine("create Loan by memberId", workload)).toMatchObject({ ok: false });
    expect(parsePatternLine("get Book, sometimes", workload)).toMatchObject({ ok: false });
  });
});

describe("a one-line edit", () => {
  const workload = library();

  it("changes one value of a pattern, an entity, an attribute or the scale", () => {
    expect(parseEditLine("Q1 peak 60/s", workload)).toEqual({
      ok: true,
      value: { kind: "set-rate", pattern: "Q1", peak: 60 },
    });
    expect(parseEditLine("q1 12/s peak 40/s", workload)).toMatchObject({ value: { avg: 12, peak: 40 } });
    expect(parseEditLine("Q1 limit 50", workload)).toEqual({
      ok: true,
      value: { kind: "update-access-pattern", id: "Q1", limit: 50 },
    });
    expect(parseEditLine("Loan count 2M", workload)).toEqual({
      ok: true,
      value: { kind: "update-entity", name: "Loan", count: 2_000_000 },
    });
    expect(parseEditLine("loan kept 90 d", workload)).toMatchObject({ value: { ttlSeconds: 90 * 86_400 } });
    expect(parseEditLine("Loan key memberId, loanId", workload)).toMatchObject({
      value: { key: ["memberId", "loanId"] },
    });
    expect(parseEditLine("Loan.status distinct 5", workload)).toEqual({
      ok: true,
      value: { kind: "set-attribute", entity: "Loan", name: "status", distinct: 5 },
    });
    expect(parseEditLine("regions 3", workload)).toEqual({
      ok: true,
      value: { kind: "set-scale", regions: 3 },
    });
    expect(parseEditLine("consistency bounded staleness", workload)).toMatchObject({
      value: { consistency: "bounded" },
    });
    expect(parseEditLine("multi-region writes yes", workload)).toMatchObject({
      value: { multiRegionWrites: true },
    });
  });

  it("says what it does not understand", () => {
    for (const line of [
      "Q9 peak 5",
      "Loan colour red",
      "Loan count -1",
      "Q1",
      "Loan.status distinct 0",
      "regions two",
    ])
      expect(parseEditLine(line, workload).ok, line).toBe(false);
  });
});
