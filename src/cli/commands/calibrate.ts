/**
 * `cosmos-modeler calibrate <recording...> --out FILE [--json]`: fits the request-charge model's
 * coefficients to charges measured on your own account (each request's `x-ms-request-charge` on
 * an Azure Cosmos DB account or the emulator, with the operation's features: the `estimate-ru`
 * fields plus `measuredRU`, `source` and `endpoint`, docs/json-output.md), prints each operation
 * family's error with the built-in coefficients and, left out one row at a time, with the fitted
 * ones, and what changed; writes the coefficients file `design`, `evaluate`, `render` and
 * `verify` take with `--coefficients`. Charges of the embedded endpoint are refused: they are not Cosmos DB's.
 */
import type { Command } from "commander";
import {
  calibrate,
  parseRecording,
  serializeCoefficients,
  type Recording,
} from "../../estimator/calibration.js";
import { formatPercent } from "../../render/markdown.js";
import { hasErrors, type Issue } from "../../common/issues.js";
import { inputName, readInputFile, RECORDING_INPUT, writeFileAtomic } from "../../files/io.js";
import { checkOutputPath } from "../../files/output-path.js";
import type { CommandRegistration } from "../support/command.js";
import { EXIT_OK, printJson, printText, reportIssues, reportRefusedInput } from "../support/output.js";

interface CalibrateFlags {
  readonly out: string;
  readonly json?: boolean;
}

export const register: CommandRegistration = (program: Command) => {
  program
    .command("calibrate")
    .description(
      "fit the request-charge coefficients to charges measured on your account and write them for --coefficients",
    )
    .argument(
      "<recordings...>",
      "measured charges, one JSON object per line: the estimate-ru fields, measuredRU, source, endpoint",
    )
    .requiredOption("--out <file>", "write the fitted coefficients here (JSON), for --coefficients")
    .option("--json", "print the calibration as one JSON document")
    .action(async (paths: readonly string[], flags: CalibrateFlags) => {
      await checkOutputPath("--out", flags.out, "file");
      const recordings: Recording[] = [];
      const issues: Issue[] = [];
      for (const path of paths) {
        const parsed = parseRecording(await readInputFile(path, RECORDING_INPUT), inputName(path));
        issues.push(...parsed.issues);
        if (parsed.ok) recordings.push(parsed.value);
      }
      if (hasErrors(issues)) {
        process.exitCode = reportRefusedInput(issues, flags.json);
        return;
      }
      const calibration = calibrate(recordings);
      await writeFileAtomic(flags.out, serializeCoefficients(calibration, paths.map(inputName)));
      if (flags.json === true) printJson({ ...calibration, file: flags.out });
      else {
        const lines = [
          `Fitted on ${calibration.rows} measured operation(s) from ${calibration.sources.length} source(s); wrote ${flags.out}.`,
          "Mean error |estimate / measured - 1| per operation family:",
          ...calibration.families.map(
            (family) =>
              `  ${family.family}: ${family.rows} row(s), built-in coefficients ${formatPercent(family.defaultError)}, fitted (leave-one-out) ${family.leaveOneOutError === undefined ? "not cross-validated (too few rows)" : `${formatPercent(family.leaveOneOutError)} over ${family.crossValidated} row(s)`}`,
          ),
          calibration.changes.length === 0
            ? "No coefficient changed."
            : "Changed coefficients (built-in -> fitted):",
          ...calibration.changes.map(
            (change) =>
              `  ${change.coefficient}: ${change.from.toPrecision(4)} -> ${change.to.toPrecision(4)} (${change.to >= change.from ? "+" : ""}${formatPercent(change.to / change.from - 1)})`,
          ),
          ...(calibration.unfitted.length === 0
            ? []
            : [`Kept built-in (no row of these families): ${calibration.unfitted.join(", ")}.`]),
          `Use it: cosmos-modeler design <workload> --coefficients ${flags.out}`,
        ];
        printText(`${lines.join("\n")}\n`);
      }
      reportIssues(issues);
      process.exitCode = EXIT_OK;
    });
};
