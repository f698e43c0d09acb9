/**
 * Composite keys end to end (issue 24, "ids that are not unique"): a link entity
 * `FilmActor key [filmId, actorId]` read as "a film's actors" and "an actor's films", and a child
 * of a link (`Grade` of an `Enrollment [studentId, courseId]`, via both). The design's ids use the
 * whole key, its reads and writes pass verify on the embedded endpoint (patterns and probes), and
 * the id of issue 24 (`{filmId}` alone) is refuted by verify: the actors of one film collide.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatIssue } from "../../src/common/issues.js";
import { evaluateModel } from "../../src/cost/evaluate.js";
import { designModel } from "../../src/design/design-model.js";
import { loadModel } from "../../src/model/load-model.js";
import { templateAttributes } from "../../src/model/templates.js";
import { serializeModel } from "../../src/model/serialize-model.js";
import type { Model } from "../../src/model/types.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "../../src/verify/endpoint.js";
import { verifyOnEndpoint, type VerificationReport } from "../../src/verify/run-verification.js";
import { loadWorkload } from "../../src/workload/load-workload.js";
import type { Workload } from "../../src/workload/types.js";

const DIR = new URL("../fixtures/composite-keys/", import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, DIR), "utf8");

function workloadOf(name: string): Workload {
  const loaded = loadWorkload(read(name), { file: name });
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  return loaded.value;
}

/** The designed model, written and loaded back (what `design --out` then `verify` do). */
function designed(workload: Workload): Model {
  const loaded = loadModel(serializeModel(designModel(workload).model), { file: "model.yaml", workload });
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  return loaded.value;
}

function failures(report: VerificationReport): string[] {
  return [
    ...(report.load.status === "failed" ? [`load: ${report.load.detail ?? ""}`] : []),
    ...report.patterns.filter((p) => p.status === "failed").map((p) => p.detail ?? p.patternId),
    ...report.probes.filter((p) => p.status === "failed").map((p) => `${p.probe}: ${p.detail ?? ""}`),
  ];
}

const SMALL = { maxItemsPerEntity: 200, maxItemsPerContainer: 1000, requestsPerPattern: 2 };

describe("a link entity with a composite key (FilmActor [filmId, actorId])", () => {
  const workload = workloadOf("film-actor.yaml");
  const model = designed(workload);
  let endpoint: CosmosEndpoint;
  beforeAll(async () => {
    endpoint = await startEmbeddedEndpoint();
  });
  afterAll(async () => {
    await endpoint?.close();
  });

  it("every FilmActor item type is addressed by both key attributes, its id by the whole key", () => {
    const items = model.containers
      .flatMap((container) => container.items)
      .filter((i) => i.entity === "FilmActor");
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(templateAttributes(item.id)).toEqual(expect.arrayContaining(["filmId", "actorId"]));
    }
  });

  it("an equality on both key attributes is one record, read with a point read; a film's actors are about 7", () => {
    const evaluation = evaluateModel(workload, model);
    expect(evaluation.issues.filter((issue) => issue.severity === "error").map(formatIssue)).toEqual([]);
    const plan = (id: string) => evaluation.patterns.find((p) => p.plan.patternId === id)?.plan;
    expect(plan("Q3")?.type === "read" && plan("Q3")?.kind).toBe("pointRead");
    const q1 = plan("Q1");
    const first = q1?.operations[0];
    expect(first?.kind === "query" && first.returned).toBeGreaterThan(5);
    expect(first?.kind === "query" && first.returned).toBeLessThan(9);
  });

  it("the design passes verify: reads, writes (create, delete, patch of a link) and probes", async () => {
    const report = await verifyOnEndpoint(endpoint, workload, model, SMALL);
    expect(failures(report)).toEqual([]);
    expect(report.patterns.map((p) => p.status)).not.toContain("notCheckable");
    expect(report.probes.some((p) => p.probe === "concurrentCounter" && p.status === "passed")).toBe(true);
  }, 120_000);

  it("the id of issue 24 ({filmId} alone) is refuted: links refused as duplicates, a film's actors lost", async () => {
    const loaded = loadModel(read("film-actor-model-film-id.yaml"), { file: "model.yaml", workload });
    if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
    const report = await verifyOnEndpoint(endpoint, workload, loaded.value, SMALL);
    expect(report.load.status).toBe("failed");
    expect(report.load.detail).toContain("refused as duplicates (409)");
    expect(report.patterns.find((p) => p.patternId === "Q1")?.status).toBe("failed");
  }, 120_000);
});

describe("a child of a link (Grade via [studentId, courseId])", () => {
  const workload = workloadOf("enrollment.yaml");
  const model = designed(workload);
  let endpoint: CosmosEndpoint;
  beforeAll(async () => {
    endpoint = await startEmbeddedEndpoint();
  });
  afterAll(async () => {
    await endpoint?.close();
  });

  it("the relationship's via holds the enrollment's whole key, in its order", () => {
    expect(workload.relationships.find((r) => r.child === "Grade")?.via).toEqual(["studentId", "courseId"]);
    const enrollment = model.containers.flatMap((c) => c.items).find((i) => i.entity === "Enrollment");
    expect(templateAttributes(enrollment?.id ?? "")).toEqual(
      expect.arrayContaining(["studentId", "courseId"]),
    );
  });

  it("the design passes verify: counters, newest children, sums and the parent's attribute through both attributes", async () => {
    const evaluation = evaluateModel(workload, model);
    expect(evaluation.issues.filter((issue) => issue.severity === "error").map(formatIssue)).toEqual([]);
    const report = await verifyOnEndpoint(endpoint, workload, model, SMALL);
    expect(failures(report)).toEqual([]);
    expect(report.patterns.filter((p) => p.status === "passed").length).toBe(workload.accessPatterns.length);
  }, 120_000);
});
