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
  printJson,
  printText,
  reportIssues,
  reportRefusedInput,
} from "../support/output.js";
import { resolvePrices } from "../../files/read-prices.js";
import { PRICES_OPTION_DESCRIPTION } from "../support/prices-option.js";
import { checkOutputPath } from "../../files/output-path.js";
import { writeOutputs } from "../../files/write-outputs.js";
import { formatDecisions } from "../../render/decisions-report.js";
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
  readonly force?: boolean;
  readonly compare?: string;
  readonly verification?: string;
}

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
    .option("--compare <model>", COMPARE_OPTION_DESCRIPTION)
    .option("--verification <file>", VERIFICATION_OPTION_DESCRIPTION)
    .option("--force", "overwrite files in --out that were edited by hand")
    .action(async (workloadPath: string, flags: DesignFlags) => {
      requireReportFlag(flags, "--out", flags.out !== undefined);
      if (flags.out !== undefined) await checkOutputPath("--out", flags.out, "folder");
      const prices = await resolvePrices(flags.prices);
      const loaded = await readWorkloadFile(workloadPath);
      if (!loaded.ok) {
        process.exitCode = reportRefusedInput(loaded.issues, flags.json);
        return;
      }
      const workload = loaded.value;
      const extras = await readReportExtras(workload, flags, prices);
      if (!extras.ok) {
        process.exitCode = reportRefusedInput(extras.issues, flags.json);
        return;
      }
      const result = designModel(workload, {
        prices,
        ...(flags.baseline === true ? { baseline: true } : {}),
      });
      const files =
        flags.out === undefined
          ? undefined
          : await renderDesignDeliverables(workload, result, { prices, ...extras.value });
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
        printText(formatDecisions(workload, result));
        if (written !== undefined) {
          printText(
            `\nWrote ${written.written.length} file(s) to ${flags.out}${written.unchanged.length > 0 ? ` (${written.unchanged.length} unchanged)` : ""}: ${[...written.written, ...written.unchanged].join(", ")}\n`,
          );
        } else {
          printText("\n(use --out DIR to write model.yaml, the documents and the artifacts)\n");
        }
      }
      reportIssues(
        [...loaded.issues, ...located].filter((i) => flags.json !== true || i.severity === "error"),
      );
      process.exitCode = hasErrors(result.evaluation.issues) ? EXIT_INPUT_ERROR : EXIT_OK;
    });
};

/** The model file among the deliverables. */
