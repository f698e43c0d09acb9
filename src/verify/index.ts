/**
 * The Cosmos DB adapter of `verify` (loads `@azure/cosmos` and `@vercel/cosmosdb-server`): kept
 * out of the main entry point so that designing does not load the SDK. Meant as the `./verify`
 * subpath export.
 *
 * `buildVerificationPlan` (pure) plans a run, `runVerification` executes it through the generated
 * data-access module (`loadDataAccess`), `formatVerificationReport` prints it; `verifyOnEndpoint`
 * does all three. The flow a verify run follows with these pieces:
 * 1. `realEndpointOptionsFrom(flag, env)` -> `connectRealEndpoint(...)`, or `startEmbeddedEndpoint()`;
 *    `endpoint.capabilities` says which checks the endpoint can support (`EMBEDDED_LIMITATIONS`
 *    gives the reason to print for each one skipped).
 * 2. `deployModel(client, model, { derivedPolicies })` -> containers; `remove()` at the end.
 * 3. `generateDataset(workload, { seed })`, `materializeDataset(workload, model, dataset)`,
 *    `loadItems(deployment.containers, items, { onProgress })`; conflicts are findings.
 * 4. Each read pattern: `pickParameters` -> run the plan's steps (`inputValue(parameters,
 *    attribute, bound)` binds `{kind: "input"}` sources) -> `unpackItem` / `answerFromItem` per
 *    returned item (follow-up steps fill its `unresolved` with entries) -> `checkReadAnswer`.
 * 5. Each write pattern: `generateWriteRecord` -> run the plan's write -> `applyWriteToDataset`;
 *    the model's derived data (copies, counters, source copies) is brought up to date with
 *    `applyItemChanges(containers, diffItems(before, after))` where the change feed cannot run
 *    (`capabilities.changeFeed` false), then the reads of step 4 are checked again.
 * 6. `planProbes(plan)` -> `runProbes(run, probes)`: the probes of the generated code that apply
 *    to the model (counters under concurrent writes, a child's lifecycle, paging, a change-feed
 *    processor restarted), each a typed `ProbeOutcome` with its figures.
 */
export {
  startEmbeddedEndpoint,
  connectRealEndpoint,
  parseConnectionString,
  realEndpointOptionsFrom,
  redactSecrets,
  wrapCosmosError,
  cosmosFailureOf,
  EMBEDDED_CAPABILITIES,
  REAL_CAPABILITIES,
  EMBEDDED_LIMITATIONS,
  type CosmosEndpoint,
  type EndpointCapabilities,
  type Capability,
  type EndpointKind,
  type RealEndpointOptions,
  type CosmosFailure,
} from "./endpoint.js";
export { deployModel, uniqueDatabaseId, type Deployment, type DeployOptions } from "./deploy.js";
export {
  loadItems,
  partitionKeyArgument,
  type LoadOptions,
  type LoadResult,
  type LoadFailure,
} from "./load.js";
export {
  buildVerificationPlan,
  missingCapability,
  writtenWithParent,
  embeddedChildWrites,
  parentRecordsOf,
  DEFAULT_VERIFY_SEED,
  DEFAULT_MAX_ITEMS_PER_CONTAINER,
  VERIFY_FAULTS,
  type VerificationPlan,
  type VerificationOptions,
  type PatternCheckPlan,
  type PlannedRequest,
  type PlannedWrite,
  type EndpointLimitation,
  type VerifyFault,
} from "./verification-plan.js";
export {
  runVerification,
  verifyOnEndpoint,
  type VerificationReport,
  type PatternOutcome,
  type CheckStatus,
  type RunOptions,
  type VerifyProgress,
} from "./run-verification.js";
export { formatVerificationReport, RU_NOT_MEASURED_EMBEDDED } from "./format-report.js";
export { recordingLines, recordRead, type RecordedCharge } from "./record-charges.js";
export {
  assembleReadAnswer,
  isLookupPlan,
  type ReadOutput,
  type FollowUpOutput,
  type AssembledAnswer,
} from "./assemble-answer.js";
export { loadDataAccess, type DataAccess } from "./load-data-access.js";
export { planProbes, CONCURRENT_WRITES, type ProbePlan } from "./probe-plan.js";
export { runProbes, type ProbeRun } from "./run-probes.js";
export {
  probeTitle,
  probeFigures,
  REAL_ACCOUNT_PROBES,
  type ProbeOutcome,
  type ProbeStatus,
  type CounterRef,
} from "./probe-outcomes.js";
