/**
 * Safe pieces of TypeScript built from user text (pattern names, entity, attribute and container
 * names): identifiers that cannot break out of their place, property keys and accesses, string
 * literals and comment text.
 */

import { escapeControlCharacters, escapeJsonText } from "../../common/safe-text.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Words of a name, ASCII letters and digits only (accents dropped, apostrophes joined). */
function wordsOf(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/['\u2019]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "");
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * A camelCase identifier from free text; starts with a letter (prefix `fallback` otherwise).
 * @example camelIdentifier("Q3 List a user's posts") // "q3ListAUsersPosts"
 */
export function camelIdentifier(text: string, fallback = "x"): string {
  const words = wordsOf(text);
  const joined = words.map((word, index) => (index === 0 ? word.toLowerCase() : capitalize(word))).join("");
  if (joined === "") return fallback;
  return /^[0-9]/.test(joined) ? `${fallback}${capitalize(joined)}` : joined;
}

/**
 * A PascalCase identifier from free text.
 * @example pascalIdentifier("order-lines") // "OrderLines"
 */
export function pascalIdentifier(text: string, fallback = "X"): string {
  const joined = wordsOf(text).map(capitalize).join("");
  if (joined === "") return fallback;
  return /^[0-9]/.test(joined) ? `${fallback}${joined}` : joined;
}

/** Gives each name a unique spelling by appending 2, 3, ... to repeats. */
export function uniqueNamer(reserved: Iterable<string> = []): (name: string) => string {
  const used = new Set(reserved);
  return (name) => {
    let candidate = name;
    for (let n = 2; used.has(candidate); n++) candidate = `${name}${n}`;
    used.add(candidate);
    return candidate;
  };
}

/**
 * A string literal: JSON escaping, plus `\uXXXX` for what JSON leaves as it is (the line
 * separators, C1 controls and bidirectional formatting characters, which would make the source
 * read differently from what it does).
 */
export function stringLiteral(text: string): string {
  return escapeJsonText(JSON.stringify(text));
}

/** Any JSON-like value as a TypeScript literal (escaped like {@link stringLiteral}). */
export function valueLiteral(value: unknown): string {
  return escapeJsonText(JSON.stringify(value) ?? "undefined");
}

/** An object property key: the bare name when it is an identifier, else a string literal. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : stringLiteral(name);
}

/** `object.name`, or `object["na me"]`. */
export function propertyAccess(object: string, name: string): string {
  return IDENTIFIER.test(name) ? `${object}.${name}` : `${object}[${stringLiteral(name)}]`;
}

/** Text safe inside a block comment: one line, no comment terminator. */
export function commentText(text: string): string {
  return escapeControlCharacters(text.replace(/[\r\n\u2028\u2029]+/g, " "))
    .replace(/\*\//g, "*\\/")
    .trim();
}

/**
 * A JSON-like value as a readable TypeScript literal: identifier keys unquoted, short arrays and
 * objects on one line, longer ones one entry per line with trailing commas.
 * @example codeLiteral({ kind: "copy", target: { container: "users" } }, "") // '{ kind: "copy", target: { container: "users" } }'
 */
export function codeLiteral(value: unknown, indent: string, width = 96): string {
  if (value === null || typeof value !== "object") return valueLiteral(value);
  const inner = `${indent}  `;
  const entries: [string, string][] = Array.isArray(value)
    ? value.map((entry) => ["", codeLiteral(entry, inner, width)])
    : Object.entries(value as Record<string, unknown>)
        .filter(([, entry]) => entry !== undefined)
        .map(([key, entry]) => [`${propertyKey(key)}: `, codeLiteral(entry, inner, width)]);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{ ", " }"];
  if (entries.length === 0) return Array.isArray(value) ? "[]" : "{}";
  const oneLine = `${open}${entries.map(([key, text]) => `${key}${text}`).join(", ")}${close}`;
  if (!oneLine.includes("\n") && indent.length + oneLine.length <= width) return oneLine;
  const lines = entries.map(([key, text]) => `${inner}${key}${text},`);
  return `${open.trim()}\n${lines.join("\n")}\n${indent}${close.trim()}`;
}
