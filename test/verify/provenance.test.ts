/**
 * Identity by provenance, never by name (issue 24): `Post.userId` is the author and `Like.userId`
 * the liker. Each model of test/fixtures/soundness/social-likes is judged by both views: what
 * `evaluate` refuses, `verify` refutes on the embedded endpoint, and what it accepts passes
 * verify (patterns and probes); the design of the workload is one it accepts.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatIssue } from "../../src/common/issues.js";
import { evaluateModel } from "../../src/cost/evaluate.js";
import { designModel } from "../../src/design/design-model.js";
import { loadModel } from "../../src/model/load-model.js";
import { serializeModel } from "../../src/model/serialize-model.js";
import type { Model } from "../../src/model/types.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "../../src/verify/endpoint.js";
import { verifyOnEndpoint, type VerificationReport } from "../../src/verify/run-verification.js";
import { loadWorkload } from "../../src/workload/load-workload.js";

const DIR = new URL("../fixtures/soundness/social-likes/", import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, DIR), "utf8");

const loadedWorkload = loadWorkload(read("workload.yaml"), { file: "workload.yaml" });
if (!loadedWorkload.ok) throw new Error(loadedWorkload.issues.map(formatIssue).join("\n"));
const workload = loadedWorkload.value;

function model(text: string): Model {
  const loaded = loadModel(text, { file: "model.yaml", workload });
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  return loaded.value;
}

/** Error codes of the evaluation, with the pattern each is reported at. */
function errors(of: Model): string[] {
  return evaluateModel(workload, of)
    .issues.filter((issue) => issue.severity === "error")
    .map((issue) => `${issue.code}${"pattern" in issue ? ` ${String(issue.pattern)}` : ""}`);
}

/** What failed in a verify run: patterns and probes. */
function failures(report: VerificationReport): string[] {
  return [
    ...report.patterns.filter((p) => p.status === "failed").map((p) => p.patternId),
    ...report.probes.filter((p) => p.status === "failed").map((p) => p.probe),
  ];
}

const SMALL = { maxItemsPerEntity: 200, maxItemsPerContainer: 1000, requestsPerPattern: 2 };

describe("a counter addressed through the relationship, never a same-named attribute", () => {
  let endpoint: CosmosEndpoint;
  beforeAll(async () => {
    endpoint = await startEmbeddedEndpoint();
  });
  afterAll(async () => {
    await endpoint?.close();
  });

  it("a post kept in its author's partition cannot count likes that give only the post's key: evaluate says so, verify agrees", async () => {
    const authorKeyed = model(read("model-author-keyed.yaml"));
    expect(errors(authorKeyed)).toEqual([
      "evaluate.counterNotAddressable C3",
      "evaluate.counterNotAddressable C4",
    ]);
    const issue = evaluateModel(workload, authorKeyed).issues.find(
      (i) => i.code === "evaluate.counterNotAddressable",
    );
    expect(issue).toMatchObject({ holder: "Post", entity: "Like", missing: ["userId"] });
    const report = await verifyOnEndpoint(endpoint, workload, authorKeyed, SMALL);
    expect(failures(report)).toEqual(expect.arrayContaining(["C3", "C4", "concurrentCounter"]));
  }, 90_000);

  it("a like may carry its post's author as a copy: the counter is addressed by it and verify passes", async () => {
    const copyAddressed = model(read("model-copy-addressed.yaml"));
    expect(errors(copyAddressed)).toEqual([]);
    const report = await verifyOnEndpoint(endpoint, workload, copyAddressed, SMALL);
    expect(failures(report)).toEqual([]);
    expect(report.probes.some((p) => p.probe === "concurrentCounter" && p.status === "passed")).toBe(true);
  }, 90_000);

  it("a copy of the author needs posts stored by their key alone to read it from", () => {
    expect(errors(model(read("model-copy-unreadable.yaml")))).toEqual(["evaluate.copySourceUnreadable C3"]);
  });

  it("likes embedded in a post kept in its author's partition cannot be written: the like gives only the post's key", () => {
    expect(errors(model(read("model-embed-author-keyed.yaml")))).toEqual(
      expect.arrayContaining(["evaluate.embedNotAddressable C3", "evaluate.embedNotAddressable C4"]),
    );
  });

  it("the design is a model evaluate accepts and verify confirms", async () => {
    const designed = model(serializeModel(designModel(workload).model));
    expect(errors(designed)).toEqual([]);
    const report = await verifyOnEndpoint(endpoint, workload, designed, SMALL);
    expect(failures(report)).toEqual([]);
  }, 90_000);
});
