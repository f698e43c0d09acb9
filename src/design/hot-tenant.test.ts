/**
 * Issue 26's hot tenants: one tenant takes most of the traffic of reads by tenant. On three
 * workloads of our own the design ends with no hard-limit error and with headroom, the reads of a
 * tenant stay a query on one partition or key prefix, and what spreads the hot tenant is a copy
 * keyed by tenant (replicated, with a hierarchical key whose lower level is the record's own key,
 * so each replica of the tenant is a prefix of its own) or a hierarchical key led by the tenant.
 * Before the spreads of hierarchical keys, the fleet telemetry and the gradebook ended with
 * `evaluate.hotPhysicalPartition` (the hot tenant's prefix in one physical partition), the work
 * orders without headroom (a replica of the hot company holding 20 GB).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadModel } from "../model/load-model.js";
import type { ItemType } from "../model/types.js";
import { designProblems } from "../test-support/design-property.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { designModel } from "./design-model.js";

const FIXTURES = new URL("../../test/fixtures/expert-classes/", import.meta.url);

function workloadOf(file: string): Workload {
  const loaded = loadWorkload(readFileSync(new URL(file, FIXTURES), "utf8"), { file });
  if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("; "));
  return loaded.value;
}

/** The design of `file`, with the item type and query step that answer its read of a tenant. */
function hotTenantDesign(file: string, read: string) {
  const workload = workloadOf(file);
  const result = designModel(workload);
  const first = result.evaluation.patterns.find((p) => p.id === read)?.plan.operations[0];
  const container = result.model.containers.find((c) => c.name === first?.container);
  const item: ItemType | undefined = container?.items.find((i) => i.type === first?.itemType);
  return { workload, result, first, container, item };
}

describe("a tenant hot enough to break a partition", () => {
  it.each([
    { file: "tenant-telemetry.yaml", read: "A1", tenant: "tenantId", own: "alertId" },
    { file: "district-gradebook.yaml", read: "G1", tenant: "districtId", own: "entryId" },
  ])(
    "$file: the tenant's reads go to replicas of a copy keyed [{$tenant}-{replica}, {$own}]",
    ({ file, read, tenant, own }) => {
      const { workload, result, first, container, item } = hotTenantDesign(file, read);
      expect(result.evaluation.issues.filter((issue) => issue.severity === "error")).toEqual([]);
      expect(result.evaluation.issues.filter((issue) => issue.code === "evaluate.noHeadroom")).toEqual([]);
      // A query on one prefix of a hierarchical key: a replica of the tenant, every record of it.
      expect(first?.kind).toBe("query");
      expect(first?.kind === "query" ? first.scope : undefined).toBe("prefix");
      expect(item?.source).toBeDefined();
      expect(item?.replicas).toBeGreaterThanOrEqual(2);
      expect(item?.partitionKey).toEqual([`{${tenant}}-{replica}`, `{${own}}`]);
      expect(container?.partitionKey).toHaveLength(2);
      expect(designProblems(result, (text) => loadModel(text, { workload }))).toEqual([]);
    },
  );

  it("work-orders.yaml: the hot company's dispatch screen stays a targeted query, with headroom", () => {
    const { workload, result, first, item } = hotTenantDesign("work-orders.yaml", "W1");
    expect(result.evaluation.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    expect(result.evaluation.issues.filter((issue) => issue.code === "evaluate.noHeadroom")).toEqual([]);
    expect(first?.kind === "query" ? first.scope : undefined).not.toBe("fanOut");
    // Keyed by the company, spread: replicas of a hierarchical key, or (with the hot parents'
    // write shards) replicas of the company's shards, {companyId}-{shard}-{replica}.
    expect(item?.partitionKey.join(",")).toContain("{companyId}");
    expect(item?.replicas).toBeGreaterThanOrEqual(2);
    expect((item?.partitionKey.length ?? 0) >= 2 || (item?.shards ?? 1) >= 2).toBe(true);
    for (const container of result.evaluation.containers)
      expect(container.limits.largestLogicalPartitionGB.value).toBeLessThanOrEqual(
        workload.scale.targetUtilization * 20,
      );
    expect(designProblems(result, (text) => loadModel(text, { workload }))).toEqual([]);
  });
});
