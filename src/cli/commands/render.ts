/**
 * `cosmos-modeler render <workload> [<model>] --out DIR [--prices FILE] [--force]`: writes the
 * documents and artifacts for a given (or hand-edited) model, or for the designed one.
 */
import { basename } from "node:path";
import type { Command } from "commander";
import { evaluateModel } from "../../cost/evaluate.js";
import { designModel } from "../../design/design-model.js";
import { renderDeliverables, renderDesignDeliverables } from "../../deliverables/render-deliverables.js";
import type { CommandRegistration } from "../main.js";
import { readWorkloadAndModel, readWorkloadFile } from "../../files/load-inputs.js";
import { EXIT_OK, printJson, reportIssues } from "../output.js";
import { resolvePrices } from "../../files/read-prices.js";
import { PRICES_OPTION_DESCRIPTION } from "../prices-option.js";
import { writeOutputs } from "../../files/write-outputs.js";
import {
  COMPARE_OPTION_DESCRIPTION,
  readReportExtras,
  VERIFICATION_OPTION_DESCRIPTION,
} from "../report-inputs.js";

interface RenderFlags {
  readonly out: string;
  readonly json?: boolean;
  readonly prices?: string;
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
    .option("--compare <model>", COMPARE_OPTION_DESCRIPTION)
    .option("--verification <file>", VERIFICATION_OPTION_DESCRIPTION)
    .option("--force", "overwrite files that were edited by hand")
    .action(async (workloadPath: string, modelPath: string | undefined, flags: RenderFlags) => {
      const prices = await resolvePrices(flags.prices);
      let files;
      if (modelPath === undefined) {
        const loaded = await readWorkloadFile(workloadPath);
        if (!loaded.ok) {
          process.exitCode = reportIssues(loaded.issues);
          return;
        }
        const extras = await readReportExtras(loaded.value, flags, prices);
        if (!extras.ok) {
          process.exitCode = reportIssues(extras.issues);
          return;
        }
        const result = designModel(loaded.value, { prices });
        files = await renderDesignDeliverables(loaded.value, result, { prices, ...extras.value });
        reportIssues(loaded.issues);
      } else {
        const inputs = await readWorkloadAndModel(workloadPath, modelPath);
        if (!inputs.ok) {
          process.exitCode = reportIssues(inputs.issues);
          return;
        }
        const { workload, model } = inputs.value;
        const extras = await readReportExtras(workload, flags, prices);
        if (!extras.ok) {
          process.exitCode = reportIssues(extras.issues);
          return;
        }
        const evaluation = evaluateModel(workload, model, { prices });
        files = await renderDeliverables(workload, model, evaluation, {
          prices,
          label: basename(modelPath),
          ...extras.value,
        });
        reportIssues([...inputs.issues, ...evaluation.issues]);
      }
      const written = await writeOutputs(flags.out, files, flags.force === true);
      if (flags.json === true) printJson(written);
      else
        process.stdout.write(
          `Wrote ${written.written.length} file(s) to ${flags.out} (${written.unchanged.length} unchanged)\n`,
        );
      process.exitCode = EXIT_OK;
    });
};
