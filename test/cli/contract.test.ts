/* eslint-disable no-control-regex -- these tests look for control characters */
/**
 * Issue 14: the CLI contract on inputs that fail. `--json` always prints one JSON document (the
 * result, or the issues); `render` exits 1 on a model with errors like `evaluate`; evaluation
 * issues point at the line of their pattern or container; inputs are read up to the size limit
 * only; numbers no Cosmos DB account holds are refused with the limit and its source; control
 * characters in names never reach the terminal or a generated file.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BROKEN_WORKLOAD } from "../support/broken-workload.js";
import { runCliInThread } from "../support/cli-thread.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const socialWorkload = join(root, "examples", "social-reactions", "workload.yaml");
const naiveModel = join(root, "test", "fixtures", "evaluate", "social-reactions-naive-model.yaml");

// dist/ is built by `npm test`, or by vitest's global setup (test/support/global-setup.ts).

/** The built CLI, in a thread of this process (test/support/cli-thread.ts: one start for the file). */
function run(args: readonly string[]) {
  return runCliInThread(args);
}

interface JsonIssue {
  readonly code: string;
  readonly severity: string;
  readonly path: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
}

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "cosmos-modeler-contract-")), name);
  writeFileSync(path, text);
  return path;
}

describe("the program's own options", () => {
  it("--version prints the package's version, exit 0; a misspelt command is usage, with the suggestion", () => {
    const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string })
      .version;
    expect(run(["--version"])).toMatchObject({ status: 0, stdout: `${version}\n` });
    const misspelt = run(["chek", "workload.yaml"]);
    expect(misspelt.status).toBe(2);
    expect(misspelt.stderr).toContain("(Did you mean check?)");
  });
});

describe("--json prints one JSON document, the result or the issues", () => {
  it.each([
    ["design", (w: string) => ["design", w, "--json"]],
    ["evaluate", (w: string) => ["evaluate", w, naiveModel, "--json"]],
    ["render", (w: string) => ["render", w, "--out", join(dirname(w), "out"), "--json"]],
    ["check", (w: string) => ["check", w, "--json"]],
  ] as const)(
    "%s on a workload with errors: {issues} on stdout, each with file and line, exit 1",
    (_, args) => {
      const { status, stdout } = run(args(tempFile("w.yaml", BROKEN_WORKLOAD)));
      expect(status).toBe(1);
      const printed = JSON.parse(stdout) as { issues: JsonIssue[] };
      const errors = printed.issues.filter((issue) => issue.severity === "error");
      expect(errors.map((issue) => issue.code)).toContain("workload.unknownEntity");
      for (const issue of errors)
        expect(issue).toMatchObject({ file: expect.any(String), line: expect.any(Number) });
    },
  );

  it("an input that cannot be read gives {issues} too: /dev/zero stops at 10 MB, located at line 1", () => {
    const start = performance.now();
    const { status, stdout } = run(["check", "/dev/zero", "--json"]);
    expect(performance.now() - start).toBeLessThan(20_000);
    expect(status).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      issues: [expect.objectContaining({ code: "cli.inputTooLarge", file: "/dev/zero", line: 1 })],
    });
  });
});

describe("a model with errors", () => {
  it("render writes the files and exits 1, like evaluate; issues point at the container's line", () => {
    const out = join(mkdtempSync(join(tmpdir(), "cosmos-modeler-contract-")), "out");
    const rendered = run(["render", socialWorkload, naiveModel, "--out", out, "--json"]);
    expect(rendered.status).toBe(1);
    expect(existsSync(join(out, "cosmosdb_data_model.md"))).toBe(true);
    const { issues } = JSON.parse(rendered.stdout) as { issues: JsonIssue[] };
    const hot = issues.find((issue) => issue.code === "evaluate.hotPartition");
    const modelLines = readFileSync(naiveModel, "utf8").split("\n");
    expect(hot).toMatchObject({ file: naiveModel, line: expect.any(Number) });
    expect(modelLines[(hot?.line ?? 0) - 1]).toMatch(/name: reactions/);

    const evaluated = run(["evaluate", socialWorkload, naiveModel]);
    expect(evaluated.status).toBe(1);
    expect(evaluated.stderr).toContain(`${naiveModel}:${hot?.line} containers.reactions`);
  });
});

describe("render of a workload alone (it designs the model)", () => {
  it("locates findings about the designed containers in the model.yaml it wrote (fuzzer case 648)", () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-contract-"));
    const workload = join(dir, "workload.yaml");
    const text = readFileSync(join(root, "examples", "iot-telemetry", "workload.yaml"), "utf8");
    const huge = text.replace(
      "  Device:\n    key: deviceId\n    count: 200000\n",
      "  Device:\n    key: deviceId\n    count: 200000000000000\n",
    );
    expect(huge).not.toBe(text);
    writeFileSync(workload, huge);
    const out = join(dir, "out");
    const rendered = run(["render", workload, "--out", out, "--json"]);
    const { issues } = JSON.parse(rendered.stdout) as { issues: JsonIssue[] };
    const containerIssues = issues.filter((issue) => issue.path.startsWith("containers"));
    expect(containerIssues.length).toBeGreaterThan(0);
    for (const issue of containerIssues) {
      expect(issue).toMatchObject({ file: join(out, "model.yaml"), line: expect.any(Number) });
    }
  });
});

describe("numbers no Cosmos DB account holds", () => {
  it.each([
    ["growthPerMonth: 9007199254740992", "growthPerMonth", "9,007,199,254,740,991", "nosql/query/constants"],
    ["ttlSeconds: 3000000000", "ttlSeconds", "2,147,483,647", "nosql/time-to-live"],
  ])("check refuses %s with the limit and its source", (field, name, limit, source) => {
    const text = BROKEN_WORKLOAD.replace("entity: Nte", "entity: Note").replace(
      "Note: { key: noteId,",
      `Note: { ${field}, key: noteId,`,
    );
    const { status, stderr } = run(["check", tempFile("w.yaml", text)]);
    expect(status).toBe(1);
    expect(stderr).toMatch(new RegExp(`w\\.yaml:4 entities\\.Note\\.${name}: expected .*${limit}`));
    expect(stderr).toContain(source);
  });
});

describe("control characters in names", () => {
  it("a line feed in a file's name is escaped in the summary as in every issue line", () => {
    const file = tempFile("a\nb.yaml", "version: 1\nname: x\nentities: {}\n");
    const { status, stdout, stderr } = run(["check", file]);
    expect(status).toBe(1);
    expect(stdout).toContain("a\\u000ab.yaml: 0 entities");
    expect(stdout.trimEnd().split("\n")).toHaveLength(1);
    for (const line of stderr.trimEnd().split("\n"))
      expect(line).toMatch(/^error workload\.\w+ .*a\\u000ab\.yaml/);
  });

  it("are escaped in everything design prints and writes", () => {
    const evil = "List\u0000 notes\u001b[2J\u001b]0;owned\u0007 \u202eevil\u202c\u0085";
    const text = [
      "version: 1",
      `name: "Notes \\e[31m\\u202e"`,
      "entities:",
      "  Note: { key: noteId, count: 1000, avgBytes: 300, attributes: { noteId: string, ownerId: string } }",
      "accessPatterns:",
      `  - { id: "Q\\u001b1", name: ${JSON.stringify(evil)}, type: read, entity: Note, where: { ownerId: eq }, rps: { avg: 1, peak: 2 } }`,
      `  - { id: C1, name: "write \\u2066note\\u2069", type: write, operation: create, entity: Note, rps: { avg: 1, peak: 2 } }`,
      "",
    ].join("\n");
    const workload = tempFile("w.yaml", text);
    const out = join(dirname(workload), "out");
    const unsafe =
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    for (const args of [
      ["design", workload, "--out", out],
      ["design", workload, "--json"],
      ["check", workload],
    ]) {
      const { status, stdout, stderr } = run(args);
      expect(status).toBe(0);
      expect(stdout).not.toMatch(unsafe);
      expect(stderr).not.toMatch(unsafe);
    }
    const files = readdirSync(out, { recursive: true, encoding: "utf8" }).filter((name) =>
      statSync(join(out, name)).isFile(),
    );
    expect(files.length).toBeGreaterThan(5);
    for (const name of files) {
      const content = readFileSync(join(out, name), "utf8");
      // YAML files keep the names as data (quoted with escapes by the YAML writer).
      expect({ name, unsafe: unsafe.test(content.replace(/\r\n/g, "\n")) }).toEqual({ name, unsafe: false });
    }
  });
});
