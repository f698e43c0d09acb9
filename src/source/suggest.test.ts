import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  didYouMean,
  DOCUMENT_SUGGESTION_BUDGET,
  editDistance,
  MAX_SUGGESTED_NAME_LENGTH,
  suggestName,
  withSuggestionBudget,
} from "./suggest.js";

/** The plain algorithm: the first candidate at the smallest distance within a third of the name. */
function bruteForce(name: string, candidates: readonly string[]): string | undefined {
  if (name.length > MAX_SUGGESTED_NAME_LENGTH) return undefined;
  const allowed = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate.length > MAX_SUGGESTED_NAME_LENGTH) continue;
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return bestDistance <= allowed ? best : undefined;
}

describe("suggestName", () => {
  it("suggests the closest name within a third of its length", () => {
    expect(suggestName("userid", ["userId", "postId"])).toBe("userId");
    expect(suggestName("usr", ["userId", "postId"])).toBeUndefined();
  });

  it("finds what comparing every candidate in full finds (the bounds only skip hopeless ones)", () => {
    const name = fc.string({ unit: fc.constantFrom("a", "b", "c", "A", "_", "1"), maxLength: 12 });
    fc.assert(
      fc.property(name, fc.array(name, { maxLength: 20 }), (wanted, candidates) => {
        expect(suggestName(wanted, candidates)).toBe(bruteForce(wanted, candidates));
      }),
      { numRuns: 500 },
    );
  });

  it("takes time linear in the input for huge names (no quadratic edit distance)", () => {
    const huge = "A".repeat(1_000_000);
    expect(suggestName(huge, [`${huge}B`, "id"])).toBeUndefined();
    expect(suggestName(`${huge}x`, [huge])).toBeUndefined();
    expect(suggestName("id", [huge, "ids"])).toBe("ids");
  });

  it("still suggests names up to the length limit", () => {
    const long = "a".repeat(MAX_SUGGESTED_NAME_LENGTH - 1);
    expect(suggestName(`${long}x`, [`${long}y`])).toBe(`${long}y`);
  });
});

describe("one document's budget", () => {
  it("stops looking once the document's steps are spent, and every call still answers", () => {
    // Anagrams defeat the cheap bound: each comparison is a full edit distance.
    const letters = "abcdefghijklmnopqrstuvwxyz".repeat(4);
    const candidates = Array.from(
      { length: 500 },
      (_, i) => letters.slice(i % 26) + letters.slice(0, i % 26),
    );
    const typo = `${candidates[7]?.slice(0, -1)}Z`;
    const answers = withSuggestionBudget(
      () => Array.from({ length: 2_000 }, (_, i) => suggestName(i === 0 ? typo : `${typo}${i}`, candidates)),
      { steps: 2_000_000, listings: 5 },
    );
    expect(answers[0]).toBe(candidates[7]);
    expect(answers.at(-1)).toBeUndefined();
    // A new document starts with a full budget.
    expect(withSuggestionBudget(() => suggestName(typo, candidates))).toBe(candidates[7]);
  });

  it("lists long lists of valid names a few times, shortened, then refers to them", () => {
    const names = Array.from({ length: 30 }, (_, i) => `Entity${i}${"x".repeat(100)}`);
    const hints = withSuggestionBudget(() => Array.from({ length: 4 }, () => didYouMean("zzz", names)), {
      ...DOCUMENT_SUGGESTION_BUDGET,
      listings: 2,
    });
    expect(hints[0]).toMatch(/^valid: "Entity0x{21}…x{11}", /);
    expect(hints[0]).toContain("... (18 more)");
    expect(hints[1]).toBe(hints[0]);
    expect(hints[2]).toBe(
      "none of the 30 valid names is close; they are listed in the first issues of this kind",
    );
    // Short lists (a mapping's fields) are always listed.
    expect(
      withSuggestionBudget(() => didYouMean("zzz", ["userId", "postId"]), { steps: 0, listings: 0 }),
    ).toBe('valid: "userId", "postId"');
  });
});
