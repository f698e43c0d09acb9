import fc from "fast-check";
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import {
  codeFence,
  escapeHtml,
  escapeMarkdownText,
  escapeTableCell,
  formatBytes,
  formatPercent,
  inlineCode,
  link,
  table,
} from "./markdown.js";

/** The text a browser shows for marked's HTML (the entities marked writes decoded). */
function shownText(html: string): string {
  return html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Splits a GFM table row into cells the way GFM does: on `|` not preceded by a backslash. */
function cellsOf(row: string): string[] {
  const inner = row.trim().replace(/^\|/, "").replace(/\|$/, "");
  return inner.split(/(?<!\\)\|/);
}

const hostile = "a|b `code` <script>alert(1)</script>\nnext line * _ [x](y) # h \\ ~";

describe("escapeHtml", () => {
  it("escapes the HTML-significant characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("escapeMarkdownText", () => {
  it("removes line breaks, HTML tags and unescaped pipes, with backslash escapes only", () => {
    const out = escapeMarkdownText(hostile);
    expect(out).not.toMatch(/[\r\n]/);
    expect(out).not.toContain("<script>");
    expect(out).toContain("\\<script\\>");
    expect(out).not.toMatch(/(?<!\\)\|/);
    expect(out).not.toMatch(/(?<!\\)`/);
    expect(out).toContain("\\*");
    expect(out).toContain("\\[x\\]");
    expect(out).toContain("\\#");
    expect(out).toContain("\\\\");
  });
  it("leaves plain text alone and writes no HTML entity (the audit's food &quot;delivery&quot;)", () => {
    expect(escapeMarkdownText("Get a user's profile, 50 per page (newest first)")).toBe(
      "Get a user's profile, 50 per page (newest first)",
    );
    expect(escapeMarkdownText('food "delivery" & more')).toBe('food "delivery" \\& more');
    expect(escapeMarkdownText('food "delivery" & <b>')).not.toMatch(/&(quot|amp|lt|gt|#39);/);
    // Amounts stay readable; a `$` that could delimit math (GitHub) is escaped.
    expect(escapeMarkdownText("$25,241.81/month vs $x$")).toBe("$25,241.81/month vs \\$x\\$");
  });
  it("renders (marked, CommonMark + GFM) as exactly the text given, with no HTML element", () => {
    const text = fc.string({
      unit: fc.constantFrom(..."ab <>&\"';|`*_[]()#~!$:-+=.1\\/\n".split(""), "&amp;", "<script>", "&#60;"),
      maxLength: 40,
    });
    fc.assert(
      fc.property(text, (raw) => {
        const html = marked.parseInline(`x ${escapeMarkdownText(raw)} x`, { async: false });
        expect(html).not.toMatch(/<(?!br>)[a-z/!]/i);
        // Line breaks become spaces; marked collapses nothing else inline.
        expect(shownText(html)).toBe(`x ${raw.replace(/[\r\n\t\u2028\u2029]+/g, " ")} x`);
      }),
      { numRuns: 500 },
    );
  });
});

describe("link", () => {
  it("writes an autolink for a plain web address and code otherwise", () => {
    expect(link("https://azure.microsoft.com/pricing/details/cosmos-db/")).toBe(
      "<https://azure.microsoft.com/pricing/details/cosmos-db/>",
    );
    expect(link("javascript:alert(1)")).toBe("`javascript:alert(1)`");
    expect(link("https://x.test/<b>")).toBe("`https://x.test/<b>`");
  });
});

describe("escapeTableCell", () => {
  it("shows a dash for empty text", () => {
    expect(escapeTableCell("  ")).toBe("-");
  });
});

describe("table", () => {
  it("keeps the column count on every row whatever the cells contain", () => {
    const rendered = table(
      ["A", "B", "C"],
      [
        [escapeTableCell(hostile), escapeTableCell("x|y|z"), "ok"],
        [escapeTableCell("line1\nline2")],
        ["1", "2", "3", "4"],
      ],
    );
    const lines = rendered.split("\n");
    expect(lines).toHaveLength(5);
    for (const line of lines.filter((_, i) => i !== 1)) expect(cellsOf(line)).toHaveLength(3);
    expect(rendered).not.toContain("<script>");
    // A Markdown parser sees one table of three columns and four rows, and no HTML.
    const [parsed] = marked.lexer(rendered);
    expect(parsed?.type).toBe("table");
    if (parsed?.type === "table") {
      expect(parsed["header"]).toHaveLength(3);
      expect(parsed["rows"]).toHaveLength(3);
      // GFM takes the backslash of an escaped pipe off before the cell's inline parsing.
      expect(parsed["rows"][0][0].text).toBe(escapeTableCell(hostile).replace(/\\\|/g, "|"));
    }
    expect(marked.parse(rendered, { async: false })).not.toMatch(/<script/);
  });
  it("flattens line breaks a caller left in a cell", () => {
    const rendered = table(["A"], [["x\ny"]]);
    expect(rendered.split("\n")).toHaveLength(3);
  });
});

describe("codeFence", () => {
  it("uses a fence longer than any backtick run in the content", () => {
    const content = "before\n```\nnot the end\n````\nafter";
    const fenced = codeFence(content, "json");
    const lines = fenced.split("\n");
    expect(lines[0]).toBe("`````json");
    expect(lines.at(-1)).toBe("`````");
    // No line inside is a closing fence of the chosen length.
    expect(lines.slice(1, -1).some((l) => /^`{5,}\s*$/.test(l))).toBe(false);
  });
  it("uses three backticks for plain content and sanitizes the language", () => {
    expect(codeFence("x", "js\n<b>")).toBe("```jsb\nx\n```");
  });
});

describe("inlineCode", () => {
  it("cannot be closed by backticks inside and escapes pipes for tables", () => {
    expect(inlineCode("a`b")).toBe("``a`b``");
    expect(inlineCode("`x`")).toBe("`` `x` ``");
    expect(cellsOf(`| ${inlineCode("a|b")} | c |`)).toHaveLength(2);
  });
});

describe("formatting", () => {
  it("formats bytes and percentages", () => {
    // as typed up to 10,000 bytes (issue 29: 3,000 bytes printed as "2.9 KB"), binary units named so
    expect(formatBytes(3000)).toBe("3,000 bytes");
    expect(formatBytes(512)).toBe("512 bytes");
    expect(formatBytes(20_480)).toBe("20 KiB");
    expect(formatBytes(2 * 1024 * 1024)).toBe("2 MiB");
    expect(formatPercent(0.4567)).toBe("45.7%");
  });
});
