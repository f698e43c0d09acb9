/**
 * Reading the rendered documents back (issue 18): Markdown sections, tables and lists through a
 * real Markdown lexer (`marked`), plain text out of inline Markdown, and printed figures compared
 * with the values they stand for to their displayed precision.
 */
import { marked, type Token, type Tokens } from "marked";

/** A figure as printed: `12,345.6`, `0.005`, `<0.0001`, `-3`. */
export const FIGURE = String.raw`<?-?\d[\d,]*(?:\.\d+)?`;

/**
 * Whether a printed figure stands for `actual` at its displayed precision: within half a unit
 * of its last digit, or, for `<x`, a non-zero value truly under `x`.
 */
export function figureMatches(shown: string, actual: number): boolean {
  const text = shown.trim().replace(/,/g, "");
  if (text.startsWith("<")) return actual > 0 && actual < Number(text.slice(1));
  if (!/^-?\d+(\.\d+)?$/.test(text)) return false;
  const decimals = text.includes(".") ? (text.split(".")[1] ?? "").length : 0;
  const halfUnit = 0.5 * 10 ** -decimals;
  return Math.abs(Number(text) - actual) <= halfUnit * (1 + 1e-9) + Math.abs(actual) * 1e-12;
}

/** A percentage as printed (`45.6%`, `<0.001%`) against a share 0..1. */
export function percentMatches(shown: string, share: number): boolean {
  return figureMatches(shown.replace(/%$/, ""), share * 100);
}

/** Dollars as printed (`$1,234.56`) against a value, to the cent. */
export function usdMatches(shown: string, actual: number): boolean {
  return figureMatches(shown.replace(/^\$/, "").replace(/^\*\*|\*\*$/g, ""), actual);
}

/**
 * Inline Markdown as the text a reader sees: backslash escapes and code-span fences taken off,
 * bold markers and `<br>` removed.
 */
export function plain(markdown: string): string {
  return markdown
    .replace(/<br>/g, " ")
    .replace(/(`+) ?([^`]|[^`][\s\S]*?[^`]) ?\1(?!`)/g, (_, _fence: string, inner: string) => inner)
    .replace(/\*\*/g, "")
    .replace(/\\([!-/:-@[-`{-~])/g, "$1");
}

/** One heading's part of a document: the tokens up to the next heading of its level or higher. */
export interface Section {
  readonly heading: string;
  readonly depth: number;
  readonly tokens: readonly Token[];
}

/** Every heading of a document with its section (headings in plain text). */
export function sectionsOf(markdown: string): Section[] {
  const tokens = marked.lexer(markdown);
  const sections: Section[] = [];
  tokens.forEach((token, index) => {
    if (token.type !== "heading") return;
    const heading = token as Tokens.Heading;
    const end = tokens.findIndex(
      (t, i) => i > index && t.type === "heading" && (t as Tokens.Heading).depth <= heading.depth,
    );
    sections.push({
      heading: plain(heading.text),
      depth: heading.depth,
      tokens: tokens.slice(index + 1, end === -1 ? undefined : end),
    });
  });
  return sections;
}

/** The first section with this heading (throws when the document has none: a missing section). */
export function section(sections: readonly Section[], heading: string): Section {
  const found = sections.find((s) => s.heading === heading);
  if (found === undefined) throw new Error(`the document has no section "${heading}"`);
  return found;
}

/** The rows of the tables of a section, as raw cell Markdown, each with its table's header. */
export function tableRows(tokens: readonly Token[]): { header: string[]; cells: string[] }[] {
  return tokens
    .filter((t): t is Tokens.Table => t.type === "table")
    .flatMap((table) =>
      table.rows.map((row) => ({
        header: table.header.map((cell) => plain(cell.text)),
        cells: row.map((cell) => cell.text),
      })),
    );
}

/** The items of the (top-level) lists of a section: raw Markdown, and the task box when one. */
export function listItems(tokens: readonly Token[]): { text: string; checked?: boolean }[] {
  return tokens
    .filter((t): t is Tokens.List => t.type === "list")
    .flatMap((list) =>
      list.items.map((item) => ({
        text: item.text,
        ...(item.task ? { checked: item.checked === true } : {}),
      })),
    );
}
