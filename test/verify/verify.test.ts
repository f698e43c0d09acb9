/**
 * `verify` end to end on the embedded endpoint (and on a real account when COSMOS_ENDPOINT and
 * COSMOS_KEY, or COSMOS_CONNECTION_STRING, are set): the designed blogging model and every shared
 * example's expert model pass; a feed that keeps 10 posts while Q6 asks for 100 fails naming Q6;
 * a counter increment or a copy update dropped on purpose fails naming the patterns that read it;
 * the database is removed afterwards unless kept; charges are reported as measured only on a
 * real endpoint.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../../src/model/load-model.js";
import type { Model } from "../../src/model/types.js";
import { designedExample } from "../../src/test-support/designed-examples.js";
import { EXAMPLE_NAMES, readExample, readExampleWorkload } from "../../src/test-support/model-examples.js";
import {
  connectRealEndpoint,
  realEndpointOptionsFrom,
  startEmbeddedEndpoint,
  type CosmosEndpoint,
} from "../../src/verify/endpoint.js";
import { formatVerificationReport, RU_NOT_MEASURED_EMBEDDED } from "../../src/verify/format-report.js";
import { verifyOnEndpoint, type VerificationReport } from "../../src/verify/run-verification.js";
import type { VerificationOptions } from "../../src/verify/verification-plan.js";
import type { Workload } from "../../src/workload/types.js";

/** Small data: a few hundred records per entity, at most 1,500 items per container. */
const SMALL: VerificationOptions = { maxItemsPerEntity: 300, maxItemsPerContainer: 1500 };
const SMALLER: VerificationOptions = { maxItemsPerEntity: 120, maxItemsPerContainer: 600 };
const TIMEOUT = 90_000;

function exampleModel(name: string, file = "expert-model.yaml", workload = readExampleWorkload(name)): Model {
  const loaded = loadModel(readExample(`${name}/${file}`), { file, workload });
  if (!loaded.ok) throw new Error(`${name}/${file}: ${JSON.stringify(loaded.issues)}`);
  return loaded.value;
}

function fixtureModel(file: string, workload: Workload): Model {
  const loaded = loadModel(readFileSync(new URL(`../fixtures/verify/${file}`, import.meta.url), "utf8"), {
    file,
    workload,
  });
  if (!loaded.ok) throw new Error(`${file}: ${JSON.stringify(loaded.issues)}`);
  return loaded.value;
}

const byStatus = (report: VerificationReport, status: string): string[] =>
  report.patterns.filter((p) => p.status === status).map((p) => p.patternId);

const realOptions = (() => {
  try {
    return realEndpointOptionsFrom(undefined, process.env);
  } catch {
    return undefined;
  }
})();
const targets: { name: string; skip?: string; open: () => Promise<CosmosEndpoint> }[] = [
  { name: "embedded", open: () => startEmbeddedEndpoint() },
  {
    name: "real account",
    ...(realOptions === undefined ? { skip: "COSMOS_ENDPOINT and COSMOS_KEY are not set" } : {}),
    open: () => connectRealEndpoint(realOptions ?? { endpoint: "", key: "" }),
  },
];

for (const target of targets) {
  describe.skipIf(target.skip !== undefined)(`verify on the ${target.name} endpoint`, () => {
    let endpoint: CosmosEndpoint;
    beforeAll(async () => {
      endpoint = await target.open();
    });
    afterAll(async () => {
      await endpoint?.close();
    });

    it(
      "passes for the designed blogging model, and removes its database",
      async () => {
        const { workload, design } = designedExample("blogging");
        const report = await verifyOnEndpoint(endpoint, workload, design.model, SMALL);
        expect(report.patterns.filter((p) => p.status === "failed")).toEqual([]);
        expect(report.ok).toBe(true);
        expect(report.counts.passed).toBe(workload.accessPatterns.length);
        const { resources } = await endpoint.client.databases.readAll().fetchAll();
        expect(resources.map((database) => database.id)).not.toContain(report.databaseId);
      },
      TIMEOUT,
    );

    const passing = EXAMPLE_NAMES.filter((name) => name !== "iot-telemetry");
    it.each(passing)(
      "passes for the %s expert model",
      async (name) => {
        const workload = readExampleWorkload(name);
        const report = await verifyOnEndpoint(endpoint, workload, exampleModel(name), SMALL);
        expect(report.patterns.filter((p) => p.status === "failed")).toEqual([]);
        expect(report.load.status).toBe("passed");
        expect(report.ok).toBe(true);
        // Every pattern is accounted for; those that cannot run here say why.
        expect(report.patterns.map((p) => p.patternId)).toEqual(workload.accessPatterns.map((p) => p.id));
        for (const outcome of report.patterns.filter((p) => p.status === "notCheckable")) {
          expect(outcome.detail ?? "").not.toBe("");
        }
        // No read passed vacuously: each compared results the oracle expected.
        for (const outcome of report.patterns.filter((p) => p.type === "read" && p.status === "passed")) {
          expect(outcome.results, outcome.patternId).toBeGreaterThan(0);
        }
        expect(report.counts.passed).toBeGreaterThan(0);
      },
      TIMEOUT,
    );

    // Ranges over bucketed readings: the lower bound is aligned to the start of the bucket that
    // holds it (a bucket item's timestamp is its window's start).
    it(
      "passes for the iot-telemetry expert model, ranges over bucketed readings included",
      async () => {
        const workload = readExampleWorkload("iot-telemetry");
        const report = await verifyOnEndpoint(endpoint, workload, exampleModel("iot-telemetry"), SMALL);
        expect(report.patterns.filter((p) => p.status === "failed")).toEqual([]);
      },
      TIMEOUT,
    );

    // The designed and the naive (baseline) model of every example: the naive ones answer with
    // follow-up reads and fan-outs, exercising the answer assembly. iot-telemetry's designed
    // model buckets readings like the expert one.
    // (The designed blogging model has its own test above.)
    it.each(
      EXAMPLE_NAMES.flatMap((name) => [[name, "designed"] as const, [name, "baseline"] as const]).filter(
        ([name, kind]) => name !== "blogging" || kind !== "designed",
      ),
    )(
      "passes for the %s %s model",
      async (name, kind) => {
        // Designed once per process (src/test-support/designed-examples.ts).
        const { workload, design } = designedExample(name, { baseline: kind === "baseline" });
        const model = design.model;
        // The naive models answer by fan-outs over every item: fewer of them keep the test short.
        const report = await verifyOnEndpoint(
          endpoint,
          workload,
          model,
          kind === "baseline" ? SMALLER : SMALL,
        );
        expect(byStatus(report, "failed")).toEqual([]);
        expect(report.load.status).toBe("passed");
        for (const outcome of report.patterns.filter((p) => p.type === "read" && p.status === "passed")) {
          expect(outcome.results, outcome.patternId).toBeGreaterThan(0);
        }
      },
      TIMEOUT,
    );

    it(
      "answers Q6 from the posts when the feed keeps 10 while Q6 asks for the 100 most recent (evaluate warns)",
      async () => {
        // The set cannot serve Q6, so the plan reads users/post: the answers are right, the set's
        // size is evaluate's warning (evaluate.boundedSetTooSmall), not a refutation.
        const workload = readExampleWorkload("blogging");
        const model = fixtureModel("blogging-feed-keeps-10.yaml", workload);
        const report = await verifyOnEndpoint(endpoint, workload, model, SMALL);
        expect(byStatus(report, "failed")).toEqual([]);
        const q6 = report.patterns.find((p) => p.patternId === "Q6");
        expect(q6?.status).toBe("passed");
        expect(q6?.results).toBeGreaterThan(0);
      },
      TIMEOUT,
    );

    it(
      "says which checks the endpoint could not run when ids are unique only within the full hierarchical key",
      async () => {
        const workload = readExampleWorkload("multitenant-saas");
        const model = fixtureModel("multitenant-session-id-per-user.yaml", workload);
        const report = await verifyOnEndpoint(endpoint, workload, model, SMALL);
        expect(byStatus(report, "failed")).toEqual([]);
        expect(report.load.status).toBe("passed");
        if (endpoint.capabilities.hierarchicalKeysFull) {
          expect(byStatus(report, "notCheckable")).toEqual([]);
          return;
        }
        // The activity container (sessions and events) could not hold every session: its reads,
        // and the session create that collided, are not checkable here; the directory's are.
        const skipped = report.patterns.filter((p) => p.status === "notCheckable");
        expect(skipped.map((p) => p.patternId).sort()).toEqual(["C3", "Q4", "Q5", "Q6"]);
        for (const outcome of skipped) {
          expect(outcome.detail).toMatch(/^container activity .*first partition key level/);
        }
        expect(byStatus(report, "passed")).toEqual(expect.arrayContaining(["Q1", "Q2", "Q3"]));
        expect(formatVerificationReport(report, workload.name)).toMatch(/^Q4\s+read\s+not checkable here/m);
      },
      TIMEOUT,
    );

    describe("with a fault injected into the maintenance", () => {
      const workload = readExampleWorkload("blogging");
      const model = exampleModel("blogging");

      it(
        "fails naming the patterns that read counters when a counter increment is dropped",
        async () => {
          const report = await verifyOnEndpoint(endpoint, workload, model, {
            ...SMALL,
            fault: "drop-counter",
          });
          expect(report.ok).toBe(false);
          const failed = report.patterns.filter((p) => p.status === "failed");
          // Q2 returns the post with its comment and like counters.
          expect(failed.map((p) => p.patternId)).toContain("Q2");
          for (const outcome of failed) {
            expect(outcome.detail).toMatch(new RegExp(`^${outcome.patternId}: .*count\\((Comment|Like)\\)`));
          }
          // The writes themselves ran; the reads caught the stale counters.
          expect(report.patterns.filter((p) => p.type === "write").every((p) => p.status === "passed")).toBe(
            true,
          );
        },
        TIMEOUT,
      );

      it(
        "fails naming the patterns that read copies when the copy updates are dropped",
        async () => {
          const report = await verifyOnEndpoint(endpoint, workload, model, { ...SMALL, fault: "drop-copy" });
          expect(report.ok).toBe(false);
          const failed = byStatus(report, "failed");
          // Q6 reads the feed's copies of posts, kept only by the change-feed handlers.
          expect(failed).toContain("Q6");
          expect(failed.every((id) => id.startsWith("Q"))).toBe(true);
        },
        TIMEOUT,
      );

      it(
        "fails naming the write whose change feed trims the feed when the trimming deletes are dropped",
        async () => {
          const report = await verifyOnEndpoint(endpoint, workload, model, { ...SMALL, fault: "drop-trim" });
          expect(report.ok).toBe(false);
          // C2 (a new post) copies the post into the feed, which keeps the newest 100 per replica.
          const c2 = report.patterns.find((p) => p.patternId === "C2");
          expect(c2?.status).toBe("failed");
          expect(c2?.detail).toMatch(
            /^C2: feed\/post holds 10\d items in logical partition \["post-\d"\] after the writes, more than its keepLatest 100/,
          );
        },
        TIMEOUT,
      );
    });

    // Every expert model whose items keep counters (copies) must notice a dropped increment
    // (copy update): each example's writes reach data that its reads return.
    // The blogging faults have their own tests above.
    const maintained = EXAMPLE_NAMES.filter((name) => name !== "blogging").flatMap((name) => {
      const items = exampleModel(name).containers.flatMap((container) => container.items);
      return [
        ...(items.some((item) => item.counts.length > 0) ? [[name, "drop-counter"] as const] : []),
        ...(items.some((item) => item.copies.length > 0) ? [[name, "drop-copy"] as const] : []),
      ];
    });
    it.each(maintained)(
      "fails the %s expert model naming read patterns when the maintenance is sabotaged (%s)",
      async (name, fault) => {
        const workload = readExampleWorkload(name);
        const report = await verifyOnEndpoint(endpoint, workload, exampleModel(name), { ...SMALL, fault });
        const failed = report.patterns.filter((p) => p.status === "failed");
        expect(failed.length).toBeGreaterThan(0);
        // Only reads notice (the writes themselves succeed); each failure names its pattern.
        for (const outcome of failed) {
          expect(outcome.type).toBe("read");
          expect(outcome.detail?.startsWith(`${outcome.patternId}: `)).toBe(true);
        }
      },
      TIMEOUT,
    );

    it(
      "keeps the database with keep, and reports charges as measured only on a real endpoint",
      async () => {
        const workload = readExampleWorkload("social-reactions");
        const report = await verifyOnEndpoint(endpoint, workload, exampleModel("social-reactions"), {
          ...SMALL,
          keep: true,
        });
        try {
          expect(report.kept).toBe(true);
          const { resources } = await endpoint.client.databases.readAll().fetchAll();
          expect(resources.map((database) => database.id)).toContain(report.databaseId);
          const text = formatVerificationReport(report, workload.name);
          const ran = report.patterns.filter((p) => p.latencyMs !== undefined);
          expect(ran.length).toBeGreaterThan(0);
          if (endpoint.kind === "embedded") {
            expect(ran.every((p) => p.measuredRu === undefined)).toBe(true);
            expect(text).toContain(RU_NOT_MEASURED_EMBEDDED);
            expect(report.limitations.map((l) => l.capability)).toContain("measuresRequestCharge");
          } else {
            expect(ran.every((p) => (p.measuredRu ?? 0) > 0)).toBe(true);
            expect(text).not.toContain(RU_NOT_MEASURED_EMBEDDED);
          }
        } finally {
          await endpoint.client.database(report.databaseId).delete();
        }
      },
      TIMEOUT,
    );
  });
}
