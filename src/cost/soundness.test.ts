/**
 * The structural checks of `evaluate` on issue 24's shapes (test/fixtures/soundness/): ids that
 * identify no record, items that expire in a container without TTL, buckets sized on the
 * average; and the design of each workload avoids them.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatIssue } from "../common/issues.js";
import { designModel } from "../design/design-model.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { evaluateModel } from "./evaluate.js";

const FIXTURES = new URL("../../test/fixtures/soundness/", import.meta.url);

function fixture(folder: string): { workload: Workload; model: (file: string) => Model } {
  const read = (file: string): string => readFileSync(new URL(`${folder}/${file}`, FIXTURES), "utf8");
  const loaded = loadWorkload(read("workload.yaml"), { file: "workload.yaml" });
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  const workload = loaded.value;
  return {
    workload,
    model(file) {
      const result = loadModel(read(file), { file, workload });
      if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
      return result.value;
    },
  };
}

const errorCodes = (workload: Workload, model: Model): string[] =>
  evaluateModel(workload, model)
    .issues.filter((issue) => issue.severity === "error")
    .map((issue) => issue.code);

describe("ids that identify a record", () => {
  const { workload, model } = fixture("enrollments");

  it("refuses an id of two attributes that a read filters on but that identify no enrollment", () => {
    const issues = evaluateModel(workload, model("model-pair-id.yaml")).issues;
    const found = issues.find((issue) => issue.code === "evaluate.idNotUnique");
    expect(found).toMatchObject({
      container: "enrollments",
      itemType: "enrollment",
      entity: "Enrollment",
      attributes: ["studentId", "courseId"],
    });
  });

  it("accepts the same id once the key is in it, and designs an id that identifies the enrollment", () => {
    const keyed = model("model-pair-id.yaml");
    const withKey: Model = {
      ...keyed,
      containers: keyed.containers.map((c) => ({
        ...c,
        items: c.items.map((i) => ({ ...i, id: "enrollment-{studentId}-{courseId}-{enrollmentId}" })),
      })),
    };
    expect(errorCodes(workload, withKey)).not.toContain("evaluate.idNotUnique");
    const designed = designModel(workload).model;
    expect(errorCodes(workload, designed)).toEqual([]);
    for (const item of designed.containers.flatMap((c) => c.items).filter((i) => i.entity === "Enrollment"))
      expect([item.id, ...item.partitionKey].join(" ")).toContain("{enrollmentId}");
  });
});

describe("TTL where items expire", () => {
  it("refuses soft-delete tombstones in a container without defaultTtl, and the design turns TTL on", () => {
    const { workload, model } = fixture("social-likes");
    const withoutTtl: Model = {
      ...model("model-copy-addressed.yaml"),
      containers: model("model-copy-addressed.yaml").containers.map(({ defaultTtl: _ttl, ...c }) => c),
    };
    const issue = evaluateModel(workload, withoutTtl).issues.find((i) => i.code === "evaluate.ttlOff");
    expect(issue).toMatchObject({ container: "likes" });
    const designed = designModel(workload).model;
    expect(errorCodes(workload, designed)).toEqual([]);
  });
});

describe("item sizes at the workload's maxima", () => {
  const { workload, model } = fixture("timeline-buckets");

  it("sizes a daily bucket by the most one owner can write (100,000 entries), not ~5 a day", () => {
    const issue = evaluateModel(workload, model("model-daily-buckets.yaml")).issues.find(
      (i) => i.code === "evaluate.itemTooLarge",
    );
    expect(issue).toMatchObject({ container: "entries", itemType: "day" });
    // 100,000 records of at most 200 bytes: far over 2 MB.
    expect(issue !== undefined && "bytes" in issue ? issue.bytes : 0).toBeGreaterThan(19_000_000);
  });

  it("designs a model without an item over 2 MB at those maxima", () => {
    expect(errorCodes(workload, designModel(workload).model)).toEqual([]);
  });
});
