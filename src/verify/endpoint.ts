/**
 * The Cosmos DB adapter edge of `verify`: an embedded endpoint (`@vercel/cosmosdb-server`
 * in-process on loopback) or a real account / the official emulator, what each can and cannot
 * check, and the wrapping of SDK errors into `CosmosModelerError` with every secret redacted.
 * Facts about the embedded server: measured 2026-11-21 (what it lacks is listed in README.md, Verify).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CosmosClient } from "@azure/cosmos";
import { createHttpServer } from "@vercel/cosmosdb-server";
import { CosmosModelerError } from "../common/errors.js";

export type EndpointKind = "embedded" | "real";

/** What an endpoint can be trusted to check; verify reports the checks it skipped and why. */
export interface EndpointCapabilities {
  /** Request charges are real (the embedded server always answers 1 RU). */
  readonly measuresRequestCharge: boolean;
  /** Items are keyed by every level of a hierarchical key (embedded: first level + id only). */
  readonly hierarchicalKeysFull: boolean;
  /** The change feed returns new changes after the first read. */
  readonly changeFeed: boolean;
  /** Items expire after their ttl. */
  readonly ttl: boolean;
  readonly offsetLimit: boolean;
  readonly groupBy: boolean;
  readonly distinct: boolean;
  /** Transactional batches are all-or-nothing. */
  readonly atomicBatch: boolean;
  /** Patch operations inside a transactional batch. */
  readonly patchInBatch: boolean;
  /** The `partitionKey` query option scopes a query to one logical partition. */
  readonly partitionScopedQuery: boolean;
  /** VectorDistance (vector and hybrid search). */
  readonly vectorSearch: boolean;
  /** FullTextScore, FullTextContainsAny, ORDER BY RANK and RRF (full-text and hybrid search). */
  readonly fullTextSearch: boolean;
}

export type Capability = keyof EndpointCapabilities;

/**
 * The embedded server's capabilities, as measured with @vercel/cosmosdb-server 1.0.1 and
 * @azure/cosmos 4.9.3 (checked 2026-11-21).
 */
export const EMBEDDED_CAPABILITIES: EndpointCapabilities = {
  measuresRequestCharge: false,
  hierarchicalKeysFull: false,
  changeFeed: false,
  ttl: false,
  offsetLimit: false,
  groupBy: false,
  distinct: false,
  atomicBatch: false,
  patchInBatch: false,
  partitionScopedQuery: false,
  vectorSearch: false,
  fullTextSearch: false,
};

/** A real account or the official emulator: everything Cosmos DB for NoSQL does. */
export const REAL_CAPABILITIES: EndpointCapabilities = {
  measuresRequestCharge: true,
  hierarchicalKeysFull: true,
  changeFeed: true,
  ttl: true,
  offsetLimit: true,
  groupBy: true,
  distinct: true,
  atomicBatch: true,
  patchInBatch: true,
  partitionScopedQuery: true,
  vectorSearch: true,
  fullTextSearch: true,
};

/** Why the embedded endpoint lacks each capability, in words a verify report can print. */
export const EMBEDDED_LIMITATIONS: Readonly<Record<Capability, string>> = {
  measuresRequestCharge: "the embedded endpoint charges 1 RU for every request; RU were not measured",
  hierarchicalKeysFull:
    "the embedded endpoint keys items by the first partition key level and id only; uniqueness per full hierarchical key was not checked",
  changeFeed: "the embedded endpoint's change feed never returns changes after the first read",
  ttl: "the embedded endpoint stores ttl but never expires items",
  offsetLimit: "the embedded endpoint cannot parse OFFSET LIMIT",
  groupBy: "the embedded endpoint cannot parse GROUP BY",
  distinct: "the embedded endpoint cannot parse DISTINCT",
  atomicBatch: "the embedded endpoint does not roll back a failed transactional batch",
  patchInBatch: "the embedded endpoint rejects patch operations inside a transactional batch",
  partitionScopedQuery:
    "the embedded endpoint ignores the partitionKey query option (queries must filter on the key in WHERE)",
  // Measured 2026-11-29: "Unsupported ORDER BY clause. ORDER BY item expression could not be
  // mapped to a document path" (ORDER BY VectorDistance), and a syntax error at FullTextContainsAny.
  vectorSearch:
    "the embedded endpoint cannot run VectorDistance (ORDER BY VectorDistance is refused); the oracle answers it exactly (brute force): run verify on an account with vector search to compare",
  fullTextSearch:
    "the embedded endpoint cannot run FullTextScore, FullTextContainsAny or ORDER BY RANK (a syntax error there)",
};

/** A connected endpoint. `close()` disposes the client and, for the embedded one, stops the server. */
export interface CosmosEndpoint {
  /** The endpoint URL (never contains a key). */
  readonly endpoint: string;
  readonly client: CosmosClient;
  readonly kind: EndpointKind;
  readonly capabilities: EndpointCapabilities;
  close(): Promise<void>;
}

/** The embedded server's account key: any key is accepted; this one is public by design. */
const EMBEDDED_KEY = "embedded-endpoint-accepts-any-key";

/**
 * Starts `@vercel/cosmosdb-server` in this process on 127.0.0.1 (a free port) over plain HTTP
 * with keep-alive, and a client that does not follow the server's advertised https address.
 * @example const endpoint = await startEmbeddedEndpoint(); ...; await endpoint.close();
 */
export async function startEmbeddedEndpoint(): Promise<CosmosEndpoint & { readonly kind: "embedded" }> {
  // Without keep-alive the server closes every connection (about 6x slower): embedded-endpoint.md.
  const server = createHttpServer({ keepAlive: true });
  // Node closes a keep-alive connection after 5 s idle; the SDK may reuse it just then (read
  // ECONNRESET) when a long step between requests keeps the process busy. The connections live
  // as long as the endpoint: close() ends them all.
  server.keepAliveTimeout = 0;
  shortenContinuationTokens(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    throw new CosmosModelerError(
      "verify.endpointUnreachable",
      `could not start the embedded Cosmos DB endpoint on 127.0.0.1: ${describe(error, [])}`,
      { cause: error },
    );
  }
  const port = (server.address() as AddressInfo).port;
  const endpoint = `http://127.0.0.1:${port}`;
  // enableEndpointDiscovery: false, or the SDK follows the server's https:// address (EPROTO).
  const client = new CosmosClient({
    endpoint,
    key: EMBEDDED_KEY,
    connectionPolicy: { enableEndpointDiscovery: false },
  });
  let closed = false;
  return {
    endpoint,
    client,
    kind: "embedded",
    capabilities: EMBEDDED_CAPABILITIES,
    async close() {
      if (closed) return;
      closed = true;
      client.dispose();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Continuation tokens longer than this are replaced by a handle (see shortenContinuationTokens). */
const LONG_TOKEN = 1024;

/**
 * The embedded server writes the ORDER BY values of a page's last item into its continuation
 * token (`#RTD:` base64 JSON): an order by a long string gives a header over the 16 KB Node's
 * HTTP client parses ("Parse Error: Header overflow"). The server's long tokens are kept here
 * and the client gets a short handle (`cm-<n>`) in their place, restored on the next request.
 * Tokens are opaque to clients, so nothing else changes. Kept for the endpoint's life.
 */
function shortenContinuationTokens(server: Server): void {
  const tokens: string[] = [];
  const [handle] = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (handle === undefined) return;
  server.removeAllListeners("request");
  const rewrite = (header: string, replace: (token: string) => string): string => {
    try {
      const parsed = JSON.parse(header) as unknown;
      if (typeof parsed !== "object" || parsed === null || !("token" in parsed)) return header;
      const { token } = parsed as { token: unknown };
      if (typeof token !== "string") return header;
      const replaced = replace(token);
      return replaced === token ? header : JSON.stringify({ ...parsed, token: replaced });
    } catch {
      return header;
    }
  };
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const incoming = req.headers["x-ms-continuation"];
    if (typeof incoming === "string") {
      req.headers["x-ms-continuation"] = rewrite(incoming, (token) => {
        const index = /^cm-(\d+)$/.exec(token)?.[1];
        return index === undefined ? token : (tokens[Number(index)] ?? token);
      });
    }
    const setHeader = res.setHeader.bind(res);
    res.setHeader = (name: string, value: number | string | readonly string[]) =>
      setHeader(
        name,
        name.toLowerCase() === "x-ms-continuation" && typeof value === "string" && value.length > LONG_TOKEN
          ? rewrite(value, (token) => `cm-${tokens.push(token) - 1}`)
          : value,
      );
    handle.call(server, req, res);
  });
}

/** How to reach a real account or the emulator. */
export type RealEndpointOptions =
  { readonly connectionString: string } | { readonly endpoint: string; readonly key: string };

/**
 * Connects to a real account (or the emulator) and checks that it answers (reads the database
 * account). Throws `verify.badConnectionString` or `verify.endpointUnreachable`; the key never
 * appears in the error.
 */
export async function connectRealEndpoint(
  options: RealEndpointOptions,
): Promise<CosmosEndpoint & { readonly kind: "real" }> {
  const { endpoint, key } =
    "connectionString" in options ? parseConnectionString(options.connectionString) : options;
  const secrets = [key, "connectionString" in options ? options.connectionString : ""];
  let client: CosmosClient;
  try {
    client = new CosmosClient({ endpoint, key });
  } catch (error) {
    throw new CosmosModelerError(
      "verify.badConnectionString",
      `could not create a Cosmos DB client for ${redactSecrets(endpoint, secrets)}: ${describe(error, secrets)}`,
      { cause: redactError(error, secrets) },
    );
  }
  try {
    await client.getDatabaseAccount();
  } catch (error) {
    client.dispose();
    throw wrapCosmosError(error, {
      code: "verify.endpointUnreachable",
      action: `connect to ${redactSecrets(endpoint, secrets)}`,
      secrets,
    });
  }
  return {
    endpoint: redactSecrets(endpoint, secrets),
    client,
    kind: "real",
    capabilities: REAL_CAPABILITIES,
    close() {
      client.dispose();
      return Promise.resolve();
    },
  };
}

/**
 * How to reach a real endpoint from the command line and the environment: `--connection-string`
 * first, then `COSMOS_CONNECTION_STRING`, then `COSMOS_ENDPOINT` with `COSMOS_KEY`; undefined
 * means the embedded endpoint. The caller passes the environment (this module does not read it).
 * @example realEndpointOptionsFrom(undefined, process.env) // { endpoint, key } when both are set
 */
export function realEndpointOptionsFrom(
  connectionString: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): RealEndpointOptions | undefined {
  const fromFlag = connectionString?.trim();
  if (fromFlag !== undefined && fromFlag !== "") return { connectionString: fromFlag };
  const fromEnv = env["COSMOS_CONNECTION_STRING"]?.trim();
  if (fromEnv !== undefined && fromEnv !== "") return { connectionString: fromEnv };
  const endpoint = env["COSMOS_ENDPOINT"]?.trim();
  const key = env["COSMOS_KEY"]?.trim();
  if (endpoint !== undefined && endpoint !== "" && key !== undefined && key !== "") return { endpoint, key };
  if (endpoint !== undefined && endpoint !== "") {
    throw new CosmosModelerError(
      "verify.badConnectionString",
      "COSMOS_ENDPOINT is set but COSMOS_KEY is not: set both, or pass --connection-string",
    );
  }
  return undefined;
}

/**
 * Splits `AccountEndpoint=...;AccountKey=...;` into endpoint and key. Throws
 * `verify.badConnectionString` naming the missing part (never echoing the string).
 */
export function parseConnectionString(connectionString: string): { endpoint: string; key: string } {
  const parts = new Map<string, string>();
  for (const segment of connectionString.split(";")) {
    const at = segment.indexOf("=");
    if (at > 0) parts.set(segment.slice(0, at).trim().toLowerCase(), segment.slice(at + 1).trim());
  }
  const endpoint = parts.get("accountendpoint");
  const key = parts.get("accountkey");
  const missing = [endpoint ? undefined : "AccountEndpoint", key ? undefined : "AccountKey"].filter(
    (part) => part !== undefined,
  );
  if (endpoint === undefined || key === undefined || missing.length > 0) {
    throw new CosmosModelerError(
      "verify.badConnectionString",
      `the connection string has no ${missing.join(" and ")}; expected "AccountEndpoint=https://ACCOUNT.documents.azure.com:443/;AccountKey=KEY;" (copy it from the portal's Keys page)`,
    );
  }
  return { endpoint, key };
}

const SECRET_PATTERNS: readonly RegExp[] = [
  // Connection string key: AccountKey=...; (up to the next ; or whitespace or quote)
  /(AccountKey\s*=\s*)[^;\s"']+/gi,
  // Authorization header token (master key signature), raw or URL-encoded.
  /(sig(?:=|%3D))[^&\s"']+/gi,
  // "key": "..." in JSON-like text, and key=... in query strings.
  /("(?:key|masterKey|accountKey)"\s*:\s*")[^"]*/gi,
  /([?&](?:key|sig)=)[^&\s"']+/gi,
];

/**
 * Removes account keys, connection-string keys and request signatures from a text, plus any of the
 * given secret values wherever they appear.
 * @example redactSecrets("AccountEndpoint=https://a/;AccountKey=abc==;") // "AccountEndpoint=https://a/;AccountKey=[redacted];"
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let result = text;
  for (const secret of secrets) {
    // Short values (or empty strings) would redact ordinary words.
    if (secret.length >= 8) result = result.split(secret).join("[redacted]");
  }
  for (const pattern of SECRET_PATTERNS) result = result.replace(pattern, "$1[redacted]");
  return result;
}

/** The details of a failed Cosmos DB request that a user needs to look it up. */
export interface CosmosFailure {
  readonly statusCode?: number;
  readonly substatus?: number;
  readonly activityId?: string;
  readonly requestCharge?: number;
  /** A network error code such as `ECONNREFUSED`. */
  readonly errorCode?: string;
}

/** Status, substatus, activity id and request charge of an SDK error (or whatever is present). */
export function cosmosFailureOf(error: unknown): CosmosFailure {
  if (typeof error !== "object" || error === null) return {};
  const record = error as Record<string, unknown>;
  const headers = (record["headers"] ?? {}) as Record<string, unknown>;
  // The SDK's ErrorResponse says `code: 409`; the runtime's DataAccessError `statusCode: 409`.
  const statusCode = numberOf(record["code"]) ?? numberOf(record["statusCode"]);
  const substatus = numberOf(record["substatus"] ?? headers["x-ms-substatus"]);
  const activityId = record["activityId"] ?? headers["x-ms-activity-id"];
  const requestCharge = numberOf(record["requestCharge"] ?? headers["x-ms-request-charge"]);
  const errorCode =
    typeof record["code"] === "string" && statusCode === undefined ? record["code"] : undefined;
  return {
    ...(errorCode === undefined ? {} : { errorCode }),
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(substatus === undefined ? {} : { substatus }),
    ...(typeof activityId === "string" && activityId !== "" ? { activityId } : {}),
    ...(requestCharge === undefined ? {} : { requestCharge }),
  };
}

function numberOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

/**
 * Wraps an SDK error in a `CosmosModelerError` whose message says what failed, with status,
 * substatus, activity id and request charge in `context`, and every secret redacted (message,
 * context and cause).
 * @example throw wrapCosmosError(error, { code: "verify.requestFailed", action: "create container posts" });
 */
export function wrapCosmosError(
  error: unknown,
  options: {
    readonly code: string;
    readonly action: string;
    readonly secrets?: readonly string[];
    readonly context?: Readonly<Record<string, unknown>>;
  },
): CosmosModelerError {
  if (error instanceof CosmosModelerError) return error;
  const secrets = options.secrets ?? [];
  const failure = cosmosFailureOf(error);
  const status =
    failure.statusCode === undefined
      ? ""
      : ` (status ${failure.statusCode}${failure.substatus === undefined ? "" : `/${failure.substatus}`}${failure.activityId === undefined ? "" : `, activity id ${failure.activityId}`})`;
  return new CosmosModelerError(
    options.code,
    `could not ${options.action}${status}: ${describe(error, secrets)}`,
    { cause: redactError(error, secrets), context: { ...options.context, ...failure } },
  );
}

/** The first line of an error's message, redacted and shortened. */
function describe(error: unknown, secrets: readonly string[]): string {
  const raw =
    error instanceof Error
      ? error.message
      : typeof error === "string"
        ? error
        : (JSON.stringify(error) ?? "");
  const firstLine = redactSecrets(raw, secrets).split("\n")[0] ?? "";
  return firstLine.length > 500 ? `${firstLine.slice(0, 500)}...` : firstLine;
}

/** A copy of an error with the message redacted and without headers or request details. */
function redactError(error: unknown, secrets: readonly string[]): Error {
  const redacted = new Error(describe(error, secrets));
  redacted.name = error instanceof Error ? error.name : "Error";
  return redacted;
}
