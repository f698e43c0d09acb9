/**
 * The finding of a container (or a shared-throughput database) that needs more RU/s than it can
 * be given: over the default 1,000,000 RU/s, a warning naming the support ticket that raises it;
 * over 2,147,483,647 RU/s, the largest value the management API can hold, an error, since no
 * ticket raises it (`cosmos/limits.ts`).
 */
import { formatInteger } from "../common/format-number.js";
import type { EvaluationIssue, IssuePath } from "../common/issues.js";
import {
  LIMIT_SOURCES,
  MAX_CONTAINER_RUS,
  MAX_CONTAINER_RUS_TICKET,
  MAX_PROVISIONED_RUS,
  MAX_SHARED_DATABASE_RUS,
} from "../cosmos/limits.js";

/**
 * `evaluate.overContainerMaximum` for `containers` needing `rus` together (one container, or the
 * containers sharing the database throughput), or nothing when `rus` is within the default.
 */
export function throughputMaximumIssue(
  containers: readonly string[],
  rus: number,
  shared: boolean,
  path: IssuePath,
): EvaluationIssue | undefined {
  const defaultMaximum = shared ? MAX_SHARED_DATABASE_RUS : MAX_CONTAINER_RUS;
  if (rus <= defaultMaximum) return undefined;
  const who = shared
    ? `the containers on shared database throughput (${containers.join(", ")}) need ${formatInteger(rus)} RU/s together`
    : `${containers.join(", ")} needs ${formatInteger(rus)} RU/s`;
  const what = shared ? "database" : "container";
  if (rus > MAX_PROVISIONED_RUS) {
    return {
      code: "evaluate.overContainerMaximum",
      containers,
      rus,
      maximum: MAX_PROVISIONED_RUS,
      severity: "error",
      path,
      message: `${who}, more than any ${what} can be given: ${formatInteger(MAX_PROVISIONED_RUS)} RU/s, the largest value of the management API's 32-bit throughput field, which no support ticket raises (${LIMIT_SOURCES.throughputApi}); the generated infrastructure is capped there and would throttle`,
      suggestion: "spread the load over more containers (e.g. one per tenant or region), or reduce the peak",
    };
  }
  return {
    code: "evaluate.overContainerMaximum",
    containers,
    rus,
    maximum: defaultMaximum,
    severity: "warning",
    path,
    message: shared
      ? `${who}, over the default maximum of ${formatInteger(defaultMaximum)} RU/s per database`
      : `${who}, over the default maximum of ${formatInteger(defaultMaximum)} RU/s per container: the deployment fails unless the limit is raised first`,
    suggestion: shared
      ? `file ${MAX_CONTAINER_RUS_TICKET} before deploying, or give the busiest containers their own throughput`
      : `file ${MAX_CONTAINER_RUS_TICKET} before deploying, or spread the load over more containers`,
  };
}
