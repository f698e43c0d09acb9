import { describe, expect, it } from "vitest";
import { checkRun } from "./fuzz-checks.js";

const ok = { code: 0, stdout: "", stderr: "", ms: 1 };
const issue = (extra: Record<string, unknown>) => ({
  code: "workload.invalidValue",
  severity: "error",
  path: "name",
  message: "m",
  ...extra,
});

describe("checkRun", () => {
  it("accepts a run that holds the contract", () => {
    expect(checkRun({ command: "check", json: false }, ok)).toEqual([]);
    const located = JSON.stringify({ issues: [issue({ file: "w.yaml", line: 2 })] });
    expect(checkRun({ command: "check", json: true }, { ...ok, code: 1, stdout: located })).toEqual([]);
    // A file that cannot be read has no line to name.
    const unreadable = JSON.stringify({ issues: [issue({ code: "cli.fileNotFound", file: "w.yaml" })] });
    expect(checkRun({ command: "check", json: true }, { ...ok, code: 1, stdout: unreadable })).toEqual([]);
  });

  it("flags hangs, crashes, internal errors, stack traces and raw control characters", () => {
    expect(
      checkRun({ command: "design", json: false }, { ...ok, failure: "hang: no answer in 60 s" }),
    ).toEqual(["hang: no answer in 60 s"]);
    const internal = checkRun(
      { command: "design", json: false },
      {
        ...ok,
        code: 70,
        stderr: "error internal.error: internal error, please report it\n    at f (file:///x.js:1:2)\n",
      },
    );
    expect(internal).toHaveLength(3);
    expect(checkRun({ command: "check", json: false }, { ...ok, stderr: "name \u001b[2J" })).toEqual([
      "a raw control character on stderr",
    ]);
  });

  it("flags --json output that is not one document, unlocated issues, and exit statuses that disagree", () => {
    const two = `${JSON.stringify({ issues: [] })}\n${JSON.stringify({ issues: [] })}`;
    expect(checkRun({ command: "check", json: true }, { ...ok, stdout: two })[0]).toMatch(
      /not exactly one JSON/,
    );
    expect(checkRun({ command: "check", json: true }, { ...ok, stdout: "" })[0]).toMatch(
      /not exactly one JSON/,
    );
    const unlocated = JSON.stringify({ issues: [issue({ file: "w.yaml" }), issue({ path: [] })] });
    expect(checkRun({ command: "check", json: true }, { ...ok, code: 1, stdout: unlocated })).toEqual([
      "issue without a line: workload.invalidValue at name in w.yaml",
      "issue without a file: workload.invalidValue at ",
      "issue path is not a string: workload.invalidValue",
    ]);
    const errors = JSON.stringify({ evaluation: { issues: [issue({ file: "w.yaml", line: 1 })] } });
    expect(checkRun({ command: "design", json: true }, { ...ok, stdout: errors })).toEqual([
      "exit status 0 with 1 error(s) in the JSON document",
    ]);
    // design without --out: the designed model's container findings have no file, by design.
    const container = JSON.stringify({
      evaluation: { issues: [{ ...issue({ path: "containers.posts" }), code: "evaluate.hotPartition" }] },
    });
    expect(
      checkRun(
        { command: "design", json: true, unwrittenModel: true },
        { ...ok, code: 1, stdout: container },
      ),
    ).toEqual([]);
    expect(checkRun({ command: "design", json: true }, { ...ok, code: 1, stdout: container })).toHaveLength(
      1,
    );
  });

  it("flags temporary files left in the output folder", () => {
    expect(
      checkRun(
        { command: "render", json: false, outputFiles: ["model.yaml", "infra/.main.bicep.0123456789ab.tmp"] },
        ok,
      ),
    ).toEqual(["temporary file left in the output folder: infra/.main.bicep.0123456789ab.tmp"]);
  });
});
