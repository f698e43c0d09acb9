/**
 * The Cosmos DB adapter of `verify` (loads `@azure/cosmos` and `@vercel/cosmosdb-server`): kept
 * out of the main entry point so that designing does not load the SDK. Meant as the `./verify`
 * subpath export.
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
