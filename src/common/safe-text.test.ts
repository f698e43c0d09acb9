/* eslint-disable no-control-regex -- these tests look for control characters */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  abbreviateLongRuns,
  escapeControlCharacters,
  escapeJsonText,
  escapeTerminalText,
  hasUnsafeCharacters,
} from "./safe-text.js";

/** Every character a terminal acts on or that reorders text (C0, DEL, C1, separators, bidi). */
const UNSAFE = [
  ...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)),
  ...Array.from({ length: 0x21 }, (_, index) => String.fromCharCode(0x7f + index)),
  "\u061c",
  "\u200e",
  "\u200f",
  "\u2028",
  "\u2029",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
];

describe("escapeControlCharacters", () => {
  it("writes every unsafe character as a visible \\uXXXX and leaves the rest", () => {
    for (const character of UNSAFE) {
      const escaped = escapeControlCharacters(`a${character}b`);
      expect(escaped).toBe(`a\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}b`);
      expect(hasUnsafeCharacters(escaped)).toBe(false);
    }
    expect(escapeControlCharacters("Zoë's 投稿 — ok")).toBe("Zoë's 投稿 — ok");
  });

  it("leaves no unsafe character in any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
        expect(hasUnsafeCharacters(escapeControlCharacters(text))).toBe(false);
        expect(escapeTerminalText(text).replace(/[\n\t]/g, "")).not.toMatch(/[\u0000-\u001f]/);
      }),
      { seed: 14, numRuns: 100 },
    );
  });

  it("keeps line feeds and tabs in terminal reports, escapes carriage returns", () => {
    expect(escapeTerminalText("a\n\tb\r\u001b")).toBe("a\n\tb\\u000d\\u001b");
  });
});

describe("escapeJsonText", () => {
  it("keeps the JSON value and escapes what JSON.stringify leaves raw", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: "binary", maxLength: 20 }), (value, text) => {
        const json = escapeJsonText(JSON.stringify({ value, text }, null, 2));
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify({ value, text })));
        expect(json.replace(/[\n ]/g, "")).not.toMatch(
          /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/,
        );
      }),
      { seed: 14, numRuns: 200 },
    );
  });
});

describe("abbreviateLongRuns", () => {
  it("shortens a 1 MB name to its ends and length, and leaves ordinary lines alone", () => {
    const name = `${"A".repeat(500_000)}${"B".repeat(500_000)}`;
    const line = abbreviateLongRuns(`entity ${name} has no attribute "${name}x"`);
    expect(line.length).toBeLessThan(400);
    expect(line).toContain("(1,000,000 characters)");
    expect(line).toContain("(1,000,001 characters)");
    const ordinary =
      'error workload.unknownAttribute w.yaml:3 accessPatterns[0].where.userid: no attribute "userid"';
    expect(abbreviateLongRuns(ordinary)).toBe(ordinary);
  });
});
