/**
 * Everything `design --out` and `render --out` write, rendered from the workload, the model and
 * its evaluation (never written separately, so the files cannot disagree with the numbers).
 */
import { createPlanEnvironment } from "../planner/environment.js";
import { withSearchPolicies } from "../planner/search-policy.js";
import { issueToJson } from "../common/issues.js";
import type { Prices } from "../cosmos/prices.js";
import type { Evaluation } from "../cost/evaluation-types.js";
import type { DesignResult } from "../design/design-model.js";
import type { Decision } from "../design/search.js";
import { serializeModel } from "../model/serialize-model.js";
import type { Model, Throughput } from "../model/types.js";
import { withExplicitIndexing } from "../planner/explicit-indexing.js";
import { renderModelArtifacts, type RenderedFile } from "../render/artifacts.js";
import { DATA_MODEL_FILE_NAME, renderDataModel, type BaselineFigures } from "../render/data-model.js";
import { renderDataAccessFiles } from "../render/code/render-data-access.js";
import { renderProjectFiles } from "../render/code/render-project.js";
import { renderRequirements } from "../render/requirements.js";
import type { RequirementsState } from "../analysis/requirements-checklist.js";
import {
  buildReportData,
  REPORT_FILE_NAME,
  type ComparedModel,
  type VerificationSummary,
} from "../render/report/report-data.js";
import { renderReportHtml } from "../render/report/report-html.js";
import type { Workload } from "../workload/types.js";

/** The model file a design or render writes into its folder. */
export const MODEL_FILE_NAME = "model.yaml";
import { modelThroughputOf } from "../cost/throughput.js";
import type { EvaluateOptions } from "../cost/evaluate.js";
import { expiringItems } from "../cost/soundness.js";

/** Options of a design's deliverables: its decisions and baseline come from the design itself. */
export interface DesignDeliverableOptions {
  readonly prices?: Prices;
  /**
   * The options the evaluation was made with besides the prices (request-charge coefficients,
   * follow-ups): the report's projection and compared model use them too.
   */
  readonly evaluateOptions?: EvaluateOptions;
  readonly requirementsState?: RequirementsState;
  /** What the report calls the model (default "designed model" with decisions, else "model"). */
  readonly label?: string;
  /** A verify run to show in `report.html` and `cosmosdb_data_model.md`. */
  readonly verification?: VerificationSummary;
  /** Why verify could not run, when it was meant to (shown as a failure in `cosmosdb_data_model.md`). */
  readonly verificationNotRun?: string;
  /** A second model to show side by side in `report.html`. */
  readonly compare?: ComparedModel;
}

export interface DeliverableOptions extends DesignDeliverableOptions {
  readonly decisions?: readonly Decision[];
  /** The naive model's figures, for the data model document's comparison. */
  readonly baseline?: BaselineFigures;
}

/** The throughput the evaluation recommends (or the model sets) per container. */
function throughputOf(evaluation: Evaluation): Record<string, Throughput> {
  return Object.fromEntries(evaluation.containers.map((c) => [c.name, modelThroughputOf(c.throughput)]));
}

/** Why items of each container carry a `ttl` (the infrastructure turns TTL on for them). */
export function expiringItemsOf(workload: Workload, model: Model): Record<string, readonly string[]> {
  return Object.fromEntries(model.containers.map((c) => [c.name, expiringItems(workload, model, c)]));
}

/**
 * Everything `design --out` writes (and `render` without a model, and the interview's last step):
 * the designed model's files with its decisions and the comparison with the baseline. The golden
 * files are produced by this function too, so they are what a user gets.
 * @example (await renderDesignDeliverables(workload, designModel(workload))).map((f) => f.path)
 */
export function renderDesignDeliverables(
  workload: Workload,
  design: DesignResult,
  options: DesignDeliverableOptions = {},
): Promise<readonly RenderedFile[]> {
  return renderDeliverables(workload, design.model, design.evaluation, {
    ...options,
    decisions: design.decisions,
    baseline: design.baseline,
  });
}

/**
 * The files of a model, paths relative to the output folder (`report.html` among them).
 * @example (await renderDeliverables(workload, model, evaluateModel(workload, model))).map((f) => f.path)
 */
export async function renderDeliverables(
  workload: Workload,
  model: Model,
  evaluation: Evaluation,
  options: DeliverableOptions = {},
): Promise<readonly RenderedFile[]> {
  // The model as deployed: derived indexing and search policies written out.
  const partitions = Object.fromEntries(evaluation.containers.map((c) => [c.name, c.physicalPartitions]));
  const explicit = withSearchPolicies(
    createPlanEnvironment(workload, model, { partitions }),
    withExplicitIndexing(workload, model),
  );
  const evaluationJson = {
    patterns: evaluation.patterns,
    containers: evaluation.containers,
    totals: evaluation.totals,
    issues: evaluation.issues.map(issueToJson),
    ...(options.decisions === undefined ? {} : { decisions: options.decisions }),
  };
  return [
    { path: MODEL_FILE_NAME, content: serializeModel(model), executable: false },
    {
      path: "cosmosdb_requirements.md",
      content: renderRequirements(workload, options.requirementsState ?? {}),
      executable: false,
    },
    {
      path: DATA_MODEL_FILE_NAME,
      content: renderDataModel(workload, explicit, evaluation, options.decisions ?? [], {
        ...(options.prices === undefined ? {} : { prices: options.prices }),
        ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
        ...(options.verification !== undefined
          ? { verification: { kind: "ran" as const, run: options.verification } }
          : options.verificationNotRun !== undefined
            ? { verification: { kind: "notRun" as const, reason: options.verificationNotRun } }
            : {}),
      }),
      executable: false,
    },
    { path: "evaluation.json", content: `${JSON.stringify(evaluationJson, null, 2)}\n`, executable: false },
    ...renderDataAccessFiles(
      workload,
      explicit,
      evaluation.patterns.map((pattern) => pattern.plan),
    ).map((file) => ({ path: `src/${file.path}`, content: file.content, executable: false })),
    ...renderProjectFiles(workload).map((file) => ({ ...file, executable: false })),
    {
      path: REPORT_FILE_NAME,
      content: await renderReportHtml(
        buildReportData({
          workload,
          model,
          evaluation,
          label: options.label ?? (options.decisions === undefined ? "model" : "designed model"),
          ...(options.prices === undefined ? {} : { prices: options.prices }),
          ...(options.evaluateOptions === undefined ? {} : { evaluateOptions: options.evaluateOptions }),
          ...(options.decisions === undefined ? {} : { decisions: options.decisions }),
          ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
          ...(options.verification === undefined ? {} : { verification: options.verification }),
          ...(options.compare === undefined ? {} : { compare: options.compare }),
        }),
      ),
      executable: false,
    },
    ...renderModelArtifacts(explicit, {
      throughputByContainer: throughputOf(evaluation),
      scale: workload.scale,
      expiringItems: expiringItemsOf(workload, explicit),
    }),
  ];
}
