/**
 * Parses a YAML or JSON document into plain data while keeping where each value came from,
 * so that every issue can name its line. Refuses oversized input and YAML alias bombs.
 */
import { LineCounter, parseDocument, isMap, isSeq, isPair, isScalar, visit, type Node } from "yaml";
import type { Issue } from "../common/issues.js";

/** Inputs larger than this are refused before parsing. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** Aliases allowed in one document; more is treated as an alias bomb ("billion laughs"). */
export const MAX_ALIASES = 100;
/**
 * Separators of list and mapping entries (`[ { , : - ? *`) allowed in one document: an upper
 * bound of its entries, counted before parsing. The YAML library needs about 1 KB and tens of
 * microseconds per node, so 10 MB of `[],[],...` (3 million lists) would take minutes and more
 * than the 1 GB a command may use; 200,000 keeps reading under about 400 MB. The largest
 * workloads in practice (500 entities, 2,000 access patterns) have about 45,000.
 */
export const MAX_DOCUMENT_SEPARATORS = 200_000;

export interface ParsedDocument {
  /** The document as plain JSON-compatible data. */
  readonly value: unknown;
  /** 1-based line of the value at `path` (closest ancestor that has a position). */
  lineOf(path: readonly (string | number)[]): number | undefined;
  /**
   * 1-based line of the key of the mapping entry at `path` (where a block mapping or list value
   * starts on the next line, this is the line that names the field); undefined when `path` does
   * not end at a key of a mapping.
   */
  keyLineOf(path: readonly (string | number)[]): number | undefined;
}

export type ParseOutcome =
  | { readonly ok: true; readonly document: ParsedDocument }
  | {
      readonly ok: false;
      readonly issues: readonly Issue[];
      /**
       * With syntax errors: what the YAML library recovered of the document, and the line of the
       * first error. What lies above that line reads as written, so a loader may still check it
       * and report its problems in the same pass (issue 29: `check` lists every problem at once).
       */
      readonly recovered?: { readonly document: ParsedDocument; readonly firstErrorLine: number };
    };

/**
 * Parses `text` (YAML, of which JSON is a subset). `file` is only used in issue messages.
 * @example parseSourceDocument("version: 1", "w.yaml")
 */
export function parseSourceDocument(given: string, file?: string): ParseOutcome {
  const text = normalizeLineEndings(given);
  const where = file === undefined ? {} : { file };
  const refused = sizeRefusal(text);
  if (refused !== undefined) return { ok: false, issues: [{ ...refused, ...where }] };
  const lineCounter = new LineCounter();
  // logLevel "error": the YAML library's warnings (a collection used as a key) would otherwise be
  // printed by Node on stderr, raw; what matters of them is reported as issues.
  const document = parseDocument(text, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: true,
    strict: true,
    logLevel: "error",
  });
  const lineAt = (offset: number): number => lineCounter.linePos(offset).line;
  if (document.errors.length > 0) {
    const firstErrorLine = Math.min(...document.errors.map((error) => lineAt(error.pos[0])));
    return {
      ok: false,
      ...recoveredPart(document, lineAt, firstErrorLine),
      issues: document.errors.map((error) => ({
        code: "source.syntax",
        severity: "error" as const,
        path: [],
        message: /call stack/i.test(error.message)
          ? TOO_DEEP
          : `not valid YAML or JSON: ${firstLine(error.message)}`,
        ...where,
        line: lineAt(error.pos[0]),
      })),
    };
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const aliasBomb = /alias/i.test(message);
    return {
      ok: false,
      issues: [
        {
          code: aliasBomb ? "source.aliasBomb" : "source.syntax",
          severity: "error",
          path: [],
          message: aliasBomb
            ? `the document expands too many YAML aliases (more than ${MAX_ALIASES}); refusing it as a possible alias bomb (the first alias is on this line)`
            : /call stack/i.test(message)
              ? TOO_DEEP
              : `cannot read the document: ${firstLine(message)}`,
          ...where,
          line: firstAliasLine(document, lineAt) ?? 1,
        },
      ],
    };
  }
  return { ok: true, document: locatedDocument(value, document, lineAt) };
}

/** The recovered document of a text with syntax errors, when the YAML library gives one. */
function recoveredPart(
  document: ReturnType<typeof parseDocument>,
  lineAt: (offset: number) => number,
  firstErrorLine: number,
): { recovered?: { document: ParsedDocument; firstErrorLine: number } } {
  try {
    const value: unknown = document.toJS({ maxAliasCount: MAX_ALIASES });
    return { recovered: { document: locatedDocument(value, document, lineAt), firstErrorLine } };
  } catch {
    return {};
  }
}

const TOO_DEEP = "the document is nested too deeply to be read (a workload or a model needs a few levels)";

/**
 * The refusal of a text too large (bytes) or with too many entries (separators) to be parsed
 * within a command's budget, at the line where the limit falls; undefined when it can be read.
 */
/**
 * A bare carriage return (classic Mac OS line endings) as a line feed, so a file saved that way
 * loads with its lines where an editor shows them; CR LF stays (YAML reads it as one break).
 * @example normalizeLineEndings("a: 1\rb: 2\r") // "a: 1\nb: 2\n"
 */
export function normalizeLineEndings(text: string): string {
  return text.includes("\r") ? text.replace(/\r(?!\n)/g, "\n") : text;
}

function sizeRefusal(text: string): Issue | undefined {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_DOCUMENT_BYTES) {
    return {
      code: "source.tooLarge",
      severity: "error",
      path: [],
      message: `the document is ${bytes} bytes; documents over ${MAX_DOCUMENT_BYTES} bytes (10 MB) are refused (the limit falls on this line)`,
      line: lineAtByte(text, MAX_DOCUMENT_BYTES),
    };
  }
  const crowded = separatorLimitLine(text);
  if (crowded === undefined) return undefined;
  return {
    code: "source.tooComplex",
    severity: "error",
    path: [],
    message: `the document has more than ${MAX_DOCUMENT_SEPARATORS.toLocaleString("en-US")} list and mapping entries (counted by their separators [ { , : - ? *; the limit falls on this line); reading it would take more memory and time than a command may use. The largest workloads in practice (500 entities, 2,000 access patterns) have about 45,000`,
    line: crowded,
  };
}

/** The parsed `value` with the lines of its fields, from the YAML `document`'s positions. */
function locatedDocument(
  value: unknown,
  document: ReturnType<typeof parseDocument>,
  lineAt: (offset: number) => number,
): ParsedDocument {
  return {
    value,
    lineOf(path) {
      let node: unknown = document.contents;
      // An empty document (or one of only comments) has no node: its one line is line 1.
      let line = positionLine(node, lineAt) ?? 1;
      for (const segment of path) {
        node = childOf(node, segment);
        if (node === undefined) break;
        line = positionLine(node, lineAt) ?? line;
      }
      return line;
    },
    keyLineOf(path) {
      let node: unknown = document.contents;
      for (const segment of path.slice(0, -1)) {
        node = childOf(node, segment);
        if (node === undefined) return undefined;
      }
      const last = path.at(-1);
      if (last === undefined || !isMap(node)) return undefined;
      const pair = node.items.find(
        (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(last),
      );
      return pair === undefined ? undefined : positionLine(pair.key, lineAt);
    },
  };
}

function childOf(node: unknown, segment: string | number): unknown {
  if (isMap(node)) {
    const pair = node.items.find(
      (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment),
    );
    if (pair === undefined) return undefined;
    // Point at the key's line: that is where the user looks for the field.
    return pair.value ?? pair.key;
  }
  if (isSeq(node) && typeof segment === "number") return node.items[segment];
  return undefined;
}

function positionLine(node: unknown, lineAt: (offset: number) => number): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range === undefined || range === null ? undefined : lineAt(range[0]);
}

/**
 * The line on which the document's separators of entries exceed {@link MAX_DOCUMENT_SEPARATORS},
 * or undefined when they do not (one pass over the characters, no parsing).
 */
function separatorLimitLine(text: string): number | undefined {
  let separators = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === NEWLINE) line++;
    else if (SEPARATORS.has(code) && ++separators > MAX_DOCUMENT_SEPARATORS) return line;
  }
  return undefined;
}

const NEWLINE = 10;
const SEPARATORS = new Set([..."[{,:-?*"].map((character) => character.charCodeAt(0)));

/** The line of the first alias (`*name`) of the document, where the expansion starts. */
function firstAliasLine(
  document: ReturnType<typeof parseDocument>,
  lineAt: (offset: number) => number,
): number | undefined {
  let line: number | undefined;
  visit(document, {
    Alias(_, node) {
      line = positionLine(node, lineAt);
      return visit.BREAK;
    },
  });
  return line;
}

/** The 1-based line of `text` on which its UTF-8 byte `limit` falls. */
function lineAtByte(text: string, limit: number): number {
  const head = Buffer.from(text, "utf8").subarray(0, limit);
  let line = 1;
  for (let index = head.indexOf(10); index >= 0; index = head.indexOf(10, index + 1)) line++;
  return line;
}

function firstLine(message: string): string {
  return message.split("\n")[0] ?? message;
}
