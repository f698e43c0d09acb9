import { describe, expect, it } from "vitest";
import { parseModel, parseWorkload } from "../test-support/evaluate-fixtures.js";
import { loadExampleModel } from "../test-support/generated-module.js";
import type { Workload, WritePattern } from "../workload/types.js";
import type { Model } from "./types.js";
import { writeInputOf } from "./write-inputs.js";

function inputOf(workload: Workload, model: Model, id: string): ReturnType<typeof writeInputOf> {
  const pattern = workload.accessPatterns.find((p): p is WritePattern => p.id === id && p.type === "write");
  if (pattern === undefined) throw new Error(`no write pattern ${id}`);
  return writeInputOf(workload, model, pattern);
}

const WORKLOAD = `version: 1
name: comments
entities:
  Post: { key: postId, count: 1000, avgBytes: 800, attributes: { postId: string, title: string } }
  Comment: { key: commentId, count: 5000, avgBytes: 300, attributes: { commentId: string, postId: string, text: string } }
  Tag: { key: tagId, count: 50, avgBytes: 100, attributes: { tagId: string, postId: string, label: string } }
relationships:
  - { parent: Post, child: Comment, via: postId, avg: 5, max: 20 }
  - { parent: Post, child: Tag, via: postId, avg: 2, max: 5 }
accessPatterns:
  - { id: C1, name: write post, type: write, operation: create, entity: Post, rps: { avg: 1, peak: 2 } }
  - { id: C2, name: write comment, type: write, operation: create, entity: Comment, rps: { avg: 20, peak: 40 } }
  - { id: W1, name: edit comment, type: write, operation: patch, entity: Comment, changes: [text], rps: { avg: 2, peak: 4 } }
  - { id: D1, name: remove comment, type: write, operation: delete, entity: Comment, rps: { avg: 1, peak: 2 } }
  - { id: C3, name: tag, type: write, operation: create, entity: Tag, rps: { avg: 5, peak: 10 } }
  - { id: D2, name: untag, type: write, operation: delete, entity: Tag, rps: { avg: 1, peak: 2 } }
  - { id: Q1, name: post, type: read, entity: Post, where: { postId: eq }, with: [all(Comment), all(Tag)], rps: { avg: 50, peak: 100 } }
  - { id: Q2, name: comment, type: read, entity: Comment, where: { commentId: eq }, rps: { avg: 5, peak: 10 } }
`;

const MODEL = `version: 1
containers:
  - name: posts
    partitionKey: [/postId]
    items:
      - type: post
        entity: Post
        id: "{postId}"
        partitionKey: ["{postId}"]
        embeds: [{ entity: Comment, as: comments }, { entity: Tag, as: tags }]
  - name: comments
    partitionKey: [/commentId]
    items:
      - { type: comment, entity: Comment, id: "{commentId}", partitionKey: ["{commentId}"] }
`;

describe("writeInputOf", () => {
  it("a patch takes the key, the address and what it changes; a delete the key and address", () => {
    const shop = loadExampleModel("ecommerce");
    expect(inputOf(shop.workload, shop.model, "C6")).toEqual({
      kind: "partial",
      required: ["productId"],
      optional: ["stock"],
    });
    // The order lives in its customer's partition: the address is part of the input.
    expect(inputOf(shop.workload, shop.model, "C5")).toEqual({
      kind: "partial",
      required: ["orderId", "customerId"],
      optional: ["status"],
    });
    expect(inputOf(shop.workload, shop.model, "C7")).toEqual({ kind: "record" });
    const social = loadExampleModel("social-reactions");
    expect(inputOf(social.workload, social.model, "C4")).toEqual({
      kind: "partial",
      required: ["postId", "userId"],
      optional: [],
    });
  });

  it("reads the current item for the parent that embeds the record, unless it has no item of its own", () => {
    const workload = parseWorkload(WORKLOAD);
    const model = parseModel(MODEL, workload);
    for (const id of ["W1", "D1"]) {
      expect(inputOf(workload, model, id)).toMatchObject({
        required: ["commentId"],
        readsCurrent: { container: "comments", itemType: "comment" },
      });
    }
    // A tag lives only in its post: nothing to read, the input names the post.
    expect(inputOf(workload, model, "D2")).toEqual({
      kind: "partial",
      required: ["tagId", "postId"],
      optional: [],
    });
  });
});
