/**
 * `cosmos-modeler evaluate <workload> <model> [--json] [--prices FILE] [--follow-ups per-item]`:
 * how every access pattern executes on the model, its RU charge and RU/s, and per container the
 * physical partitions, storage, hottest partitions, throughput and monthly cost.
 */
import type { Command } from "commander";
import { evaluateModel, type EvaluateOptions } from "../../cost/evaluate.js";
import { hasErrors, issueToJson } from "../../common/issues.js";
import type { CommandRegistration } from "../support/command.js";
import { UsageError } from "../support/usage-error.js";
import { readWorkloadAndModel } from "../../files/load-inputs.js";
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
import { formatEvaluationReport } from "../../render/evaluation-report.js";
import { buildReportData } from "../../render/report/report-data.js";
import { renderReportHtml } from "../../render/report/report-html.js";
import { checkOutputPath } from "../../files/output-path.js";
import { writeFileAtomic } from "../../files/io.js";
import {
  COMPARE_OPTION_DESCRIPTION,
  readReportExtras,
  requireReportFlag,
  VERIFICATION_OPTION_DESCRIPTION,
} from "../support/report-inputs.js";

interface EvaluateFlags {
  readonly json?: boolean;
  readonly prices?: string;
  readonly coefficients?: string;
  readonly followUps?: string;
  readonly html?: string;
  readonly compare?: string;
  readonly verification?: string;
}

export const register: CommandRegistration = (program: Command) => {
  program
    .command("evaluate")
    .description("plan every access pattern on a model: RU, RU/s, partitions, hot partitions, monthly cost")
    .argument("<workload>", "workload file (YAML or JSON)")
    .argument("<model>", "model file (YAML or JSON)")
    .option("--json", "print one JSON document on stdout")
    .option("--prices <file>", PRICES_OPTION_DESCRIPTION)
    .option("--coefficients <file>", COEFFICIENTS_OPTION_DESCRIPTION)
    .option("--follow-ups <mode>", "how related data is fetched: cheapest (default) or per-item", "cheapest")
    .option("--html <file>", "also write the self-contained HTML report (report.html) to this file")
    .option("--compare <model>", COMPARE_OPTION_DESCRIPTION)
    .option("--verification <file>", VERIFICATION_OPTION_DESCRIPTION)
    .action(async (workloadPath: string, modelPath: string, flags: EvaluateFlags) => {
      if (flags.followUps !== "cheapest" && flags.followUps !== "per-item") {
        throw new UsageError(`--follow-ups must be "cheapest" or "per-item", got "${flags.followUps}"`);
      }
      requireReportFlag(flags, "--html", flags.html !== undefined);
      if (flags.html !== undefined) await checkOutputPath("--html", flags.html, "file");
      const prices = await resolvePrices(flags.prices);
      const coefficients = await resolveCoefficients(flags.coefficients);
      const inputs = await readWorkloadAndModel(workloadPath, modelPath);
      if (!inputs.ok) {
        process.exitCode = reportRefusedInput(inputs.issues, flags.json);
        return;
      }
      const { workload, model } = inputs.value;
      const evaluateOptions: EvaluateOptions = {
        ...coefficients,
        followUps: flags.followUps === "per-item" ? "perItem" : "cheapest",
      };
      const evaluation = evaluateModel(workload, model, { prices, ...evaluateOptions });
      const issues = [...inputs.issues, ...locateIssues(evaluation.issues, inputs.sources)];
      if (flags.html !== undefined) {
        const extras = await readReportExtras(workload, flags, { prices, ...evaluateOptions });
        if (!extras.ok) {
          process.exitCode = reportRefusedInput(extras.issues, flags.json);
          return;
        }
        const data = buildReportData({
          workload,
          model,
          evaluation,
          label: modelPath,
          prices,
          evaluateOptions,
          ...extras.value,
        });
        await writeFileAtomic(flags.html, await renderReportHtml(data));
        issues.push(...extras.issues);
      }
      if (flags.json === true) {
        printJson({ ...evaluation, issues: issues.map(issueToJson) });
      } else {
        printText(formatEvaluationReport(workload, evaluation, prices));
        if (evaluation.requestCharges !== undefined)
          printText(`Request charges from coefficients fitted on ${evaluation.requestCharges.source}.\n`);
        reportIssues(issues);
      }
      process.exitCode = hasErrors(evaluation.issues) ? EXIT_INPUT_ERROR : EXIT_OK;
    });
};
