/**
 * A parser for the subset of Bicep that `render/bicep.ts` writes, for tests: decorators, `param`,
 * `var`, `resource` (an object or a `[for ...: {...}]` loop) and `output` declarations, with
 * values written one property or item per line. It is strict: a line it does not understand is an
 * error, so a change in the generated shape shows up in the tests instead of passing unchecked.
 */

/** A Bicep value as written. */
export type BicepNode =
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "number"; readonly value: number }
  | { readonly kind: "bool"; readonly value: boolean }
  | { readonly kind: "expression"; readonly text: string }
  | { readonly kind: "object"; readonly properties: ReadonlyMap<string, BicepNode> }
  | { readonly kind: "array"; readonly items: readonly BicepNode[] }
  /** `[for <binding> in <source>: <body>]`: an array of `body`. */
  | { readonly kind: "for"; readonly binding: string; readonly source: string; readonly body: BicepNode };

export interface BicepParam {
  readonly name: string;
  readonly type: string;
  readonly defaultValue?: BicepNode;
  /** Values of an `@allowed([...])` decorator. */
  readonly allowed?: readonly BicepNode[];
}

export interface BicepResource {
  readonly symbol: string;
  /** `Microsoft.DocumentDB/databaseAccounts@2024-11-15` */
  readonly typeAndVersion: string;
  readonly body: BicepNode;
}

export interface BicepFile {
  readonly params: ReadonlyMap<string, BicepParam>;
  readonly vars: ReadonlyMap<string, BicepNode>;
  readonly resources: readonly BicepResource[];
  readonly outputs: readonly string[];
}

/** A Bicep string literal's value: `'it\'s'` -> `it's`. */
export function parseBicepString(literal: string): string {
  if (!/^'(?:[^'\\]|\\.)*'$/.test(literal)) throw new Error(`not a single Bicep string: ${literal}`);
  return literal.slice(1, -1).replace(/\\(u\{[0-9a-fA-F]+\}|.)/g, (_, c: string) => {
    if (c.startsWith("u{")) return String.fromCodePoint(parseInt(c.slice(2, -1), 16));
    const escapes: Record<string, string> = { n: "\n", r: "\r", t: "\t", "\\": "\\", "'": "'", $: "$" };
    const decoded = escapes[c];
    if (decoded === undefined) throw new Error(`unknown escape \\${c} in ${literal}`);
    return decoded;
  });
}

class Lines {
  private index = 0;
  constructor(private readonly lines: readonly string[]) {}
  next(): string | undefined {
    const line = this.lines[this.index];
    this.index += 1;
    return line === undefined ? undefined : line.trim();
  }
  get lineNumber(): number {
    return this.index;
  }
}

function scalar(text: string): BicepNode {
  if (text.startsWith("'") && /^'(?:[^'\\]|\\.)*'$/.test(text)) {
    // An unescaped ${ starts an interpolation: the value is computed.
    if (/(?<!\\)\$\{/.test(text)) return { kind: "expression", text };
    return { kind: "string", value: parseBicepString(text) };
  }
  if (/^-?\d+(\.\d+)?$/.test(text)) return { kind: "number", value: Number(text) };
  if (text === "true" || text === "false") return { kind: "bool", value: text === "true" };
  return { kind: "expression", text };
}

function parseValue(rest: string, lines: Lines): BicepNode {
  if (rest === "{}") return { kind: "object", properties: new Map() };
  if (rest === "[]") return { kind: "array", items: [] };
  if (rest === "{") return parseObject(lines, "}");
  if (rest === "[") return parseArray(lines);
  const loop = /^\[for (.+?) in (.+?): \{$/.exec(rest);
  if (loop?.[1] !== undefined && loop[2] !== undefined) {
    return { kind: "for", binding: loop[1], source: loop[2], body: parseObject(lines, "}]") };
  }
  return scalar(rest);
}

function parseObject(lines: Lines, end: string): BicepNode {
  const properties = new Map<string, BicepNode>();
  for (;;) {
    const line = lines.next();
    if (line === undefined) throw new Error(`unterminated object (expected ${end})`);
    if (line === end) return { kind: "object", properties };
    const match = /^([A-Za-z_][A-Za-z0-9_]*|'(?:[^'\\]|\\.)*'): (.+)$/.exec(line);
    if (match?.[1] === undefined || match[2] === undefined) {
      throw new Error(`line ${lines.lineNumber}: not a property: ${line}`);
    }
    const key = match[1].startsWith("'") ? parseBicepString(match[1]) : match[1];
    if (properties.has(key)) throw new Error(`line ${lines.lineNumber}: duplicate property ${key}`);
    properties.set(key, parseValue(match[2], lines));
  }
}

function parseArray(lines: Lines, end = "]"): BicepNode {
  const items: BicepNode[] = [];
  for (;;) {
    const line = lines.next();
    if (line === undefined) throw new Error("unterminated array");
    if (line === end) return { kind: "array", items };
    items.push(parseValue(line, lines));
  }
}

/** The declarations of a generated `main.bicep`; throws on any line outside the subset. */
export function parseBicepSubset(text: string): BicepFile {
  const lines = new Lines(text.split("\n"));
  const params = new Map<string, BicepParam>();
  const vars = new Map<string, BicepNode>();
  const resources: BicepResource[] = [];
  const outputs: string[] = [];
  let allowed: BicepNode[] | undefined;
  for (let line = lines.next(); line !== undefined; line = lines.next()) {
    if (line === "" || line.startsWith("//")) continue;
    if (/^@(description|minLength|maxLength)\(.*\)$/.test(line)) continue;
    if (line === "@allowed([") {
      const list = parseArray(lines, "])");
      if (list.kind !== "array") throw new Error(`line ${lines.lineNumber}: malformed @allowed`);
      allowed = [...list.items];
      continue;
    }
    if (line.startsWith("@allowed(["))
      throw new Error(`line ${lines.lineNumber}: @allowed must list one value a line`);
    const param = /^param ([A-Za-z_][A-Za-z0-9_]*) (string|bool|int|array|object)(?: = (.+))?$/.exec(line);
    if (param?.[1] !== undefined && param[2] !== undefined) {
      params.set(param[1], {
        name: param[1],
        type: param[2],
        ...(param[3] === undefined ? {} : { defaultValue: parseValue(param[3], lines) }),
        ...(allowed === undefined ? {} : { allowed }),
      });
      allowed = undefined;
      continue;
    }
    const variable = /^var ([A-Za-z_][A-Za-z0-9_]*) = (.+)$/.exec(line);
    if (variable?.[1] !== undefined && variable[2] !== undefined) {
      vars.set(variable[1], parseValue(variable[2], lines));
      continue;
    }
    const resource = /^resource ([A-Za-z_][A-Za-z0-9_]*) '([^']+)' = (.+)$/.exec(line);
    if (resource?.[1] !== undefined && resource[2] !== undefined && resource[3] !== undefined) {
      resources.push({
        symbol: resource[1],
        typeAndVersion: resource[2],
        body: parseValue(resource[3], lines),
      });
      continue;
    }
    const output = /^output ([A-Za-z_][A-Za-z0-9_]*) [a-z]+ = .+$/.exec(line);
    if (output?.[1] !== undefined) {
      outputs.push(output[1]);
      continue;
    }
    throw new Error(`line ${lines.lineNumber}: not in the Bicep subset: ${line}`);
  }
  return { params, vars, resources, outputs };
}
