/**
 * Test support for tests against Cosmos DB: the embedded endpoint always, and a real account when
 * COSMOS_ENDPOINT and COSMOS_KEY are set (skipped otherwise, with the reason in the title).
 */
import { connectRealEndpoint, startEmbeddedEndpoint, type CosmosEndpoint } from "../verify/endpoint.js";

/** An endpoint a test can run on, or the reason it is skipped. */
export interface TestEndpoint {
  readonly name: "embedded" | "real account";
  /** Why the tests on this endpoint are skipped; undefined when they run. */
  readonly skip: string | undefined;
  readonly open: () => Promise<CosmosEndpoint>;
}

const realEndpoint = process.env["COSMOS_ENDPOINT"];
const realKey = process.env["COSMOS_KEY"];

/** The real account of COSMOS_ENDPOINT and COSMOS_KEY, or undefined when they are not set. */
export const REAL_ACCOUNT: TestEndpoint = {
  name: "real account",
  skip:
    realEndpoint === undefined || realKey === undefined
      ? "COSMOS_ENDPOINT and COSMOS_KEY are not set"
      : undefined,
  open: () => connectRealEndpoint({ endpoint: realEndpoint ?? "", key: realKey ?? "" }),
};

/** The embedded endpoint (always) and the real account (when configured). */
export const TEST_ENDPOINTS: readonly TestEndpoint[] = [
  { name: "embedded", skip: undefined, open: () => startEmbeddedEndpoint() },
  REAL_ACCOUNT,
];

/** The title of a describe block on `endpoint`: its name, and why it is skipped. */
export function endpointTitle(endpoint: TestEndpoint): string {
  return endpoint.skip === undefined ? endpoint.name : `${endpoint.name} (skipped: ${endpoint.skip})`;
}
