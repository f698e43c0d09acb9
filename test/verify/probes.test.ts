/**
 * The probes a verify run makes of the generated data-access code (src/verify/probe-plan.ts), on
 * the embedded endpoint and on a real account when COSMOS_ENDPOINT and COSMOS_KEY are set: the
 * probes derived from each model run and pass with exact figures (counters after concurrent
 * writes, a child created, changed and removed, every page once), a counter increment dropped on
 * purpose fails the counter probe, and the change-feed restart is not checkable on the embedded
 * endpoint, with the reason, while a real account runs it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../../src/model/load-model.js";
import type { Model } from "../../src/model/types.js";
import { readExample, readExampleWorkload } from "../../src/test-support/model-examples.js";
import { endpointTitle, TEST_ENDPOINTS } from "../../src/test-support/test-endpoints.js";
import type { CosmosEndpoint } from "../../src/verify/endpoint.js";
import { REAL_ACCOUNT_PROBES, type ProbeOutcome } from "../../src/verify/probe-outcomes.js";
import { CONCURRENT_WRITES } from "../../src/verify/probe-plan.js";
import { verifyOnEndpoint } from "../../src/verify/run-verification.js";
import type { VerificationOptions } from "../../src/verify/verification-plan.js";

const SMALL: VerificationOptions = { maxItemsPerEntity: 100, maxItemsPerContainer: 800 };
const TIMEOUT = 120_000;

function exampleModel(name: string): Model {
  const loaded = loadModel(readExample(`${name}/expert-model.yaml`), { workload: readExampleWorkload(name) });
  if (!loaded.ok) throw new Error(`${name}: ${JSON.stringify(loaded.issues)}`);
  return loaded.value;
}

function only<K extends ProbeOutcome["probe"]>(
  probes: readonly ProbeOutcome[],
  kind: K,
): Extract<ProbeOutcome, { probe: K }>[] {
  return probes.filter((probe): probe is Extract<ProbeOutcome, { probe: K }> => probe.probe === kind);
}

for (const target of TEST_ENDPOINTS) {
  describe.skipIf(target.skip !== undefined)(`verify's probes on ${endpointTitle(target)}`, () => {
    let endpoint: CosmosEndpoint;
    beforeAll(async () => {
      endpoint = await target.open();
    }, 60_000);
    afterAll(async () => {
      await endpoint?.close();
    });

    it(
      "blogging: likes and comments counted exactly while the post is edited; every feed page once from one replica",
      async () => {
        const report = await verifyOnEndpoint(
          endpoint,
          readExampleWorkload("blogging"),
          exampleModel("blogging"),
          SMALL,
        );
        const counters = only(report.probes, "concurrentCounter");
        expect(counters.map((c) => `${c.counter.holder.itemType}.${c.counter.property}`).sort()).toEqual([
          "post.commentCount",
          "post.likeCount",
        ]);
        for (const counter of counters) {
          expect(counter).toMatchObject({
            status: "passed",
            children: CONCURRENT_WRITES,
            edits: CONCURRENT_WRITES,
            failedWrites: 0,
            expected: CONCURRENT_WRITES,
          });
          expect(counter.counted.length).toBeGreaterThan(0);
          expect(new Set(counter.counted)).toEqual(new Set([CONCURRENT_WRITES]));
        }
        // Q6 reads one of 4 feed replicas: its later pages must come from the same one.
        const q6 = only(report.probes, "paging").find((p) => p.patternId === "Q6");
        expect(q6).toMatchObject({ status: "passed" });
        expect(q6?.pages).toBeGreaterThanOrEqual(4);
        expect(q6?.items).toBe(q6?.expected);
        expect(q6?.distinct).toBe(q6?.expected);
        expect(report.probeCounts.failed).toBe(0);
        expect(report.ok).toBe(true);
      },
      TIMEOUT,
    );

    it.each([
      ["all versions and deletes", false],
      ["soft delete: the restored reaction is written over its tombstone", true],
    ])(
      "social-reactions (%s): a reaction created, changed, removed and restored reads 1, 1, 0, 1; the feed restart needs a real account",
      async (_, soft) => {
        const { deletes: _deletes, ...softDelete } = exampleModel("social-reactions");
        const model = soft ? (softDelete as Model) : exampleModel("social-reactions");
        const report = await verifyOnEndpoint(
          endpoint,
          readExampleWorkload("social-reactions"),
          model,
          SMALL,
        );
        const [lifecycle] = only(report.probes, "childLifecycle");
        expect(lifecycle).toMatchObject({
          status: "passed",
          steps: ["created", "changed", "removed", "restored"],
          expected: [1, 1, 0, 1],
          counted: [1, 1, 0, 1],
        });
        const [restart] = only(report.probes, "feedRestart");
        if (endpoint.capabilities.changeFeed) {
          expect(restart).toMatchObject({ status: "passed", failuresInjected: 1, counted: 2 });
        } else {
          expect(restart).toMatchObject({ status: "notCheckable", detail: REAL_ACCOUNT_PROBES.feedRestart });
        }
        expect(report.ok).toBe(true);
      },
      TIMEOUT,
    );

    it(
      "a copy of the reaction kept from the change feed carries its change, goes with its removal and comes back",
      async () => {
        const workload = readExampleWorkload("social-reactions");
        // Soft deletes: the tombstone carries the userId that addresses the copy.
        const text = `${readExample("social-reactions/expert-model.yaml").replace(/^deletes: .*$/m, "")}
  - name: userReactions
    partitionKey: [/userId]
    items:
      - { type: reaction, entity: Reaction, id: "{postId}", partitionKey: ["{userId}"], source: reactions/reaction }
`;
        const loaded = loadModel(text, { workload });
        if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
        const report = await verifyOnEndpoint(endpoint, workload, loaded.value, SMALL);
        const [lifecycle] = only(report.probes, "childLifecycle");
        expect(lifecycle).toMatchObject({
          status: "passed",
          counted: [1, 1, 0, 1],
          copies: [{ copy: { container: "userReactions", itemType: "reaction" }, found: [1, 1, 0, 1] }],
        });
        // The copies' upserts dropped on purpose: the probe says so.
        const dropped = await verifyOnEndpoint(endpoint, workload, loaded.value, {
          ...SMALL,
          fault: "drop-copy",
        });
        const [broken] = only(dropped.probes, "childLifecycle");
        expect(broken?.status).toBe("failed");
        expect(broken?.detail).toContain("userReactions/reaction holds 0 copies");
      },
      TIMEOUT,
    );

    it(
      "fails the counter probe when counter increments are dropped on purpose",
      async () => {
        const report = await verifyOnEndpoint(
          endpoint,
          readExampleWorkload("blogging"),
          exampleModel("blogging"),
          {
            ...SMALL,
            fault: "drop-counter",
          },
        );
        const counters = only(report.probes, "concurrentCounter");
        expect(counters.length).toBe(2);
        for (const counter of counters) {
          expect(counter.status).toBe("failed");
          expect(counter.counted.every((value) => value !== CONCURRENT_WRITES)).toBe(true);
          expect(counter.detail).toMatch(/the counter reads .* \(expected 20\)/);
        }
        expect(report.ok).toBe(false);
      },
      TIMEOUT,
    );
  });
}
