/**
 * Splits a MySQL or SQL Server script into statements, so that one statement the parser cannot
 * read is listed and the others are still imported. A lexer, not a parser: it knows strings,
 * quoted identifiers and comments (where a `;` does not end a statement), MySQL's `DELIMITER`
 * lines, SQL Server's `GO` batch separator, and BEGIN ... END / CASE ... END bodies of
 * procedures and triggers. Each statement keeps its first line number and its tokens.
 */

export type TokenKind = "word" | "quoted" | "string" | "number" | "symbol" | "space";

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
}

export interface SplitStatement {
  readonly line: number;
  readonly tokens: readonly Token[];
}

/** The statement's text, comments and layout kept. */
export function statementText(statement: SplitStatement): string {
  return statement.tokens
    .map((t) => t.text)
    .join("")
    .trim();
}

/** The statement's words in upper case, without quoting, for classifying it. */
export function leadingWords(statement: SplitStatement, count: number): string[] {
  return statement.tokens
    .filter((t) => t.kind === "word")
    .slice(0, count)
    .map((t) => t.text.toUpperCase());
}

/** Splits `text`; `mysql` reads `#` comments, backslash escapes and DELIMITER, `sqlserver` GO and [names]. */
export function splitStatements(text: string, dialect: "mysql" | "sqlserver"): SplitStatement[] {
  const statements: SplitStatement[] = [];
  let tokens: Token[] = [];
  let line = 1;
  let startLine = 1;
  let depth = 0;
  let delimiter = ";";
  let i = 0;
  const flush = () => {
    if (tokens.some((t) => t.kind !== "space")) statements.push({ line: startLine, tokens });
    tokens = [];
    depth = 0;
  };
  const push = (kind: TokenKind, value: string) => {
    if (tokens.length === 0 || tokens.every((t) => t.kind === "space")) startLine = line;
    tokens.push({ kind, text: value });
    line += value.split("\n").length - 1;
  };
  const atLineStart = () => i === 0 || text[i - 1] === "\n";
  while (i < text.length) {
    const rest = text.slice(i, i + 200);
    // a line of its own: DELIMITER x (MySQL clients) or GO [n] (SQL Server tools)
    if (atLineStart()) {
      const directive =
        dialect === "mysql"
          ? /^[ \t]*delimiter[ \t]+(\S+)[ \t]*(\r?\n|$)/i.exec(rest)
          : /^[ \t]*go([ \t]+\d+)?[ \t]*(\r?\n|$)/i.exec(rest);
      if (directive !== null) {
        flush();
        if (dialect === "mysql") delimiter = directive[1] ?? ";";
        line += directive[0].endsWith("\n") ? 1 : 0;
        i += directive[0].length;
        continue;
      }
    }
    if (depth === 0 && text.startsWith(delimiter, i)) {
      flush();
      i += delimiter.length;
      continue;
    }
    const c = text[i] ?? "";
    const next = text[i + 1] ?? "";
    let end: number;
    if (c === "-" && next === "-") {
      end = text.indexOf("\n", i);
      push("space", text.slice(i, end < 0 ? text.length : end));
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === "#" && dialect === "mysql") {
      end = text.indexOf("\n", i);
      push("space", text.slice(i, end < 0 ? text.length : end));
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === "/" && next === "*") {
      end = text.indexOf("*/", i + 2);
      end = end < 0 ? text.length : end + 2;
      push("space", text.slice(i, end));
      i = end;
      continue;
    }
    if (c === "'" || c === '"' || c === "`" || (c === "[" && dialect === "sqlserver")) {
      const close = c === "[" ? "]" : c;
      let j = i + 1;
      while (j < text.length) {
        if (text[j] === "\\" && dialect === "mysql" && c !== "`") j += 2;
        else if (text[j] === close && text[j + 1] === close) j += 2;
        else if (text[j] === close) break;
        else j++;
      }
      push(c === "'" ? "string" : "quoted", text.slice(i, Math.min(text.length, j + 1)));
      i = j + 1;
      continue;
    }
    if (/\s/.test(c)) {
      const match = /^\s+/.exec(text.slice(i, i + 10_000))?.[0] ?? c;
      push("space", match);
      i += match.length;
      continue;
    }
    const word = /^[A-Za-z_@#$\u0080-\uffff][\w@#$\u0080-\uffff]*/.exec(rest)?.[0];
    if (word !== undefined) {
      const upper = word.toUpperCase();
      const following = /^\s*(\w+|;)?/
        .exec(text.slice(i + word.length, i + word.length + 40))?.[1]
        ?.toUpperCase();
      if (
        (upper === "BEGIN" &&
          !["TRAN", "TRANSACTION", "WORK", "DISTRIBUTED", ";", undefined].includes(following)) ||
        upper === "CASE"
      )
        depth++;
      else if (upper === "END" && depth > 0) depth--;
      push("word", word);
      i += word.length;
      continue;
    }
    const number = /^\d+(\.\d+)?/.exec(rest)?.[0];
    if (number !== undefined) {
      push("number", number);
      i += number.length;
      continue;
    }
    push("symbol", c);
    i++;
  }
  flush();
  return statements;
}
