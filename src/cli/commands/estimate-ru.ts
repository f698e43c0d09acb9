/**
 * `cosmos-modeler estimate-ru <ops.jsonl | ->`: the RU estimate of single operations, one JSON
 * operation per line (docs/json-output.md). Extra fields are ignored, so the benchmark file can be
 * fed in.
 */
import type { Command } from "commander";
import { estimateRequestCharge } from "../../estimator/estimate-request-charge.js";
import type { Operation, RuEstimate } from "../../estimator/operation.js";
import { validateOperation } from "../../estimator/validate-operation.js";
import { createIssueSink, hasErrors, type Issue } from "../../common/issues.js";
import { inputName, OPERATIONS_INPUT, readInputFile } from "../../files/io.js";
import type { CommandRegistration } from "../support/command.js";
import {
  EXIT_INPUT_ERROR,
  EXIT_OK,
  printJson,
  printText,
  reportIssues,
  reportRefusedInput,
} from "../support/output.js";

interface ParsedLine {
  readonly line: number;
  readonly operation: Operation;
}

/** Parses a JSON-lines document of operations; blank lines are skipped. */
export function parseOperationLines(
  text: string,
  file: string,
): { readonly operations: readonly ParsedLine[]; readonly issues: readonly Issue[] } {
  const operations: ParsedLine[] = [];
  const sink = createIssueSink({ file });
  text.split(/\r?\n/).forEach((content, index) => {
    const line = index + 1;
    if (content.trim() === "") return;
    // Every issue of this line is on this line, whatever its path inside the operation.
    const lineSink = createIssueSink({ file, lineOf: () => line });
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      lineSink.error(
        "operation.invalidJson",
        [],
        `not a JSON object: ${error instanceof Error ? error.message : String(error)}`,
      );
      sink.add(...lineSink.issues());
      return;
    }
    const result = validateOperation(value);
    lineSink.add(...result.issues);
    sink.add(...lineSink.issues());
    if (result.ok) operations.push({ line, operation: result.value });
  });
  return { operations, issues: sink.issues() };
}

export const register: CommandRegistration = (program: Command) => {
  program
    .command("estimate-ru")
    .description(
      "estimate the RU charge of single operations: one JSON object per line, e.g. " +
        '{"op":"create","itemBytes":1024,"indexedValues":8}',
    )
    .argument("<ops>", "JSON-lines file of operations, or - for standard input")
    .option("--json", 'print {"estimates": [{"estimate", "low", "high"}]} in input order')
    .action(async (path: string, options: { json?: boolean }) => {
      const text = await readInputFile(path, OPERATIONS_INPUT);
      const { operations, issues } = parseOperationLines(text, inputName(path));
      if (hasErrors(issues)) {
        process.exitCode = reportRefusedInput(issues, options.json);
        return;
      }
      reportIssues(issues);
      const estimates = operations.map((parsed) => ({
        ...parsed,
        charge: roundEstimate(estimateRequestCharge(parsed.operation)),
      }));
      if (options.json === true) {
        printJson({ estimates: estimates.map((entry) => entry.charge) });
      } else {
        printText(formatTable(estimates));
      }
      process.exitCode = operations.length === 0 && issues.length > 0 ? EXIT_INPUT_ERROR : EXIT_OK;
    });
};

function roundEstimate(charge: RuEstimate): RuEstimate {
  const round = (value: number): number => Math.round(value * 100) / 100;
  return { estimate: round(charge.estimate), low: round(charge.low), high: round(charge.high) };
}

function formatTable(
  rows: readonly { readonly line: number; readonly operation: Operation; readonly charge: RuEstimate }[],
): string {
  if (rows.length === 0) return "no operations\n";
  const header = ["line", "op", "inputs", "RU estimate", "low", "high"];
  const body = rows.map((row) => [
    String(row.line),
    row.operation.op,
    describeInputs(row.operation),
    row.charge.estimate.toFixed(2),
    row.charge.low.toFixed(2),
    row.charge.high.toFixed(2),
  ]);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...body.map((line) => (line[column] ?? "").length)),
  );
  const format = (line: readonly string[]): string =>
    line
      .map((cell, column) =>
        column >= 3 || column === 0 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd();
  return `${[format(header), ...body.map(format)].join("\n")}\n`;
}

function describeInputs(operation: Operation): string {
  const { op: _op, operations, ...inputs } = operation;
  const parts = Object.entries(inputs).map(([key, value]) => `${key}=${String(value)}`);
  // A batch or stored procedure lists its operations, each as op and inputs.
  if (operations !== undefined) {
    parts.push(
      `operations=[${operations.map((inner) => `${inner.op} ${describeInputs(inner)}`).join("; ")}]`,
    );
  }
  return parts.length === 0 ? "(defaults)" : parts.join(" ");
}
