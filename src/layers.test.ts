/**
 * The layering of `src/`, checked on every import (STYLE.md rule 18, "dependencies point down").
 * Folders are listed from the bottom up; a module may import its own folder and the folders of
 * lower layers, never a higher one, so no two folders can import each other (no cycles) and the
 * order data flows through the tool is visible here and in the layout. The top layer holds the
 * edges (the CLI, the MCP server, the benchmarks, the test helpers): each stands on the library
 * alone, and no edge imports another.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** Bottom to top. Folders in one layer may not import each other. */
const LAYERS: readonly (readonly string[])[] = [
  ["runtime"], // the data-access runtime generated code ships with: imports only @azure/cosmos
  ["common"], // issues, the error class, number formats: the vocabulary every layer shares
  ["cosmos"], // Azure Cosmos DB facts: limits, prices, consistency, each with its source
  ["source"], // reading YAML/JSON documents with lines, suggestions
  ["workload"], // load and check a workload
  ["model"], // load, check, serialize a model; item materialization
  ["estimator"], // the RU charge of one operation
  ["planner"], // how each access pattern executes on a model; container definitions
  ["cost"], // the evaluation: RU/s, partitions, hot partitions, throughput, the bill
  ["analysis"], // workload analysis shared by the design and the documents (thresholds, checklist)
  ["design"], // the search for the cheapest model that respects every limit
  ["synthetic"], // data shaped like the workload (sample items, verification datasets)
  ["render"], // documents, artifacts, generated code, plain-text reports
  ["verify"], // running a model against a Cosmos DB endpoint
  ["deliverables"], // every file a design writes, rendered together
  ["session"], // the modeling interview, pure
  ["import"], // a relational database (catalog, statistics, statements) or DDL -> a draft workload
  ["files"], // the file system: bounded reads, atomic writes, the manifest of written files
  ["session-store"], // a session's folder on disk
  ["cli", "mcp", "bench", "test-support"], // the edges
];

/**
 * The imports between edges, all dynamic: the `cosmos-modeler mcp` command starts the MCP server
 * through its public entry (the `cosmos-modeler/mcp` subpath), loaded only when that command runs
 * (the MCP server itself imports nothing of the CLI); two benches load the test helpers' random
 * workloads and design property, so `npm run bench` checks the same property as `npm test`.
 */
const ALLOWED_BETWEEN_EDGES: readonly { readonly from: string; readonly to: string }[] = [
  { from: "cli/commands/mcp.ts", to: "mcp/server.ts" }, // dynamic import() only
  // The benches run the design property and draw random workloads as the tests do (the same code).
  { from: "bench/design-property.ts", to: "test-support/design-property.ts" },
  { from: "bench/design-property.ts", to: "test-support/workload-arbitrary.ts" },
  { from: "bench/design-property.ts", to: "test-support/design-verification.ts" },
  // ... and report the figures of the workloads they drew.
  { from: "bench/design-property.ts", to: "test-support/workload-figures.ts" },
  { from: "bench/design-speed.ts", to: "test-support/workload-arbitrary.ts" },
  // The differential bench runs the judge and the mutations its test runs, on the same sources.
  { from: "bench/differential.ts", to: "test-support/differential-run.ts" },
  { from: "bench/differential.ts", to: "test-support/workload-sources.ts" },
  // The crash-schedule and paging benches run their tests' properties on more designs.
  { from: "bench/crash-schedule.ts", to: "test-support/crash-property.ts" },
  { from: "bench/crash-schedule.ts", to: "test-support/workload-sources.ts" },
  { from: "bench/paging.ts", to: "test-support/paging-designs.ts" },
  { from: "bench/paging.ts", to: "test-support/design-verification.ts" },
  // The design speed bench runs its designs with the heap budget the CLI gives design.
  { from: "bench/design-speed.ts", to: "cli/heap-budget.ts" },
];

/** The public entry: may import every layer but the edges. */
const ENTRY = "index.ts";

const SRC = dirname(fileURLToPath(import.meta.url));

interface Import {
  readonly from: string;
  readonly to: string;
  readonly dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith("__") ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const toPosix = (path: string): string => path.split(sep).join("/");

/** Every relative import of `file`: static, `export ... from`, type-only and dynamic `import()`. */
function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const from = toPosix(relative(SRC, file));
  const found: Import[] = [];
  const add = (specifier: ts.Node | undefined, dynamic: boolean): void => {
    if (specifier === undefined || !ts.isStringLiteralLike(specifier) || !specifier.text.startsWith("."))
      return;
    const target = resolve(dirname(file), specifier.text.replace(/\.js$/, ".ts"));
    found.push({ from, to: toPosix(relative(SRC, target)), dynamic });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier, false);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node.arguments[0], true);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      add(node.argument.literal, false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const folderOf = (path: string): string => (path.includes("/") ? (path.split("/")[0] ?? "") : "");
const rankOf = new Map(LAYERS.flatMap((folders, rank) => folders.map((folder) => [folder, rank] as const)));
const EDGES = new Set(LAYERS[LAYERS.length - 1]);

/** Why an import breaks the layering, or undefined when it is allowed. */
function violation(edge: Import): string | undefined {
  const fromFolder = folderOf(edge.from);
  const toFolder = folderOf(edge.to);
  if (fromFolder === toFolder && fromFolder !== "") return undefined;
  if (fromFolder === "") {
    if (edge.from !== ENTRY) return `${edge.from}: only ${ENTRY} may live directly in src/`;
    return EDGES.has(toFolder) ? `${ENTRY} imports the edge ${toFolder}/` : undefined;
  }
  if (toFolder === "") return `${edge.from} imports ${edge.to}, the public entry`;
  const fromRank = rankOf.get(fromFolder);
  const toRank = rankOf.get(toFolder);
  if (fromRank === undefined) return `${fromFolder}/ is not placed in LAYERS`;
  if (toRank === undefined) return `${toFolder}/ is not placed in LAYERS`;
  if (toRank < fromRank) return undefined;
  const allowed = ALLOWED_BETWEEN_EDGES.find((entry) => entry.from === edge.from && entry.to === edge.to);
  if (allowed !== undefined && edge.dynamic) return undefined;
  return toRank === fromRank
    ? `${edge.from} imports ${edge.to}: ${fromFolder}/ and ${toFolder}/ are in the same layer`
    : `${edge.from} imports ${edge.to}: ${toFolder}/ is above ${fromFolder}/`;
}

/** The directory of a module at any depth (`cli/commands`), `(src)` for the entry. */
const directoryOf = (path: string): string =>
  path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "(src)";

/**
 * Cycles between folders (as strongly connected components of more than one folder), where a
 * module's folder is `folderOf` (the top-level folder) unless another grouping is given.
 */
function folderCycles(
  imports: readonly Import[],
  groupOf: (path: string) => string = (path) => folderOf(path) || "(src)",
): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const a = groupOf(from);
    const b = groupOf(to);
    if (a === b) continue;
    graph.set(a, (graph.get(a) ?? new Set()).add(b));
    if (!graph.has(b)) graph.set(b, new Set());
  }
  // Tarjan's algorithm.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, indices.get(next) ?? 0));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return components;
}

const files = sourceFiles(SRC);
const productImports = files.filter((file) => !file.endsWith(".test.ts")).flatMap(importsOf);
const testImports = files.filter((file) => file.endsWith(".test.ts")).flatMap(importsOf);

describe("layering of src/", () => {
  it("places every folder in a layer", () => {
    const folders = new Set(files.map((file) => folderOf(toPosix(relative(SRC, file)))));
    folders.delete("");
    expect([...folders].filter((folder) => !rankOf.has(folder))).toEqual([]);
  });

  it("has product code import only its own folder and lower layers; no edge imports another", () => {
    expect(productImports.map(violation).filter((reason) => reason !== undefined)).toEqual([]);
  });

  it("has no folder-level cycle", () => {
    expect(folderCycles(productImports)).toEqual([]);
  });

  it("has no cycle between sub-folders either (a folder's entry imports its parts, never back)", () => {
    expect(folderCycles(productImports, directoryOf)).toEqual([]);
  });

  it("has tests import their own layer, lower ones and the test helpers, never an edge's code", () => {
    const reasons = testImports
      .filter((edge) => folderOf(edge.to) !== "test-support")
      .map(violation)
      .filter((reason) => reason !== undefined);
    expect(reasons).toEqual([]);
  });

  it("keeps the data-access runtime self-contained: its own files and @azure/cosmos only", () => {
    const runtimeFiles = files.filter((file) => toPosix(relative(SRC, file)).startsWith("runtime/"));
    expect(runtimeFiles.length).toBeGreaterThan(0);
    const outside = runtimeFiles
      .filter((file) => !file.endsWith(".test.ts"))
      .flatMap((file) => {
        const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
        return source.statements.flatMap((statement) => {
          const specifier =
            ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)
              ? statement.moduleSpecifier
              : undefined;
          if (specifier === undefined || !ts.isStringLiteral(specifier)) return [];
          const text = specifier.text;
          return text === "@azure/cosmos" || /^\.\/[a-z-]+\.js$/.test(text)
            ? []
            : [`${relative(SRC, file)}: ${text}`];
        });
      });
    expect(outside).toEqual([]);
  });

  it("catches an upward import, an import between edges and a cycle", () => {
    expect(violation({ from: "planner/x.ts", to: "cost/y.ts", dynamic: false })).toMatch(/above/);
    expect(violation({ from: "mcp/x.ts", to: "cli/y.ts", dynamic: false })).toMatch(/same layer/);
    expect(violation({ from: "cli/commands/mcp.ts", to: "mcp/server.ts", dynamic: false })).toMatch(
      /same layer/,
    );
    expect(violation({ from: "cli/commands/mcp.ts", to: "mcp/server.ts", dynamic: true })).toBeUndefined();
    expect(violation({ from: "cost/x.ts", to: "planner/y.ts", dynamic: false })).toBeUndefined();
    expect(
      folderCycles([
        { from: "a/x.ts", to: "b/y.ts", dynamic: false },
        { from: "b/y.ts", to: "c/z.ts", dynamic: false },
        { from: "c/z.ts", to: "a/x.ts", dynamic: false },
      ]),
    ).toEqual([["a", "b", "c"]]);
  });
});
