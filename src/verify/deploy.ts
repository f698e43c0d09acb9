/**
 * Creates a model's containers in a new, uniquely named database of an endpoint, and deletes the
 * database afterwards (unless kept). The definitions come from the pure `containerDefinitionOf`.
 */
import { randomBytes } from "node:crypto";
import type { Container as CosmosContainer, ContainerRequest, CosmosClient, Database } from "@azure/cosmos";
import type { Model } from "../model/types.js";
import { containerDefinitionOf, type IndexingPolicyDefinition } from "../planner/container-definition.js";
import { wrapCosmosError } from "./endpoint.js";

export interface DeployOptions {
  /** Database id; default `cosmos-modeler-verify-<time>-<random>`. */
  readonly databaseId?: string;
  /** Indexing policies for containers whose model indexing is `derived`, by container name. */
  readonly derivedPolicies?: Readonly<Record<string, IndexingPolicyDefinition>>;
  /**
   * Manual RU/s for each container on a provisioned account. Absent = the account's default
   * (400 RU/s on provisioned accounts, none on serverless ones).
   */
  readonly throughput?: number;
  /** Keep the database when `remove()` is called (to inspect it afterwards). */
  readonly keep?: boolean;
}

/** A deployed model: the database, its containers by model name, and how to clean up. */
export interface Deployment {
  readonly databaseId: string;
  readonly database: Database;
  readonly containers: ReadonlyMap<string, CosmosContainer>;
  /** Deletes the database unless `keep` was set; safe to call twice. */
  remove(): Promise<void>;
}

/** A fresh database id: `cosmos-modeler-verify-20261122t0102-1a2b3c`. */
export function uniqueDatabaseId(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "")
    .toLowerCase();
  return `cosmos-modeler-verify-${stamp}-${randomBytes(3).toString("hex")}`;
}

/**
 * Creates the database and every container of the model (partition key incl. MultiHash v2,
 * indexing policy, default ttl, unique keys). On failure, deletes what it created and throws
 * `verify.deployFailed` with the SDK details.
 */
export async function deployModel(
  client: CosmosClient,
  model: Model,
  options: DeployOptions = {},
): Promise<Deployment> {
  const databaseId = options.databaseId ?? uniqueDatabaseId();
  let database: Database;
  try {
    // create (not createIfNotExists): a name clash must fail rather than reuse someone's data.
    database = (await client.databases.create({ id: databaseId })).database;
  } catch (error) {
    throw wrapCosmosError(error, {
      code: "verify.deployFailed",
      action: `create database ${databaseId}`,
      context: { databaseId },
    });
  }
  let removed = false;
  const remove = async (): Promise<void> => {
    if (removed || options.keep === true) return;
    removed = true;
    try {
      await database.delete();
    } catch (error) {
      throw wrapCosmosError(error, {
        code: "verify.cleanupFailed",
        action: `delete database ${databaseId} (delete it by hand)`,
        context: { databaseId },
      });
    }
  };
  const containers = new Map<string, CosmosContainer>();
  for (const container of model.containers) {
    const definition = containerDefinitionOf(container, options.derivedPolicies?.[container.name]);
    const request = {
      ...structuredClone(definition),
      ...(options.throughput === undefined ? {} : { throughput: options.throughput }),
    } as ContainerRequest;
    try {
      containers.set(container.name, (await database.containers.create(request)).container);
    } catch (error) {
      await remove().catch(() => undefined);
      throw wrapCosmosError(error, {
        code: "verify.deployFailed",
        action: `create container ${container.name} in database ${databaseId}`,
        context: { databaseId, container: container.name },
      });
    }
  }
  return { databaseId, database, containers, remove };
}
