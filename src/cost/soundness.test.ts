/**
 * The structural checks of `evaluate` on issue 24's shapes (test/fixtures/soundness/): ids that
 * identify no record, items that expire in a container without TTL, buckets sized on the
 * average (the designs that avoid them: design/design-soundness.test.ts).
 */
import { describe, expect, it } from "vitest";
import type { Model } from "../model/types.js";
import {
  evaluationErrorCodes as errorCodes,
  soundnessFixture as fixture,
} from "../test-support/soundness-fixtures.js";
import { evaluateModel } from "./evaluate.js";

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

  it("accepts the same id once the key is in it", () => {
    const keyed = model("model-pair-id.yaml");
    const withKey: Model = {
      ...keyed,
      containers: keyed.containers.map((c) => ({
        ...c,
        items: c.items.map((i) => ({ ...i, id: "enrollment-{studentId}-{courseId}-{enrollmentId}" })),
      })),
    };
    expect(errorCodes(workload, withKey)).not.toContain("evaluate.idNotUnique");
  });
});

describe("keys Cosmos DB can store", () => {
  const { workload, model } = fixture("long-keys");

  it("refuses a partition key and an id rendered from attributes longer than the service stores", () => {
    const issues = evaluateModel(workload, model("model-keyed-by-permalink.yaml")).issues.filter(
      (i) => i.code === "evaluate.keyTooLong",
    );
    // 1.2 x (3,000 - 2 quotes) = 3,598 > 2,048; "maker-" + 1.2 x 898 = 1,084 > 1,023.
    expect(issues).toMatchObject([
      { container: "films", field: "partitionKey", template: "{permalink}", bytes: 3598, limit: 2048 },
      { container: "makers", field: "id", template: "maker-{code}", bytes: 1084, limit: 1023 },
    ]);
    expect(issues.every((i) => i.severity === "error")).toBe(true);
  });

  it("accepts the same code as a partition key value (1,078 bytes at most, under 2,048)", () => {
    const keyed = model("model-keyed-by-permalink.yaml");
    const byCode: Model = {
      ...keyed,
      containers: keyed.containers.map((c) =>
        c.name !== "makers"
          ? c
          : {
              ...c,
              partitionKey: ["/code"],
              items: c.items.map((i) => ({ ...i, id: "{makerId}", partitionKey: ["{code}"] })),
            },
      ),
    };
    const issues = evaluateModel(workload, byCode).issues.filter((i) => i.code === "evaluate.keyTooLong");
    expect(issues.map((i) => i.path[1])).toEqual(["films"]);
  });
});

describe("TTL where items expire", () => {
  it("refuses soft-delete tombstones in a container without defaultTtl", () => {
    const { workload, model } = fixture("social-likes");
    const withoutTtl: Model = {
      ...model("model-copy-addressed.yaml"),
      containers: model("model-copy-addressed.yaml").containers.map(({ defaultTtl: _ttl, ...c }) => c),
    };
    const issue = evaluateModel(workload, withoutTtl).issues.find((i) => i.code === "evaluate.ttlOff");
    expect(issue).toMatchObject({ container: "likes" });
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
});
