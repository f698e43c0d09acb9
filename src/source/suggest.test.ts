import { describe, expect, it } from "vitest";
import { didYouMean, MAX_SUGGESTED_NAME_LENGTH, suggestName } from "./suggest.js";

describe("suggestName", () => {
  it("suggests the closest name within a third of its length", () => {
    expect(suggestName("userid", ["userId", "postId"])).toBe("userId");
    expect(suggestName("usr", ["userId", "postId"])).toBeUndefined();
  });

  it("takes time linear in the input for huge names (no quadratic edit distance)", () => {
    const huge = "A".repeat(1_000_000);
    const start = performance.now();
    expect(suggestName(huge, [`${huge}B`, "id"])).toBeUndefined();
    expect(suggestName(`${huge}x`, [huge])).toBeUndefined();
    expect(suggestName("id", [huge, "ids"])).toBe("ids");
    expect(performance.now() - start).toBeLessThan(1_000);
  });

  it("still suggests names up to the length limit", () => {
    const long = "a".repeat(MAX_SUGGESTED_NAME_LENGTH - 1);
    expect(suggestName(`${long}x`, [`${long}y`])).toBe(`${long}y`);
  });

  it("lists the valid names when none is close", () => {
    expect(didYouMean("zzz", ["userId", "postId"])).toBe('valid: "userId", "postId"');
  });
});
