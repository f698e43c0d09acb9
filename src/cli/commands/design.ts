/**
 * `cosmos-modeler design <workload> [--out DIR] [--json] [--baseline] [--prices FILE] [--force]`:
 * designs the cheapest model that respects every limit, prints the decisions, and with `--out`
 * writes model.yaml, both documents and the artifacts.
 */
import { join } from "node:path";
import type { Command } from "commander";
import { designModel } from "../../design/design-model.js";
import { MODEL_FILE_NAME, renderDesignDeliverables } from "../../deliverables/render-deliverables.js";
import { hasErrors, issueToJson } from "../../common/issues.js";
import { modelToFile } from "../../model/serialize-model.js";
import type { CommandRegistration } from "../support/command.js";
import { readWorkloadFile } from "../../files/load-inputs.js";
import { locateIssues } from "../../cost/locate-issues.js";
import {
  EXIT_INPUT_ERROR,
  EXIT_OK,
  printError,
  printJson,
  printText,
  reportIssues,
  reportRefusedInput,
} from "../support/output.js";
import { resolvePrices } from "../../files/read-prices.js";
import { COEFFICIENTS_OPTION_DESCRIPTION, PRICES_OPTION_DESCRIPTION } from "../support/prices-option.js";
import { resolveCoefficients } from "../../files/read-coefficients.js";
import { checkOutputPath } from "../../files/output-path.js";
import { writeOutputs } from "../../files/write-outputs.js";
import { formatDecisions, formatDesignSummary } from "../../render/decisions-report.js";
import { progressLine, stderrIsTerminal } from "../support/progress.js";
import {
  COMPARE_OPTION_DESCRIPTION,
  readReportExtras,
  requireReportFlag,
  VERIFICATION_OPTION_DESCRIPTION,
} from "../support/report-inputs.js";

interface DesignFlags {
  readonly out?: string;
  readonly json?: boolean;
  readonly baseline?: boolean;
  readonly prices?: string;
  readonly coefficients?: string;
  readonly force?: boolean;
  readonly compare?: string;
  readonly verification?: string;
  readonly decisions?: boolean;
}

/** Findings printed on stderr after the summary, errors first; the rest are counted (all are in the files). */
const SHOWN_FINDINGS = 10;

export const register: CommandRegistration = (program: Command) => {
  program
    .command("design")
    .description("design a model for a workload: model.yaml, both documents and the artifacts")
    .argument("<workload>", "workload file (YAML or JSON)")
    .option(
      "--out <dir>",
      "write model.yaml, cosmosdb_requirements.md, cosmosdb_data_model.md and artifacts here",
    )
    .option("--json", "print one JSON document on stdout: {model, evaluation, decisions}")
    .option("--baseline", "emit the naive model (one container per entity, keyed by its key) for comparison")
    .option("--prices <file>", PRICES_OPTION_DESCRIPTION)
    .option("--coefficients <file>", COEFFICIENTS_OPTION_DESCRIPTION)
    .option("--compare <model>", COMPARE_OPTION_DESCRIPTION)
    .option("--verification <file>", VERIFICATION_OPTION_DESCRIPTION)
    .option("--force", "overwrite files in --out that were edited by hand")
    .option("--decisions", "print every decision with its alternatives and why (else a summary)")
    .action(async (workloadPath: string, flags: DesignFlags) => {
      requireReportFlag(flags, "--out", flags.out !== undefined);
      if (flags.out !== undefined) await checkOutputPath("--out", flags.out, "folder");
      const prices = await resolvePrices(flags.prices);
      const coefficients = await resolveCoefficients(flags.coefficients);
      const loaded = await readWorkloadFile(workloadPath);
      if (!loaded.ok) {
        process.exitCode = reportRefusedInput(loaded.issues, flags.json);
        return;
      }
      const workload = loaded.value;
      const extras = await readReportExtras(workload, flags, { prices, ...coefficients });
      if (!extras.ok) {
        process.exitCode = reportRefusedInput(extras.issues, flags.json);
        return;
      }
      const progress = progressLine(stderrIsTerminal() && flags.json !== true);
      const elements = `${workload.entities.length} entities, ${workload.accessPatterns.length} patterns`;
      progress.update(`design (${elements})`, 0, 1);
      const result = designModel(workload, {
        prices,
        ...coefficients,
        ...(flags.baseline === true ? { baseline: true } : {}),
        onProgress: (done, total) => progress.update(`design (${elements})`, done, total),
      });
      if (flags.out !== undefined) progress.update("render the files", 0, 1);
      const files =
        flags.out === undefined
          ? undefined
          : await renderDesignDeliverables(workload, result, {
              prices,
              evaluateOptions: coefficients,
              ...extras.value,
            });
      if (files !== undefined) progress.update(`write ${files.length} files`, 0, 1);
      const written =
        flags.out === undefined || files === undefined
          ? undefined
          : await writeOutputs(flags.out, files, flags.force === true);
      // Findings about the designed model's containers point into the model.yaml written.
      const modelFile = files?.find((file) => file.path === MODEL_FILE_NAME);
      const located = locateIssues(result.evaluation.issues, {
        ...loaded.sources,
        ...(flags.out === undefined || modelFile === undefined
          ? {}
          : { model: { file: join(flags.out, MODEL_FILE_NAME), text: modelFile.content } }),
      });
      if (flags.json === true) {
        printJson({
          model: modelToFile(result.model),
          evaluation: { ...result.evaluation, issues: located.map(issueToJson) },
          decisions: result.decisions,
          baseline: result.baseline,
          ...(written === undefined ? {} : { files: written }),
        });
      } else {
        if (files !== undefined) progress.update(`write ${files.length} files`, 1, 1);
        progress.end();
        if (flags.decisions === true) printText(`${formatDecisions(workload, result)}\n`);
        printText(
          formatDesignSummary(
            workload,
            result,
            written === undefined || flags.out === undefined ? undefined : { folder: flags.out, ...written },
            loaded.issues,
          ),
        );
      }
      const issues = [...loaded.issues, ...located];
      if (flags.json === true) reportIssues(issues.filter((i) => i.severity === "error"));
      else {
        // The first findings, errors first; all of them are in the files and in --json.
        const order = { error: 0, warning: 1, info: 2 } as const;
        const sorted = [...issues].sort((a, b) => order[a.severity] - order[b.severity]);
        reportIssues(sorted.slice(0, SHOWN_FINDINGS));
        const rest = sorted.slice(SHOWN_FINDINGS);
        if (rest.length > 0) {
          const errors = rest.filter((i) => i.severity === "error").length;
          printError(
            `... and ${rest.length} more finding(s)${errors === 0 ? "" : ` (${errors} error(s))`}: ${flags.out === undefined ? "printed by --json" : "listed in cosmosdb_data_model.md (Validation Results) and report.html"}\n`,
          );
        }
      }
      process.exitCode = hasErrors(result.evaluation.issues) ? EXIT_INPUT_ERROR : EXIT_OK;
    });
};

/** The model file among the deliverables. */
