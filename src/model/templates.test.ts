import { describe, expect, it } from "vitest";
import {
  isLiteralTemplate,
  parseTemplate,
  renderKeyValue,
  renderTemplate,
  templateAttributes,
  templateProblem,
  templateUses,
} from "./templates.js";

describe("parseTemplate", () => {
  it("splits the templates of the examples", () => {
    expect(parseTemplate("{postId}")).toEqual([{ kind: "attribute", name: "postId" }]);
    expect(parseTemplate("{postId}-{shard}")).toEqual([
      { kind: "attribute", name: "postId" },
      { kind: "literal", text: "-" },
      { kind: "shard" },
    ]);
    expect(parseTemplate("post-{replica}")).toEqual([
      { kind: "literal", text: "post-" },
      { kind: "replica" },
    ]);
    expect(parseTemplate("{deviceId}-{bucket}")).toEqual([
      { kind: "attribute", name: "deviceId" },
      { kind: "literal", text: "-" },
      { kind: "bucket" },
    ]);
    expect(parseTemplate("post")).toEqual([{ kind: "literal", text: "post" }]);
    expect(parseTemplate("")).toEqual([]);
  });

  it("reports malformed templates", () => {
    expect(templateProblem("{postId")).toBe('unclosed "{" at position 0');
    expect(templateProblem("postId}")).toBe('"}" at position 6 without a matching "{"');
    expect(templateProblem("{a{b}}")).toBe('"{" at position 2 inside another "{...}"');
    expect(templateProblem("x{}")).toBe('empty "{}" at position 1');
    expect(templateProblem("{user id}")).toContain("is not an attribute name");
    expect(templateProblem("{postId}-{shard}")).toBeUndefined();
    expect(() => parseTemplate("{postId")).toThrow(/unclosed/);
  });

  it("lists attributes and placeholders", () => {
    expect(templateAttributes("{postId}-{userId}-{postId}-{shard}")).toEqual(["postId", "userId"]);
    expect(templateUses("post-{replica}", "replica")).toBe(true);
    expect(templateUses("post-{replica}", "shard")).toBe(false);
    expect(isLiteralTemplate("post")).toBe(true);
    expect(isLiteralTemplate("post-{replica}")).toBe(false);
  });
});

describe("renderTemplate", () => {
  it("substitutes attributes, shard, replica and bucket", () => {
    expect(renderTemplate("{postId}-{shard}", { attributes: { postId: "p1" }, shard: 7 })).toBe("p1-7");
    expect(renderTemplate("post-{replica}", { attributes: {}, replica: 0 })).toBe("post-0");
    expect(
      renderTemplate("{deviceId}-{bucket}", {
        attributes: { deviceId: "d" },
        bucket: "2026-11-22T10:15:00Z",
      }),
    ).toBe("d-2026-11-22T10:15:00Z");
    expect(renderTemplate("{n}:{ok}", { attributes: { n: 12, ok: true } })).toBe("12:true");
    expect(renderTemplate("post", { attributes: {} })).toBe("post");
  });

  it("refuses missing and non-scalar values", () => {
    expect(() => renderTemplate("{postId}", { attributes: {} })).toThrow(/\{postId\}.*no value/);
    expect(() => renderTemplate("{a}", { attributes: { a: { b: 1 } } })).toThrow(/type object/);
    expect(() => renderTemplate("x-{shard}", { attributes: {} })).toThrow(/\{shard\}/);
  });

  it("keeps the value type for single-placeholder keys", () => {
    expect(renderKeyValue("{tenantId}", { attributes: { tenantId: 42 } })).toBe(42);
    expect(renderKeyValue("{shard}", { attributes: {}, shard: 3 })).toBe(3);
    expect(renderKeyValue("t-{tenantId}", { attributes: { tenantId: 42 } })).toBe("t-42");
    expect(renderKeyValue("post", { attributes: {} })).toBe("post");
  });
});
