/**
 * The derived indexing policy cut to the queries a container runs (`usedIndexingPolicy`).
 */
import { describe, expect, it } from "vitest";
import { usedIndexingPolicy, type ExplicitIndexingPolicy } from "./indexing.js";

const derived: ExplicitIndexingPolicy = {
  included: ["/carrierId/?", "/createdAt/?", "/deleted/?", "/records/[]/weight/?", "/status/?", "/type/?"],
  excluded: ["/*"],
  composite: [
    [
      { path: "/carrierId", order: "ascending" },
      { path: "/createdAt", order: "descending" },
    ],
    [
      { path: "/status", order: "ascending" },
      { path: "/createdAt", order: "descending" },
    ],
  ],
};
const upkeep: ExplicitIndexingPolicy = {
  included: ["/deleted/?", "/type/?"],
  excluded: ["/*"],
  composite: [],
};

describe("usedIndexingPolicy", () => {
  it("keeps what the container's queries name, its upkeep and nested paths; drops the rest", () => {
    const used = usedIndexingPolicy(derived, upkeep, [
      'SELECT * FROM c WHERE c.type = @type AND c["carrierId"] = @p0 ORDER BY c.createdAt DESC',
    ]);
    expect(used.included).toEqual([
      "/carrierId/?",
      "/createdAt/?",
      "/deleted/?",
      "/records/[]/weight/?",
      "/type/?",
    ]);
    expect(used.composite).toEqual([derived.composite[0]]);
    expect(used.excluded).toEqual(["/*"]);
  });

  it("does not take a name for another that starts with it (c.status is not c.statusCode)", () => {
    const used = usedIndexingPolicy(derived, upkeep, ["SELECT * FROM c WHERE c.statusCode = @p0"]);
    expect(used.included).not.toContain("/status/?");
  });

  it("does not keep a path an attribute is only projected by (the index serves WHERE, JOIN and ORDER BY)", () => {
    const used = usedIndexingPolicy(derived, upkeep, [
      "SELECT c.id, c.status, c.createdAt FROM c WHERE c.carrierId = @p0",
    ]);
    expect(used.included).toContain("/carrierId/?");
    expect(used.included).not.toContain("/status/?");
    expect(used.included).not.toContain("/createdAt/?");
  });

  it("keeps only the upkeep's paths on a container no query reads", () => {
    expect(usedIndexingPolicy(derived, upkeep, []).included).toEqual([
      "/deleted/?",
      "/records/[]/weight/?",
      "/type/?",
    ]);
  });
});
