/**
 * The runtime's item shapes: records become items and items become records again, keys and
 * shards are stable, and failures are typed errors (the model's tests cover the same functions
 * through `model/materialize-item.ts`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DataAccessError } from "./errors.js";
import { computeShard, fnv1a32 } from "./hash.js";
import {
  itemKeyOf,
  materializeItem,
  partitionKeyOfItem,
  recordOf,
  relatedOf,
  type ItemTypeShape,
} from "./items.js";
import { parseTemplate, renderKeyValue, renderTemplate } from "./templates.js";

const post: ItemTypeShape = {
  container: "posts",
  type: "post",
  entity: "Post",
  attributes: ["postId", "userId", "title", "content"],
  id: "{postId}",
  partitionKey: ["{userId}", "{postId}-{shard}"],
  keyPaths: ["/userId", "/bucket/key"],
  truncate: [{ attribute: "content", bytes: 5 }],
  embeds: [{ entity: "Comment", as: "comments", latest: 2 }],
  copies: [{ from: { entity: "User", attribute: "username" }, as: "authorName" }],
  counts: [{ of: "Like", as: "likeCount" }],
  ancestors: { as: "path" },
  shards: 4,
  shardBy: "userId",
  ttl: 60,
};

const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);

describe("items of an item type", () => {
  it("turn back into the record and the related data they were made from", () => {
    fc.assert(
      fc.property(word, word, fc.string(), fc.nat(), word, (postId, userId, title, likes, username) => {
        const record = { postId, userId, title, content: "héllo wörld" };
        const related = {
          copies: { User: { username } },
          counts: { Like: likes },
          embeds: { Comment: [{ c: 1 }, { c: 2 }, { c: 3 }] },
          ancestors: ["root", postId],
        };
        const item = materializeItem(post, record, related);
        const shard = computeShard(userId, 4);
        expect(item).toMatchObject({
          id: postId,
          type: "post",
          userId,
          bucket: { key: `${postId}-${shard}` },
        });
        expect(item["content"]).toBe("héll");
        expect(item["comments"]).toEqual([{ c: 1 }, { c: 2 }]);
        expect(item["ttl"]).toBe(60);
        expect(recordOf(post, item)).toEqual({ ...record, content: "héll" });
        const { attributes: _listed, ...unlisted } = post;
        // Without listed attributes: every property but the id, type, keys, system and derived ones.
        expect(recordOf(unlisted, { ...item, _etag: "e" })).toEqual({ postId, title, content: "héll" });
        expect(relatedOf(post, item)).toEqual({
          copies: { User: { username } },
          counts: { Like: likes },
          embeds: { Comment: [{ c: 1 }, { c: 2 }] },
          ancestors: ["root", postId],
        });
        expect(partitionKeyOfItem(post, item)).toEqual(itemKeyOf(post, record).keys);
      }),
    );
  });

  it("need the related data they copy and the replica they are written to", () => {
    expect(() => materializeItem(post, { postId: "p", userId: "u" })).toThrow(DataAccessError);
    const replicated: ItemTypeShape = { ...post, copies: [], replicas: 3, partitionKey: ["feed-{replica}"] };
    expect(() => itemKeyOf(replicated, { postId: "p", userId: "u" })).toThrow(/replica/);
    expect(itemKeyOf(replicated, { postId: "p", userId: "u" }, { replica: 2 }).keys).toEqual(["feed-2"]);
  });
});

describe("templates and shards", () => {
  it("render a single placeholder with its type and anything else as text", () => {
    expect(renderKeyValue("{tenantId}", { attributes: { tenantId: 7 } })).toBe(7);
    expect(renderTemplate("t-{tenantId}-{shard}", { attributes: { tenantId: 7 }, shard: 2 })).toBe("t-7-2");
    expect(parseTemplate("{a}-{bucket}")).toEqual([
      { kind: "attribute", name: "a" },
      { kind: "literal", text: "-" },
      { kind: "bucket" },
    ]);
  });

  it("report a malformed template and a missing value with a code", () => {
    const codeOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error instanceof DataAccessError ? error.code : "other";
      }
      return "none";
    };
    expect(codeOf(() => parseTemplate("{a"))).toBe("badTemplate");
    expect(codeOf(() => renderTemplate("{a}", { attributes: {} }))).toBe("missingTemplateValue");
    expect(codeOf(() => computeShard("x", 0))).toBe("badShards");
  });

  it("hash with FNV-1a over UTF-8 (published test vectors)", () => {
    // Test vectors of the FNV reference page (http://www.isthe.com/chongo/tech/comp/fnv/).
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
  });
});
