/**
 * The numbers of a model that no Azure Cosmos DB account could have, refused with the limit and
 * its source (`cosmos/limits.ts`): containers per account, containers per shared database, RU/s
 * of a container, physical partitions of a container, and the write shards or read replicas of an
 * item type (which exist to spread load over physical partitions, so there can be no more of
 * them than a container can have partitions).
 */
import { formatInteger } from "../common/format-number.js";
import type { IssuePath, IssueSink } from "../common/issues.js";
import {
  LIMIT_SOURCES,
  MAX_ACCOUNT_CONTAINERS,
  MAX_PHYSICAL_PARTITIONS,
  MAX_PROVISIONED_RUS,
  MAX_SHARED_DATABASE_CONTAINERS,
} from "../cosmos/limits.js";
import type { Container, Model } from "./types.js";

const PARTITIONS_REASON = `the most physical partitions a container can have: ${formatInteger(MAX_PROVISIONED_RUS)} GB of storage (every GB needs 1 RU/s, and a container's RU/s are at most ${formatInteger(MAX_PROVISIONED_RUS)}) at 50 GB per partition (${LIMIT_SOURCES.conceptsLimits}; ${LIMIT_SOURCES.throughputApi})`;

/** Reports every number of `model` beyond what the service allows. */
export function checkServiceLimits(model: Model, issues: IssueSink): void {
  if (model.containers.length > MAX_ACCOUNT_CONTAINERS) {
    issues.error(
      "model.invalidValue",
      ["containers"],
      `expected at most ${MAX_ACCOUNT_CONTAINERS} containers, got ${formatInteger(model.containers.length)}: an account holds at most ${MAX_ACCOUNT_CONTAINERS} databases and containers together, a limit that cannot be raised (${LIMIT_SOURCES.conceptsLimits})`,
      "put several item types in one container (a type property tells them apart)",
    );
  }
  const shared = model.containers.filter((container) => container.throughput?.mode === "shared");
  if (shared.length > MAX_SHARED_DATABASE_CONTAINERS) {
    issues.error(
      "model.invalidValue",
      ["containers"],
      `${shared.length} containers use shared database throughput, but a database with shared throughput holds at most ${MAX_SHARED_DATABASE_CONTAINERS} containers (${LIMIT_SOURCES.conceptsLimits})`,
      "give some containers their own throughput",
    );
  }
  model.containers.forEach((container, index) => checkContainer(container, ["containers", index], issues));
}

function checkContainer(container: Container, path: IssuePath, issues: IssueSink): void {
  const throughput = container.throughput;
  const rus =
    throughput?.mode === "manual"
      ? throughput.rus
      : throughput?.mode === "autoscale"
        ? throughput.maxRus
        : undefined;
  if (rus !== undefined && rus > MAX_PROVISIONED_RUS) {
    issues.error(
      "model.invalidValue",
      [...path, "throughput", throughput?.mode === "manual" ? "rus" : "maxRus"],
      `expected at most ${formatInteger(MAX_PROVISIONED_RUS)} RU/s, got ${formatInteger(rus)}: the RU/s of a container are a 32-bit integer in the Azure management API, so no template, command or support ticket sets more (${LIMIT_SOURCES.throughputApi}); over 1,000,000 RU/s a support ticket is needed`,
      "spread the load over more containers",
    );
  }
  if (container.physicalPartitions !== undefined && container.physicalPartitions > MAX_PHYSICAL_PARTITIONS) {
    issues.error(
      "model.invalidValue",
      [...path, "physicalPartitions"],
      `expected at most ${formatInteger(MAX_PHYSICAL_PARTITIONS)}, got ${formatInteger(container.physicalPartitions)}: ${PARTITIONS_REASON}`,
    );
  }
  container.items.forEach((item, index) => {
    for (const [field, count] of [
      ["shards", item.shards],
      ["replicas", item.replicas],
    ] as const) {
      if (count === undefined || count <= MAX_PHYSICAL_PARTITIONS) continue;
      issues.error(
        field === "shards" ? "model.badShards" : "model.badReplicas",
        [...path, "items", index, field],
        `expected at most ${formatInteger(MAX_PHYSICAL_PARTITIONS)} ${field}, got ${formatInteger(count)}: they spread the load over physical partitions, and ${formatInteger(MAX_PHYSICAL_PARTITIONS)} is ${PARTITIONS_REASON}`,
      );
    }
  });
}
