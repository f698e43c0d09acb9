/**
 * Ids and partition key values Cosmos DB cannot store or address are refused with `badKey`,
 * naming the attribute that made them so; the runtime's limits are the design checks' limits.
 */
import { describe, expect, it } from "vitest";
import { DataAccessError } from "./errors.js";
import { itemKeyOf, materializeItem, type ItemTypeShape } from "./items.js";
import { idProblem, partitionKeyProblem } from "./key-limits.js";
import { renderItemId, renderPartitionKeyValue } from "./templates.js";

const comment: ItemTypeShape = {
  container: "posts",
  type: "comment",
  entity: "Comment",
  id: "comment-{postId}-{commentId}",
  partitionKey: ["{postId}"],
  keyPaths: ["/postId"],
  truncate: [],
  embeds: [],
  copies: [],
  counts: [],
};

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("key limits", () => {
  it("refuse the ids Cosmos DB cannot address and accept the others", () => {
    for (const id of ["a/b", "a\\b", "a#b", "a?b", "ends ", "", "é".repeat(512)])
      expect(idProblem(id)).toBeDefined();
    for (const id of ["a-b", "a b", "a%2Fb", "é".repeat(511), "x".repeat(1023), "ünïcödé"]) {
      expect(idProblem(id)).toBeUndefined();
    }
    expect(partitionKeyProblem("x".repeat(2048))).toBeUndefined();
    expect(partitionKeyProblem("x".repeat(2049))).toBeDefined();
    expect(partitionKeyProblem(12)).toBeUndefined();
  });

  it("name the attribute whose value makes an id unusable", () => {
    const error = thrown(() =>
      renderItemId(comment.id, { attributes: { postId: "p1", commentId: "2024/05" } }),
    );
    expect(error).toBeInstanceOf(DataAccessError);
    expect(error).toMatchObject({
      code: "badKey",
      context: { attribute: "commentId", value: "2024/05", id: "comment-p1-2024/05" },
    });
    expect((error as Error).message).toContain("{commentId}");
    expect(thrown(() => renderItemId("{name}", { attributes: { name: "Ann " } }))).toMatchObject({
      code: "badKey",
      context: { attribute: "name" },
    });
    expect(
      thrown(() => renderPartitionKeyValue("{postId}", { attributes: { postId: "p".repeat(3000) } })),
    ).toMatchObject({ code: "badKey", context: { template: "{postId}" } });
  });

  it("are checked when an item is made or addressed, so a write never stores what no read finds", () => {
    const record = { postId: "p1", commentId: "a#1" };
    expect(thrown(() => materializeItem(comment, record))).toMatchObject({ code: "badKey" });
    expect(thrown(() => itemKeyOf(comment, record))).toMatchObject({ code: "badKey" });
    // A partition key value may hold "/": only ids may not.
    const byComment = { ...comment, id: "comment-{commentId}" };
    expect(materializeItem(byComment, { postId: "a/b", commentId: "1" })).toMatchObject({
      id: "comment-1",
      postId: "a/b",
    });
  });
});
