/**
 * The public API of cosmos-modeler: pure functions over plain data. Heavy parts (the Cosmos DB
 * adapter, the MCP server) live behind subpath exports.
 */
export type { Issue, Result, Severity } from "./common/issues.js";
export { formatIssue, hasErrors } from "./common/issues.js";
export { CosmosModelerError } from "./common/errors.js";
export type * from "./workload/types.js";
export type * from "./model/types.js";
export type * from "./planner/types.js";
export type * from "./estimator/operation.js";
export type * from "./cost/evaluation-types.js";
export { estimateRequestCharge } from "./estimator/estimate-request-charge.js";
export { validateOperation, OPERATION_KINDS } from "./estimator/validate-operation.js";
export { DEFAULT_RU_COEFFICIENTS, type RuCoefficients, type Band } from "./estimator/coefficients.js";
export { DEFAULT_PRICES, type Prices } from "./cosmos/prices.js";
export { loadPrices } from "./cost/load-prices.js";
export { consistencyReadMultiplier } from "./cosmos/consistency.js";
export * from "./cosmos/limits.js";
export { loadModel, type LoadModelOptions } from "./model/load-model.js";
export { validateModelAgainstWorkload } from "./model/validate-model.js";
export { serializeModel, modelToFile } from "./model/serialize-model.js";
export {
  parseTemplate,
  templateAttributes,
  templateProblem,
  templateUses,
  isLiteralTemplate,
  renderTemplate,
  renderKeyValue,
  type TemplatePart,
  type TemplateValues,
  type KeyValue,
} from "./model/templates.js";
export {
  materializeItem,
  itemPartitionKeyValue,
  itemId,
  effectiveItemType,
  computeShard,
  fnv1a32,
  bucketOf,
  truncateUtf8,
  BUCKET_RECORDS_PROPERTY,
  type EntityRecord,
  type RelatedData,
} from "./model/materialize-item.js";
export { loadWorkload, type LoadWorkloadOptions } from "./workload/load-workload.js";
export { serializeWorkload } from "./workload/serialize-workload.js";
export { escapeMarkdownText, escapeTableCell, escapeHtml, table, codeFence } from "./render/markdown.js";
export { analyzeAccessCorrelation, identifyingRelationshipCheck } from "./analysis/aggregate-analysis.js";
export type {
  PairAnalysis,
  IdentifyingCheck,
  ConsolidationRecommendation,
} from "./analysis/aggregate-analysis.js";
export { requirementsChecklist, requirementsComplete } from "./analysis/requirements-checklist.js";
export type { RequirementsState, ChecklistItem, ChecklistId } from "./analysis/requirements-checklist.js";
export { renderRequirements, REQUIREMENTS_FILE_NAME } from "./render/requirements.js";
export {
  renderDataModel,
  DATA_MODEL_FILE_NAME,
  type DataModelOptions,
  type BaselineFigures,
} from "./render/data-model.js";
export { hotPartitionRisks, entityStorage } from "./analysis/design-considerations.js";
export { zipfShare, harmonic } from "./cost/zipf.js";
export { planInfrastructure, renderContainerDefinitions } from "./render/infrastructure.js";
export type { InfrastructureOptions, InfrastructurePlan } from "./render/infrastructure.js";
export { productionSettingsOf } from "./render/production-settings.js";
export type {
  IacOptions,
  ProductionOptions,
  ProductionSettings,
  ChangeFeedMode,
} from "./render/production-settings.js";
export { renderBicep } from "./render/bicep.js";
export { renderTerraform } from "./render/terraform.js";
export { renderAzureCli } from "./render/azure-cli.js";
export { renderDiagram } from "./render/diagram.js";
export { renderModelArtifacts, type RenderedFile } from "./render/artifacts.js";
export {
  renderDataAccessModule,
  renderDataAccessFiles,
  dataAccessNames,
  type DataAccessFile,
  type DataAccessNames,
} from "./render/code/render-data-access.js";
export {
  generateDataset,
  datasetCounts,
  type Dataset,
  type GenerateOptions,
} from "./synthetic/generate-records.js";
export { generateWriteRecord } from "./synthetic/generate-writes.js";
export {
  materializeDataset,
  diffItems,
  findDuplicateItems,
  type ContainerItems,
  type ItemToLoad,
  type ItemChanges,
  type DuplicateItems,
} from "./synthetic/materialize-dataset.js";
export { sampleItems, type SampleItems, type SampleItemsOptions } from "./synthetic/sample-items.js";
export { answerReadPattern, type PatternParameters } from "./verify/oracle.js";
export { pickParameters } from "./verify/pick-parameters.js";
export { applyWriteToDataset } from "./verify/apply-write.js";
export { checkReadAnswer, answerFromItem, type AnswerCheck } from "./verify/compare-answers.js";
export { containerDefinitionOf, indexingPolicyOf } from "./planner/container-definition.js";
export {
  createSession,
  sessionToJson,
  sessionFromJson,
  type SessionState,
  type RateEstimate,
} from "./session/state.js";
export { applyChanges, type AppliedChanges } from "./session/apply-changes.js";
export { changeSchema, changesSchema, type Change } from "./session/changes.js";
export { nextQuestions, MAX_QUESTIONS_PER_TURN } from "./session/next-questions.js";
export { answersToChanges, type Question, type Answer, type AnswerSpec } from "./session/questions.js";
export { summarizeTurn, formatTurnSummary, type TurnSummary } from "./session/summarize-turn.js";
export { checkReadiness, sessionChecklist, serializeDraft, type Readiness } from "./session/checklist.js";
export { renderSessionRequirements } from "./session/render-session-requirements.js";
export { estimateRate, type BusinessFigures } from "./session/estimate-rate.js";
export { parseDraftDocument, draftToDocument, type DraftWorkload } from "./session/draft.js";
