/**
 * User text made safe to show. Characters in user text (names, descriptions) that must never
 * reach a terminal, a document or generated code as they are: C0 and C1 control characters
 * (NUL; ESC starts terminal escape sequences), DEL, the line and paragraph separators, and the
 * Unicode bidirectional formatting characters that can make text read differently from what it
 * is ("Trojan Source", CVE-2021-42574: U+202A-U+202E embeddings and overrides, U+2066-U+2069
 * isolates, U+200E/U+200F and U+061C marks).
 */

/* eslint-disable no-control-regex -- these expressions exist to find control characters */

/** One character that is shown escaped (see the module comment). Global: for `replace`. */
export const UNSAFE_CHARACTERS =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** True when `text` holds a character {@link UNSAFE_CHARACTERS} matches. */
export function hasUnsafeCharacters(text: string): boolean {
  return UNSAFE_TEST.test(text);
}
const UNSAFE_TEST = new RegExp(UNSAFE_CHARACTERS.source);

/** The unsafe characters but C0, which JSON text holds only as its own whitespace. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The unsafe characters but line feed and tab, which multi-line reports use. */
const UNSAFE_IN_TEXT =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/* eslint-enable no-control-regex */

/** The `\uXXXX` spelling of one UTF-16 code unit. */
export function unicodeEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * Text with every unsafe character written as a visible `\uXXXX` escape, so what is printed is
 * what the text holds and nothing in it can act on the terminal or reorder the line.
 * @example escapeControlCharacters("a\u001b[2Jb") // "a\\u001b[2Jb"
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, unicodeEscape);
}

/**
 * A multi-line report for the terminal: like {@link escapeControlCharacters}, but its line feeds
 * and tabs are kept.
 */
export function escapeTerminalText(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, unicodeEscape);
}

/**
 * JSON text (from `JSON.stringify`, which escapes C0 controls only) with the other unsafe
 * characters escaped too: the same JSON value, but safe to show in a terminal.
 * @example escapeJsonText(JSON.stringify("a\u202eb")) // '"a\\u202eb"'
 */
export function escapeJsonText(json: string): string {
  // Raw C0 characters in JSON text are its own whitespace (the string escapes them): kept.
  return json.replace(UNSAFE_IN_JSON, unicodeEscape);
}

/** Runs of non-space characters longer than this are shortened on the terminal. */
const LONGEST_SHOWN_RUN = 120;
const LONG_RUN = new RegExp(`[^\\s".:]{${LONGEST_SHOWN_RUN + 1},}`, "g");

/**
 * A line for the terminal with every very long name in it shortened to its start and end and
 * its length (`AAAA…AAAA (1,000,000 characters)`): a 1 MB name named in a message and in its
 * path is printed as a few dozen characters, not twice a megabyte.
 */
export function abbreviateLongRuns(line: string): string {
  return line.replace(
    LONG_RUN,
    (run) => `${run.slice(0, 48)}…${run.slice(-24)} (${run.length.toLocaleString("en-US")} characters)`,
  );
}
