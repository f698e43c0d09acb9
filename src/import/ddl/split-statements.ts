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
  while (i < text.length) {
    // a line of its own: DELIMITER x (MySQL clients) or GO [n] (SQL Server tools)
    const directive = i === 0 || text[i - 1] === "\n" ? directiveAt(text, i, dialect) : undefined;
    if (directive !== undefined) {
      flush();
      if (directive.delimiter !== undefined) delimiter = directive.delimiter;
      line += directive.text.endsWith("\n") ? 1 : 0;
      i += directive.text.length;
      continue;
    }
    if (depth === 0 && text.startsWith(delimiter, i)) {
      flush();
      i += delimiter.length;
      continue;
    }
    const token = tokenAt(text, i, dialect);
    if (token.kind === "word") depth = blockDepth(token.text, text.slice(token.end, token.end + 40), depth);
    if (tokens.length === 0 || tokens.every((t) => t.kind === "space")) startLine = line;
    tokens.push({ kind: token.kind, text: token.text });
    line += token.text.split("\n").length - 1;
    i = token.end;
  }
  flush();
  return statements;
}

/** A `DELIMITER x` (MySQL) or `GO [n]` (SQL Server) line starting at `i`, with its line break. */
function directiveAt(
  text: string,
  i: number,
  dialect: "mysql" | "sqlserver",
): { readonly text: string; readonly delimiter?: string } | undefined {
  const rest = text.slice(i, i + 200);
  if (dialect === "mysql") {
    const directive = /^[ \t]*delimiter[ \t]+(\S+)[ \t]*(\r?\n|$)/i.exec(rest);
    return directive === null ? undefined : { text: directive[0], delimiter: directive[1] ?? ";" };
  }
  const directive = /^[ \t]*go([ \t]+\d+)?[ \t]*(\r?\n|$)/i.exec(rest);
  return directive === null ? undefined : { text: directive[0] };
}

/**
 * The token at `i` and where the next one starts: a comment or whitespace (as space), a string,
 * a quoted identifier, a word, a number, or one symbol.
 */
function tokenAt(
  text: string,
  i: number,
  dialect: "mysql" | "sqlserver",
): { readonly kind: TokenKind; readonly text: string; readonly end: number } {
  const c = text[i] ?? "";
  const next = text[i + 1] ?? "";
  if ((c === "-" && next === "-") || (c === "#" && dialect === "mysql")) {
    const end = text.indexOf("\n", i);
    const stop = end < 0 ? text.length : end;
    return { kind: "space", text: text.slice(i, stop), end: stop };
  }
  if (c === "/" && next === "*") {
    const close = text.indexOf("*/", i + 2);
    const end = close < 0 ? text.length : close + 2;
    return { kind: "space", text: text.slice(i, end), end };
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
    return {
      kind: c === "'" ? "string" : "quoted",
      text: text.slice(i, Math.min(text.length, j + 1)),
      end: j + 1,
    };
  }
  if (/\s/.test(c)) {
    const match = /^\s+/.exec(text.slice(i, i + 10_000))?.[0] ?? c;
    return { kind: "space", text: match, end: i + match.length };
  }
  const rest = text.slice(i, i + 200);
  const word = /^[A-Za-z_@#$\u0080-\uffff][\w@#$\u0080-\uffff]*/.exec(rest)?.[0];
  if (word !== undefined) return { kind: "word", text: word, end: i + word.length };
  const number = /^\d+(\.\d+)?/.exec(rest)?.[0];
  if (number !== undefined) return { kind: "number", text: number, end: i + number.length };
  return { kind: "symbol", text: c, end: i + 1 };
}

/**
 * The BEGIN ... END / CASE ... END depth after `word` (`following`: the text after it): a `;`
 * inside a procedure's or trigger's body does not end the statement. BEGIN TRAN(SACTION), BEGIN
 * WORK, BEGIN DISTRIBUTED and a bare BEGIN; start a transaction, not a block.
 */
function blockDepth(word: string, following: string, depth: number): number {
  const upper = word.toUpperCase();
  const after = /^\s*(\w+|;)?/.exec(following)?.[1]?.toUpperCase();
  if (
    (upper === "BEGIN" && !["TRAN", "TRANSACTION", "WORK", "DISTRIBUTED", ";", undefined].includes(after)) ||
    upper === "CASE"
  )
    return depth + 1;
  if (upper === "END" && depth > 0) return depth - 1;
  return depth;
}
