/**
 * Issue 29, "documents that are true": the JSON examples of docs/json-output.md are the CLI's
 * real output on the blogging example, abbreviated by rule (the first entry of each list and how
 * many more, long texts cut), never written by hand. Each example follows a marker naming the
 * command it comes from; this test runs the command and fails when the example differs.
 * `UPDATE_DOCS=1 npx vitest run test/repository/doc-json-examples.test.ts` rewrites them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderDesignDeliverables } from "../../src/deliverables/render-deliverables.js";
import { designedExample } from "../../src/test-support/designed-examples.js";
import { root } from "../interview/terminal.js";
import { runCliInThread } from "../support/cli-thread.js";

const DOC = join(root, "docs", "json-output.md");
/** Texts longer than this are cut (`...` at the end). */
const TEXT = 120;

/**
 * A value abbreviated: lists keep their first entry (and say how many more there are), texts are
 * cut, and the top-level fields in `elsewhere` are replaced by where their shape is shown.
 */
function abbreviate(value: unknown, elsewhere: Readonly<Record<string, string>> = {}, top = true): unknown {
  if (typeof value === "string") return value.length > TEXT ? `${value.slice(0, TEXT - 3)}...` : value;
  if (Array.isArray(value)) {
    const [first] = value;
    const head = value.length === 0 ? [] : [abbreviate(first, {}, false)];
    return value.length > 1 ? [...head, `... ${value.length - 1} more`] : head;
  }
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [
        key,
        top && key in elsewhere ? elsewhere[key] : abbreviate(entry, {}, false),
      ]),
    );
  return value;
}

/** Lines of an example are at most this wide: an object or list that fits stays on one line. */
const WIDTH = 100;

/** JSON with two-space indentation, each object or list that fits in `WIDTH` on one line. */
function compactJson(value: unknown, indent = "", prefix = 0): string {
  const flat = JSON.stringify(value, null, 1)?.replace(/\n\s*/g, " ") ?? "null";
  if (typeof value !== "object" || value === null || indent.length + prefix + flat.length <= WIDTH)
    return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value))
    return `[\n${value.map((entry) => `${inner}${compactJson(entry, inner)}`).join(",\n")}\n${indent}]`;
  const entries = Object.entries(value).map(
    ([key, entry]) => `${inner}${JSON.stringify(key)}: ${compactJson(entry, inner, key.length + 4)}`,
  );
  return `{\n${entries.join(",\n")}\n${indent}}`;
}

const blogging = "examples/blogging/workload.yaml";
const expert = "test/fixtures/examples/blogging/expert-model.yaml";

/** The examples: the command's arguments (from the repository's root) and the fields shown elsewhere. */
const EXAMPLES: readonly { readonly args: readonly string[]; readonly elsewhere?: Record<string, string> }[] =
  [
    { args: ["evaluate", blogging, expert, "--json"] },
    {
      args: ["design", blogging, "--json"],
      elsewhere: {
        model: "... the model, in the model format (model.yaml as JSON)",
        evaluation: "... the model's evaluation, as evaluate --json prints it",
      },
    },
  ];

const marker = (args: readonly string[]): string =>
  `<!-- generated: the output of \`cosmos-modeler ${args.join(" ")}\` (the first entry of each list, texts cut at ${TEXT} characters); UPDATE_DOCS=1 npx vitest run test/repository/doc-json-examples.test.ts rewrites it -->`;

describe("docs/json-output.md's JSON examples", () => {
  it.each(EXAMPLES)(
    "$args.0 is the CLI's real output, abbreviated",
    ({ args, elsewhere }) => {
      const run = runCliInThread(args.map((arg) => (arg.endsWith(".yaml") ? join(root, arg) : arg)));
      expect(run.status, run.stderr).toBe(0);
      const expected = `${marker(args)}\n\n\`\`\`json\n${compactJson(abbreviate(JSON.parse(run.stdout), elsewhere))}\n\`\`\``;
      const doc = readFileSync(DOC, "utf8");
      const start = doc.indexOf(marker(args));
      expect(start, `docs/json-output.md has no marker ${marker(args)}`).toBeGreaterThanOrEqual(0);
      const end = doc.indexOf("```", doc.indexOf("```json", start) + 7) + 3;
      const actual = doc.slice(start, end);
      if (process.env["UPDATE_DOCS"] === "1" && actual !== expected)
        writeFileSync(DOC, doc.slice(0, start) + expected + doc.slice(end));
      else expect(actual).toBe(expected);
    },
    120_000,
  );
});

describe("docs/json-output.md's list of the files --out writes", () => {
  it("names every file design --out writes, by its path or its folder, and nothing else", async () => {
    const { workload, design } = designedExample("blogging");
    const files = (await renderDesignDeliverables(workload, design, {})).map((file) => file.path);
    const doc = readFileSync(DOC, "utf8");
    const section = doc.slice(doc.indexOf("## Files written by `--out`"));
    const table = section.slice(0, section.indexOf("\n\n", section.indexOf("| file | what |")));
    const named = [...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) =>
      [...(row[1] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ""),
    );
    const folders = [...table.matchAll(/`([^`\s]+\/)`/g)].map((m) => m[1] ?? "");
    const covered = (path: string): boolean =>
      named.includes(path) || folders.some((folder) => path.startsWith(folder));
    expect(files.filter((path) => !covered(path))).toEqual([]);
    expect(named.filter((path) => !files.includes(path))).toEqual([]);
  });
});
