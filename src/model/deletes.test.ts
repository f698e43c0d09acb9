import { describe, expect, it } from "vitest";
import { loadExample } from "../test-support/evaluate-fixtures.js";
import { loadWriteFixture } from "../test-support/generated-module.js";
import type { Workload } from "../workload/types.js";
import {
  attributesOfDeleteEvent,
  DEFAULT_DELETE_PROPAGATION,
  deleteCarriersOf,
  deletePropagationOf,
  needsContinuousBackup,
  untraceableDeletes,
} from "./deletes.js";
import { loadModel } from "./load-model.js";
import { serializeModel } from "./serialize-model.js";
import type { Model } from "./types.js";

const MODEL = `version: 1
containers:
  - name: users
    partitionKey: [/userId]
    items:
      - { type: user, entity: User, id: "{userId}", partitionKey: ["{userId}"] }
`;

function withDeletes(deletes: string): string {
  return MODEL.replace("version: 1\n", `version: 1\ndeletes: ${deletes}\n`);
}

describe("the model's deletes", () => {
  it("default to soft delete with a 7-day deleted tombstone, and say when continuous backup is needed", () => {
    const loaded = loadModel(MODEL);
    expect(loaded.ok && loaded.value.deletes).toBe(undefined);
    if (!loaded.ok) return;
    expect(deletePropagationOf(loaded.value)).toEqual({
      mode: "softDelete",
      property: "deleted",
      ttlSeconds: 604_800,
    });
    expect(needsContinuousBackup(loaded.value)).toBe(false);
    const avad = loadModel(withDeletes("{ mode: allVersionsAndDeletes, retention: 30d }"));
    expect(avad.ok && avad.value.deletes).toEqual({ mode: "allVersionsAndDeletes", retentionDays: 30 });
    expect(avad.ok && needsContinuousBackup(avad.value)).toBe(true);
  });

  it("read ttl as seconds or a duration and write it back", () => {
    for (const [text, seconds] of [
      ["12h", 43_200],
      ["86400", 86_400],
    ] as const) {
      const loaded = loadModel(withDeletes(`{ mode: softDelete, property: gone, ttl: ${text} }`));
      expect(loaded.ok && loaded.value.deletes).toEqual({
        mode: "softDelete",
        property: "gone",
        ttlSeconds: seconds,
      });
      if (!loaded.ok) continue;
      const again = loadModel(serializeModel(loaded.value));
      expect(again.ok && again.value).toEqual(loaded.value);
    }
    const avad = loadModel(withDeletes("{ mode: allVersionsAndDeletes }"));
    expect(avad.ok && serializeModel(avad.value)).toContain(
      "deletes: { mode: allVersionsAndDeletes, retention: 7d }",
    );
  });

  it("refuse a bad ttl, a retention that is no backup tier, fields of the other mode and a taken property", () => {
    const cases: [string, string, string][] = [
      ["{ mode: softDelete, ttl: 0 }", "model.invalidValue", "deletes.ttl"],
      ["{ mode: softDelete, ttl: 3w }", "model.invalidValue", "deletes.ttl"],
      ["{ mode: allVersionsAndDeletes, retention: 14d }", "model.invalidValue", "deletes.retention"],
      ["{ mode: allVersionsAndDeletes, ttl: 1d }", "model.invalidValue", "deletes.ttl"],
      ["{ mode: softDelete, retention: 7d }", "model.invalidValue", "deletes.retention"],
      ["{ mode: softDelete, property: userId }", "model.duplicateProperty", "deletes.property"],
      ["{ mode: softDelete, property: ttl }", "model.duplicateProperty", "deletes.property"],
      ["{ mode: hardDelete }", "model.invalidValue", "deletes.mode"],
      ["{ mode: softDelete, tll: 1d }", "model.unknownField", "deletes"],
    ];
    for (const [deletes, code, path] of cases) {
      const loaded = loadModel(withDeletes(deletes), { file: "m.yaml" });
      expect(loaded.ok, deletes).toBe(false);
      const issue = loaded.issues.find((i) => i.code === code);
      expect(issue, `${deletes}: ${JSON.stringify(loaded.issues)}`).toBeDefined();
      expect(formatPathOf(issue?.path ?? []), deletes).toContain(path);
      expect(issue?.line, deletes).toBe(2);
    }
  });
});

function formatPathOf(path: readonly (string | number)[]): string {
  return path.join(".");
}

describe("deleteCarriersOf", () => {
  it("finds the reactions of the social example: removed by C4 and counted on their post in another container", () => {
    const { workload, model } = loadExample("social-reactions");
    expect(deleteCarriersOf(workload, model)).toEqual([
      {
        container: "reactions",
        itemType: "reaction",
        entity: "Reaction",
        targets: [{ kind: "counter", container: "posts", itemType: "post", property: "reactionCount" }],
      },
    ]);
  });

  it("leaves out children counted in their parent's partition (a transactional batch) and entities never removed", () => {
    const { workload, model } = loadExample("blogging");
    // Posts have copies but no write removes a post; comments and likes share the post's partition.
    expect(deleteCarriersOf(workload, model)).toEqual([]);
    const removing: Workload = {
      ...workload,
      accessPatterns: [
        ...workload.accessPatterns,
        { ...deletePattern(workload, "Post"), id: "CX" },
        { ...deletePattern(workload, "Like"), id: "CY" },
      ],
    };
    expect(deleteCarriersOf(removing, model).map((c) => [c.container, c.itemType, c.targets.length])).toEqual(
      [["posts", "post", 2]],
    );
  });
});

describe("deleteCarriersOf, a parent whose children copy its attributes (parentdel)", () => {
  it("carries an account's deletes to its orders' copy, found by the account key (traceable from a delete event)", () => {
    const { workload, model } = loadWriteFixture("parentdel");
    expect(deleteCarriersOf(workload, model)).toEqual([
      {
        container: "accounts",
        itemType: "account",
        entity: "Account",
        targets: [
          { kind: "parentCopy", container: "orders", itemType: "order", property: "accountPriority" },
        ],
      },
    ]);
    // account-{accountId} gives the key back: all versions and deletes can find the orders.
    const avad: Model = { ...model, deletes: { mode: "allVersionsAndDeletes", retentionDays: 7 } };
    expect(untraceableDeletes(workload, avad)).toEqual([]);
    // Without the delete pattern the account is no carrier (updates propagate without tombstones).
    const noDelete: Workload = {
      ...workload,
      accessPatterns: workload.accessPatterns.filter((p) => p.id !== "W1"),
    };
    expect(deleteCarriersOf(noDelete, model)).toEqual([]);
  });
});

/** A delete pattern on `entity`, shaped like the workload's first write pattern. */
function deletePattern(workload: Workload, entity: string) {
  const write = workload.accessPatterns.find((p) => p.type === "write");
  if (write?.type !== "write") throw new Error("the workload has no write pattern");
  return { ...write, entity, operation: "delete" as const, name: `remove a ${entity}` };
}

describe("untraceableDeletes", () => {
  it("reads a reaction's post back from its partition key ({postId}-{shard}), so its counter is traceable", () => {
    const { workload, model } = loadExample("social-reactions");
    const avad: Model = { ...model, deletes: { mode: "allVersionsAndDeletes", retentionDays: 7 } };
    expect(attributesOfDeleteEvent({ id: "{postId}-{userId}", partitionKey: ["{postId}-{shard}"] })).toEqual([
      "postId",
    ]);
    expect(untraceableDeletes(workload, avad)).toEqual([]);
  });

  it("names a copy keyed by what the deleted item's id and key do not give, and the loader refuses it", () => {
    const { workload, model } = loadExample("blogging");
    const removing: Workload = {
      ...workload,
      accessPatterns: [...workload.accessPatterns, { ...deletePattern(workload, "Post"), id: "CX" }],
    };
    const avad: Model = { ...model, deletes: { mode: "allVersionsAndDeletes", retentionDays: 7 } };
    // The feed copy is keyed by {postId} and a replica; the users copy needs the post's userId.
    expect(untraceableDeletes(removing, avad)).toEqual([
      {
        container: "posts",
        itemType: "post",
        target: { kind: "copy", container: "users", itemType: "post" },
        missing: ["userId"],
      },
    ]);
    expect(untraceableDeletes(removing, model)).toEqual([]);
    const loaded = loadModel(serializeModel(avad), { workload: removing });
    expect(loaded.ok).toBe(false);
    expect(loaded.issues.filter((i) => i.code === "model.deleteNotTraceable")).toMatchObject([
      { target: "users/post", missing: ["userId"], path: ["deletes", "mode"], line: 2 },
    ]);
  });

  it("uses the defaults of soft delete when the model names none", () => {
    expect(DEFAULT_DELETE_PROPAGATION).toEqual({
      mode: "softDelete",
      property: "deleted",
      ttlSeconds: 604_800,
    });
  });
});
