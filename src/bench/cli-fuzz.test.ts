import { describe, expect, it } from "vitest";
import { formatFuzzReport, type FuzzReport } from "./cli-fuzz.js";

const report = (failures: FuzzReport["failures"]): FuzzReport => ({
  cases: 2,
  runs: 2,
  processRuns: 0,
  outcomes: new Map([["design 0", 2]]),
  arguments: new Map([["--out empty", 1]]),
  jsonRuns: 1,
  time: new Map([["design (worker)", 1500]]),
  slowest: [],
  failures,
});

describe("formatFuzzReport", () => {
  it("counts hangs, crashes, internal errors and stack traces, zero when the contract held", () => {
    expect(formatFuzzReport(report([]), 1)).toContain(
      "breaches: hangs 0, crashes 0, internal errors (untyped, exit 70) 0, stack traces 0, refusals accepted 0, writes through a link 0, other 0",
    );
    const failure = (failures: string[]) => ({
      index: 1,
      example: "blogging",
      args: "worker: design ./workload.yaml",
      mutations: [],
      failures,
      kept: "/tmp/x",
    });
    const text = formatFuzzReport(
      report([
        failure(["hang: no answer in 60 s"]),
        failure(["exit status 70 (internal error): boom", "internal error: boom", "stack trace printed: x"]),
        failure(["crash: the process ended by SIGABRT", "issue without a line: x at y in z"]),
        failure([
          "accepted --out empty (exit 0)",
          "wrote through a link: main.bicep",
          "--json: stdout is not exactly one JSON document (x): y",
        ]),
      ]),
      1,
    );
    expect(text).toContain(
      "breaches: hangs 1, crashes 1, internal errors (untyped, exit 70) 2, stack traces 1, refusals accepted 1, writes through a link 1, other 2",
    );
    expect(text).toContain("command-line mutations: --out empty 1");
    expect(text).toContain("runs with --json: 1, of them without exactly one JSON document on stdout: 1");
    expect(text).toContain("time by command: design (worker) 1.5 s");
  });
});
