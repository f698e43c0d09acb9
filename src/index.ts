/**
 * The public API of cosmos-modeler (docs/library.md): pure functions over plain data, the same
 * ones the command line calls. A workload goes in; a model, its evaluation and its files come
 * out:
 *
 * ```ts
 * import { loadWorkload, designModel, renderDesignDeliverables } from "cosmos-modeler";
 * const loaded = loadWorkload(text, { file: "workload.yaml" });
 * if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
 * const design = designModel(loaded.value);
 * const files = await renderDesignDeliverables(loaded.value, design);
 * ```
 *
 * Heavy parts live behind subpath exports, so designing never loads them: `cosmos-modeler/verify`
 * (the Cosmos DB adapter and the verify run), `cosmos-modeler/mcp` (the MCP server),
 * `cosmos-modeler/session` (the interview engine) and `cosmos-modeler/import` (drafting a
 * workload from a PostgreSQL database or DDL file).
 */

// Findings and failures.
export type { Issue, IssuePath, Result, Severity } from "./common/issues.js";
export { formatIssue, formatPath, hasErrors, issueToJson } from "./common/issues.js";
export { CosmosModelerError } from "./common/errors.js";

// The workload: load, check, write back.
export type * from "./workload/types.js";
export { loadWorkload, type LoadWorkloadOptions } from "./workload/load-workload.js";
export { serializeWorkload } from "./workload/serialize-workload.js";

// The model: load (with the checks against its workload), write back.
export type * from "./model/types.js";
export { loadModel, type LoadModelOptions } from "./model/load-model.js";
export { serializeModel } from "./model/serialize-model.js";

// How each access pattern executes on a model, and what one request costs.
export type * from "./planner/types.js";
export { planModel } from "./planner/plan-model.js";
export type * from "./estimator/operation.js";
export { estimateRequestCharge } from "./estimator/estimate-request-charge.js";
export { validateOperation } from "./estimator/validate-operation.js";
export { DEFAULT_RU_COEFFICIENTS, type RuCoefficients } from "./estimator/coefficients.js";

// Evaluation: RU/s, partitions, hot partitions, storage, throughput and the bill.
export type * from "./cost/evaluation-types.js";
export { evaluateModel, type EvaluateOptions, type DetailedEvaluation } from "./cost/evaluate.js";
export { DEFAULT_PRICES, type Prices } from "./cosmos/prices.js";
export { loadPrices } from "./cost/load-prices.js";

// Design: the search from the baseline through the expert's rules, with its decisions.
export { designModel, type DesignOptions, type DesignResult } from "./design/design-model.js";
export type { Decision, DecisionSubject, Alternative } from "./design/search.js";

// The files a user gets: documents, report, infrastructure, data-access code.
export {
  renderDesignDeliverables,
  renderDeliverables,
  type DesignDeliverableOptions,
  type DeliverableOptions,
} from "./deliverables/render-deliverables.js";
export type { RenderedFile } from "./render/artifacts.js";
export { renderRequirements, REQUIREMENTS_FILE_NAME } from "./render/requirements.js";
export { renderDataModel, DATA_MODEL_FILE_NAME, type DataModelOptions } from "./render/data-model.js";
