/**
 * Issue 29, "a newcomer's first hour": the edges of the command line a new user runs into. A
 * folder given where a file is expected, usage errors (with and without `--json`), messages of
 * several lines, and what `design` prints on a large workload.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCliInThread } from "../support/cli-thread.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const blogging = join(root, "examples", "blogging", "workload.yaml");
const bloggingModel = join(root, "test", "fixtures", "examples", "blogging", "expert-model.yaml");

function run(args: readonly string[]) {
  return runCliInThread(args);
}

describe("a folder given where a file is expected", () => {
  const folder = mkdtempSync(join(tmpdir(), "cosmos-modeler-folder-"));
  const html = join(mkdtempSync(join(tmpdir(), "cosmos-modeler-html-")), "report.html");
  const out = join(mkdtempSync(join(tmpdir(), "cosmos-modeler-out-")), "out");
  it.each([
    ["check", ["check", folder], "a workload file (YAML or JSON)"],
    ["estimate-ru", ["estimate-ru", folder], "a file of operations, one JSON object per line"],
    ["evaluate's workload", ["evaluate", folder, bloggingModel], "a workload file (YAML or JSON)"],
    ["evaluate's model", ["evaluate", blogging, folder], "a model file (YAML or JSON)"],
    ["--prices", ["evaluate", blogging, bloggingModel, "--prices", folder], "a price file (YAML or JSON)"],
    [
      "--compare",
      ["evaluate", blogging, bloggingModel, "--html", html, "--compare", folder],
      "a model file (YAML or JSON)",
    ],
    [
      "--verification",
      ["evaluate", blogging, bloggingModel, "--html", html, "--verification", folder],
      "the output of `verify --json` saved to a file",
    ],
    ["design", ["design", folder], "a workload file (YAML or JSON)"],
    ["design --prices", ["design", blogging, "--prices", folder], "a price file (YAML or JSON)"],
    ["render's workload", ["render", folder, "--out", out], "a workload file (YAML or JSON)"],
    ["render's model", ["render", blogging, folder, "--out", out], "a model file (YAML or JSON)"],
    ["verify's workload", ["verify", folder, bloggingModel], "a workload file (YAML or JSON)"],
    ["verify's model", ["verify", blogging, folder], "a model file (YAML or JSON)"],
    ["import", ["import", folder, "--out", out], "a DDL file of CREATE TABLE statements (.sql)"],
  ] as const)("%s: says it is a folder, what is expected, with the path (exit 1)", (_, args, what) => {
    const text = run(args);
    expect(text.status).toBe(1);
    expect(text.stderr).toBe(
      `error cli.fileNotFound ${folder}: ${folder} is a folder, not a file: give ${what}\n`,
    );
    expect(text.stderr).not.toContain("EISDIR");
    const json = run([...args, "--json"]);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      issues: [
        {
          code: "cli.fileNotFound",
          severity: "error",
          path: "",
          message: `${folder} is a folder, not a file: give ${what}`,
          file: folder,
        },
      ],
    });
  });

  it("offers the files of that kind the folder holds, one level down too", () => {
    const examples = join(root, "examples");
    const text = run(["check", examples]);
    expect(text.status).toBe(1);
    expect(text.stderr).toContain(
      `${examples} is a folder, not a file: give a workload file (YAML or JSON), such as ${join(examples, "accounts-sessions", "workload.yaml")} or ${join(examples, "blogging", "workload.yaml")}`,
    );
    const schemas = mkdtempSync(join(tmpdir(), "cosmos-modeler-schemas-"));
    mkdirSync(join(schemas, "db"));
    writeFileSync(join(schemas, "db", "schema.sql"), "CREATE TABLE t (id int primary key);\n");
    expect(run(["import", schemas, "--out", out]).stderr).toContain(
      `such as ${join(schemas, "db", "schema.sql")}`,
    );
  });
});

describe("import given a connection it cannot read (issue 28)", () => {
  it.each([
    "mysql://app:S3cretPW@db.example.com/shop",
    "postgress://app:S3cretPW@db.example.com/shop",
    "host=db.example.com password=S3cretPW dbname=shop",
    "postgres://app:S3cretPW@db.example.com:99999/shop",
  ])("%s: exit 1, what would be valid, the password never printed", (source) => {
    const out = join(mkdtempSync(join(tmpdir(), "cosmos-modeler-import-")), "session");
    for (const json of [false, true]) {
      const run = runCliInThread(["import", source, "--out", out, ...(json ? ["--json"] : [])]);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^error import\.(unsupportedConnection|badConnectionUrl): /);
      expect(`${run.stdout}${run.stderr}`).not.toContain("S3cretPW");
      expect(run.stderr).not.toContain("cli.fileNotFound");
    }
  });
});
