/**
 * The report options of `design`, `render` and `evaluate`: `--compare other-model.yaml` (a
 * second model, evaluated with the same workload and prices) and `--verification FILE` (a
 * `verify --json` document). Both are read and checked here; problems are reported like any
 * input's, with exit status 1.
 */
import { evaluateModel, type EvaluateOptions } from "../../cost/evaluate.js";
import { hasErrors, type Issue } from "../../common/issues.js";
import { loadModel } from "../../model/load-model.js";
import { loadVerification } from "../../render/report/load-verification.js";
import type { ComparedModel, VerificationSummary } from "../../render/report/report-data.js";
import type { Workload } from "../../workload/types.js";
import { MODEL_INPUT, readInputFile, VERIFICATION_INPUT } from "../../files/io.js";
import type { Inputs } from "../../files/load-inputs.js";
import { UsageError } from "./usage-error.js";

export const COMPARE_OPTION_DESCRIPTION = "a second model file to show side by side in report.html";
export const VERIFICATION_OPTION_DESCRIPTION = "a `verify --json` output to show in report.html";

export interface ReportExtras {
  readonly compare?: ComparedModel;
  readonly verification?: VerificationSummary;
}

/**
 * Throws a usage error (exit 2) when `--compare` or `--verification` is given without the flag
 * that writes the report they go into (`--html` for evaluate, `--out` for design): they would
 * do nothing.
 */
export function requireReportFlag(
  flags: { readonly compare?: string | undefined; readonly verification?: string | undefined },
  reportFlag: string,
  reportGiven: boolean,
): void {
  if (reportGiven) return;
  const given = [
    ...(flags.compare === undefined ? [] : ["--compare"]),
    ...(flags.verification === undefined ? [] : ["--verification"]),
  ];
  if (given.length === 0) return;
  throw new UsageError(
    `${given.join(" and ")} ${given.length === 1 ? "adds" : "add"} to the HTML report, which only ${reportFlag} writes; give ${reportFlag} too (e.g. ${reportFlag} ${reportFlag === "--html" ? "report.html" : "my-model"}), or leave ${given.join(" and ")} out`,
  );
}

/** Reads `--compare` and `--verification` when given. */
export async function readReportExtras(
  workload: Workload,
  flags: { readonly compare?: string | undefined; readonly verification?: string | undefined },
  options: EvaluateOptions,
): Promise<Inputs<ReportExtras>> {
  const issues: Issue[] = [];
  let compare: ComparedModel | undefined;
  let verification: VerificationSummary | undefined;
  if (flags.compare !== undefined) {
    const loaded = loadModel(await readInputFile(flags.compare, MODEL_INPUT), {
      file: flags.compare,
      workload,
    });
    issues.push(...loaded.issues);
    if (loaded.ok && !hasErrors(loaded.issues)) {
      compare = {
        label: flags.compare,
        model: loaded.value,
        evaluation: evaluateModel(workload, loaded.value, options),
      };
    }
  }
  if (flags.verification !== undefined) {
    const loaded = loadVerification(
      await readInputFile(flags.verification, VERIFICATION_INPUT),
      flags.verification,
    );
    issues.push(...loaded.issues);
    if (loaded.ok) verification = loaded.value;
  }
  if (hasErrors(issues)) return { ok: false, issues };
  return {
    ok: true,
    value: {
      ...(compare === undefined ? {} : { compare }),
      ...(verification === undefined ? {} : { verification }),
    },
    issues,
  };
}
