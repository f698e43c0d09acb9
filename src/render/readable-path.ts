/**
 * Where a finding is, as a reader names it: `accessPatterns[9].where` is pattern Q6's `where`
 * (the workload's id, not a 0-based index); other paths (`containers.posts.throughput`) already
 * name things and are printed as they are.
 */
import { formatPath, type IssuePath } from "../common/issues.js";
import type { Workload } from "../workload/types.js";

/** The path with an access pattern's index replaced by its id (`Q6 where.userId`). */
export function readablePath(path: IssuePath, workload: Workload): string {
  if (path[0] === "accessPatterns" && typeof path[1] === "number") {
    const pattern = workload.accessPatterns[path[1]];
    if (pattern !== undefined) {
      const rest = formatPath(path.slice(2));
      return rest === "" ? pattern.id : `${pattern.id} ${rest.replace(/^\./, "")}`;
    }
  }
  return formatPath(path);
}
