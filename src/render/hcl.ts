/**
 * HCL literals for `main.tf`: strings escaped so user text cannot end a string or start an
 * interpolation, lists, and whole JSON-like values written as HCL object and tuple expressions
 * (the `body` of an `azapi_resource`), laid out as `terraform fmt` lays them out.
 */
import { CONTROL_CHARACTERS } from "./infrastructure.js";

/**
 * An HCL string literal: quotes, backslashes and control characters escaped, and `${` / `%{`
 * doubled so user text cannot start an interpolation or a template directive.
 */
export function hclString(value: string): string {
  const escaped = value
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(/\t/g, "\\t")
    // A function, because `$$` in a replacement string means one `$`.
    .replace(/\$\{/g, () => "$${")
    .replace(/%\{/g, () => "%%{")
    .replace(CONTROL_CHARACTERS, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `"${escaped}"`;
}

/** An HCL list of strings on one line: `["/a", "/b"]`. */
export function hclList(values: readonly string[]): string {
  return `[${values.map(hclString).join(", ")}]`;
}

/** A key of an HCL object: bare when it is an identifier, else a string literal. */
function hclKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : hclString(key);
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

function scalar(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return hclString(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw new Error(`not an HCL literal: ${String(value)}`);
}

/**
 * A JSON-like value (strings, finite numbers, booleans, null, arrays, plain objects; `undefined`
 * properties left out, as `JSON.stringify` does) as an HCL expression whose continuation lines
 * start with `indent`: objects one attribute a line with the `=` of neighbouring one-line
 * attributes aligned, lists of scalars on one line, other lists one element a line.
 * @example hclValue({ paths: ["/a"], kind: "Hash" }, "") // "{\n  paths = [\"/a\"]\n  kind  = \"Hash\"\n}"
 */
export function hclValue(value: unknown, indent: string): string {
  if (isScalar(value)) return scalar(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every(isScalar)) return `[${value.map(scalar).join(", ")}]`;
    return `[\n${value.map((item) => `${inner}${hclValue(item, inner)},\n`).join("")}${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  const written = entries.map(([k, v]) => ({ key: hclKey(k), text: hclValue(v, inner) }));
  // `terraform fmt` aligns the `=` of consecutive one-line attributes; a multi-line one ends the run.
  const lines: string[] = [];
  let run: { key: string; text: string }[] = [];
  const flush = (): void => {
    const width = Math.max(0, ...run.map((e) => e.key.length));
    lines.push(...run.map((e) => `${inner}${e.key.padEnd(width)} = ${e.text}`));
    run = [];
  };
  for (const entry of written) {
    if (entry.text.includes("\n")) {
      flush();
      lines.push(`${inner}${entry.key} = ${entry.text}`);
    } else run.push(entry);
  }
  flush();
  return `{\n${lines.join("\n")}\n${indent}}`;
}
