/**
 * Safe Markdown building blocks. Every piece of user text (entity names, descriptions, pattern
 * names) that goes into a rendered document passes through one of these functions, so it can
 * neither break a table, start a heading or a list, nor inject HTML.
 */

import { formatFigure } from "../common/format-number.js";
import { escapeControlCharacters, escapeTerminalText } from "../common/safe-text.js";

const HTML_ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes the five HTML-significant characters: `<b>` -> `&lt;b&gt;`; control and bidirectional
 * characters are shown as `\uXXXX` (line feeds and tabs kept).
 */
export function escapeHtml(text: string): string {
  return escapeTerminalText(text).replace(/[&<>"']/g, (ch) => HTML_ENTITIES[ch] ?? ch);
}

/**
 * Collapses every line break and tab into one space, so text stays on its line, and writes the
 * other control and bidirectional characters as visible `\uXXXX` escapes.
 */
function flattenLines(text: string): string {
  return escapeControlCharacters(text.replace(/[\r\n\t\u2028\u2029]+/g, " "));
}

/**
 * Escapes text for use inline in Markdown with backslash escapes only (CommonMark: any ASCII
 * punctuation may be escaped), so the text shows as written on GitHub and in any CommonMark
 * renderer, never as HTML entities: `<`, `>` and `&` cannot open a tag or an entity, `|` cannot
 * end a table cell, `` ` `` `*` `_` `[` `]` `#` `~` `\` cannot start code, emphasis, links,
 * headings or strike-through, and a `$` not followed by a digit cannot delimit math (GitHub);
 * line breaks become spaces.
 * `escapeMarkdownText('a|b <script> "x"')` -> `a\|b \<script\> "x"`.
 */
export function escapeMarkdownText(text: string): string {
  // A `$` before a digit (an amount: `$1,234`) can never close a math span, so it stays as is.
  return flattenLines(text).replace(/[\\`*_[\]#|~<>&]|\$(?!\d)/g, (ch) => `\\${ch}`);
}

/** Escapes text for a table cell: like `escapeMarkdownText`; an empty cell shows a dash. */
export function escapeTableCell(text: string): string {
  const escaped = escapeMarkdownText(text).trim();
  return escaped === "" ? "-" : escaped;
}

/**
 * Inline code that no backtick run in `text` can close early: the fence is one backtick longer
 * than the longest run inside, and pipes are escaped so the span is safe in a table cell.
 */
export function inlineCode(text: string): string {
  const flat = flattenLines(text);
  const fence = "`".repeat(longestBacktickRun(flat) + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  // A `|` ends a table cell even inside a code span (GFM); `\|` is shown as `|` there.
  return `${fence}${pad}${flat.replace(/\|/g, "\\|")}${pad}${fence}`;
}

/**
 * A web address as a Markdown autolink (`<https://...>`) when it is a plain http(s) address,
 * else as inline code: an autolink shows its text literally, so it takes no escapes and must
 * hold no space, `<` or `>`.
 */
export function link(url: string): string {
  return /^https?:\/\/[A-Za-z0-9\-._~:/?#@!$&'()*+,;=%]+$/.test(url) ? `<${url}>` : inlineCode(url);
}

/**
 * A fenced code block that the content cannot close: the fence is longer than any backtick run
 * in the content (at least three). `codeFence("x = 1", "ts")`.
 */
export function codeFence(rawContent: string, language = ""): string {
  const content = escapeTerminalText(rawContent);
  const fence = "`".repeat(Math.max(3, longestBacktickRun(content) + 1));
  const body = content.endsWith("\n") ? content : `${content}\n`;
  return `${fence}${language.replace(/[^A-Za-z0-9_+-]/g, "")}\n${body}${fence}`;
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

/**
 * A Markdown table. Cells are Markdown already (callers escape user text with `escapeTableCell`
 * or build it with `inlineCode`); line breaks inside a cell are flattened and every row is
 * padded or cut to the number of headers, so the column count cannot vary.
 */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const width = headers.length;
  const line = (cells: readonly string[]): string => {
    const fitted = Array.from({ length: width }, (_, i) => flattenLines(cells[i] ?? "").trim() || "-");
    return `| ${fitted.join(" | ")} |`;
  };
  const separator = `|${headers.map(() => "---").join("|")}|`;
  return [line(headers), separator, ...rows.map(line)].join("\n");
}

/** A bullet list, one item per line; items are Markdown already. */
export function bulletList(items: readonly string[]): string {
  return items.map((item) => `- ${flattenLines(item)}`).join("\n");
}

/**
 * Formats a number with thousands separators and at most `digits` decimals, more for a small
 * value so that it keeps two significant digits (`formatFigure`): 12345.6 -> `12,345.6`,
 * 0.005 -> `0.005`; a value under 0.000001 -> `<0.000001`.
 */
export function formatNumber(value: number, digits = 1): string {
  return formatFigure(value, { decimals: digits });
}

/**
 * Formats a share 0..1 as a percentage with at most `digits` decimals (two significant digits
 * for a small share): 0.456 -> `45.6%`, 0.00012 -> `0.012%`; under 0.001% -> `<0.001%`.
 */
export function formatPercent(share: number, digits = 1): string {
  return `${formatFigure(share * 100, { decimals: digits, floor: 0.001 })}%`;
}

/**
 * Formats a byte count as the workload gives it: exactly in bytes up to 10,000 (3,000 bytes, not
 * "2.9 KB"), else with a binary unit named as one: 2,097,152 -> 2 MiB, 3.5e9 -> 3.3 GiB.
 */
export function formatBytes(bytes: number): string {
  if (Math.abs(bytes) < 10_000) return `${formatNumber(bytes, 0)} bytes`;
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${formatNumber(value, unit === 0 ? 0 : 1)} ${units[unit] ?? "bytes"}`;
}
