/**
 * `cosmos-modeler render <workload> [<model>] --out DIR [--prices FILE] [--force]`: writes the
 * documents and artifacts for a given (or hand-edited) model, or for the designed one.
 */
import { join } from "node:path";
import type { Command } from "commander";
import { evaluateModel } from "../../cost/evaluate.js";
import { designModel } from "../../design/design-model.js";
import {
  MODEL_FILE_NAME,
  renderDeliverables,
  renderDesignDeliverables,
} from "../../deliverables/render-deliverables.js";
import type { CommandRegistration } from "../support/command.js";
import { readWorkloadAndModel, readWorkloadFile, type InputFiles } from "../../files/load-inputs.js";
import type { Model } from "../../model/types.js";
import type { Workload } from "../../workload/types.js";
import { hasErrors, issueToJson } from "../../common/issues.js";
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
import { COEFFICIENTS_OPTION_DESCRIPTION, PRICES_OPTION_DESCRIPTION } from "../support/prices-option.js";
import { resolveCoefficients } from "../../files/read-coefficients.js";
import { checkOutputPath } from "../../files/output-path.js";
import { writeOutputs } from "../../files/write-outputs.js";
import {
  COMPARE_OPTION_DESCRIPTION,
  readReportExtras,
  VERIFICATION_OPTION_DESCRIPTION,
} from "../support/report-inputs.js";

interface RenderFlags {
  readonly out: string;
  readonly json?: boolean;
  readonly prices?: string;
  readonly coefficients?: string;
  readonly force?: boolean;
  readonly compare?: string;
  readonly verification?: string;
}

export const register: CommandRegistration = (program: Command) => {
  program
    .command("render")
    .description("write the documents and artifacts of a model (or of the designed one)")
    .argument("<workload>", "workload file (YAML or JSON)")
    .argument("[model]", "model file; default: design one")
    .requiredOption("--out <dir>", "output folder")
    .option("--json", "print the list of files written as JSON")
    .option("--prices <file>", PRICES_OPTION_DESCRIPTION)
    .option("--coefficients <file>", COEFFICIENTS_OPTION_DESCRIPTION)
    .option("--compare <model>", COMPARE_OPTION_DESCRIPTION)
    .option("--verification <file>", VERIFICATION_OPTION_DESCRIPTION)
    .option("--force", "overwrite files that were edited by hand")
    .action(async (workloadPath: string, modelPath: string | undefined, flags: RenderFlags) => {
      await checkOutputPath("--out", flags.out, "folder");
      const prices = await resolvePrices(flags.prices);
      const coefficients = await resolveCoefficients(flags.coefficients);
      const inputs = await readRenderInputs(workloadPath, modelPath);
      if (!inputs.ok) {
        process.exitCode = reportRefusedInput(inputs.issues, flags.json);
        return;
      }
      const { workload, model } = inputs.value;
      const extras = await readReportExtras(workload, flags, { prices, ...coefficients });
      if (!extras.ok) {
        process.exitCode = reportRefusedInput(extras.issues, flags.json);
        return;
      }
      let files;
      let evaluationIssues;
      if (model === undefined || modelPath === undefined) {
        const result = designModel(workload, { prices, ...coefficients });
        files = await renderDesignDeliverables(workload, result, {
          prices,
          evaluateOptions: coefficients,
          ...extras.value,
        });
        evaluationIssues = result.evaluation.issues;
      } else {
        const evaluation = evaluateModel(workload, model, { prices, ...coefficients });
        files = await renderDeliverables(workload, model, evaluation, {
          prices,
          evaluateOptions: coefficients,
          label: modelPath,
          ...extras.value,
        });
        evaluationIssues = evaluation.issues;
      }
      const written = await writeOutputs(flags.out, files, flags.force === true);
      // Without a model, findings about the designed containers point into the model.yaml written.
      const modelFile =
        modelPath === undefined ? files.find((file) => file.path === MODEL_FILE_NAME) : undefined;
      const sources =
        modelFile === undefined
          ? inputs.sources
          : { ...inputs.sources, model: { file: join(flags.out, MODEL_FILE_NAME), text: modelFile.content } };
      const issues = [...inputs.issues, ...locateIssues(evaluationIssues, sources)];
      if (flags.json === true) printJson({ ...written, issues: issues.map(issueToJson) });
      else {
        printText(
          `Wrote ${written.written.length} file(s) to ${flags.out} (${written.unchanged.length} unchanged)\n`,
        );
        reportIssues(issues);
      }
      // Like evaluate: the files are written, and a model with errors exits 1.
      process.exitCode = hasErrors(evaluationIssues) ? EXIT_INPUT_ERROR : EXIT_OK;
    });
};

/** The workload, and the model when one is given. */
async function readRenderInputs(
  workloadPath: string,
  modelPath: string | undefined,
): Promise<InputFiles<{ workload: Workload; model?: Model }>> {
  if (modelPath !== undefined) return readWorkloadAndModel(workloadPath, modelPath);
  const loaded = await readWorkloadFile(workloadPath);
  return loaded.ok ? { ...loaded, value: { workload: loaded.value } } : loaded;
}
