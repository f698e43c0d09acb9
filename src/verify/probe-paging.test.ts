/**
 * The paging probe's comparison: the same items in another order pass only when the read has no
 * ORDER BY (or they tie on it); system properties and the properties naming a replica are not
 * part of an item's answer (two reads of a replicated item may each read another replica).
 */
import { describe, expect, it } from "vitest";
import { sameAnswer, sameRead, sameSequence } from "./probe-paging.js";

const a = { id: "a", group: "g", at: 1, groupReplica: "g-0", _rid: "x1", _ts: 5 };
const b = { id: "b", group: "g", at: 2, groupReplica: "g-0", _rid: "x2", _ts: 5 };
const inReplica = (item: Record<string, unknown>, replica: number) => ({
  ...item,
  groupReplica: `g-${replica}`,
  _rid: `r${replica}-${String(item["id"])}`,
});

describe("sameAnswer", () => {
  it("accepts another order without ORDER BY, and refuses it with one", () => {
    expect(sameAnswer([b, a], [a, b], [])).toBe(true);
    expect(sameAnswer([b, a], [a, b], ["at"])).toBe(false);
    expect(sameAnswer([a, b], [a, b], ["at"])).toBe(true);
  });

  it("compares the items of two replicas without their replica key and system properties", () => {
    const other = [inReplica(a, 3), inReplica(b, 3)];
    expect(sameAnswer(other, [a, b], [], ["groupReplica"])).toBe(true);
    expect(sameAnswer(other, [a, b], [])).toBe(false);
  });

  it("still refuses a missing, repeated or changed item", () => {
    expect(sameAnswer([a], [a, b], [])).toBe(false);
    expect(sameAnswer([a, a], [a, b], [])).toBe(false);
    expect(sameAnswer([a, { ...b, at: 3 }], [a, b], [], ["groupReplica"])).toBe(false);
  });
});

describe("sameSequence", () => {
  it("refuses items tied on the ORDER BY in another order, and ignores system properties", () => {
    const c = { id: "c", group: "g", at: 2 };
    const tied = { ...b, id: "b2", at: 2 };
    expect(sameSequence([c, tied], [c, tied])).toBe(true);
    expect(sameSequence([tied, c], [c, tied])).toBe(false);
    expect(sameSequence([{ ...a, _rid: "other" }], [a])).toBe(true);
    expect(sameSequence([a], [a, b])).toBe(false);
  });
});

describe("sameRead", () => {
  const probe = { orderBy: ["group"], replicaProperties: ["groupReplica"] };
  const project = ({ groupReplica: _replica, ...rest }: Record<string, unknown>) => rest;

  it("refuses ties in another order from the same replica", () => {
    expect(sameRead(probe, [b, a], [a, b])).toBe(false);
    expect(sameRead(probe, [a, b], [a, b])).toBe(true);
  });

  it("accepts ties in another order from another replica", () => {
    expect(sameRead(probe, [inReplica(b, 3), inReplica(a, 3)], [a, b])).toBe(true);
  });

  it("accepts ties in another order when the items do not say their replica (independent seed 71)", () => {
    expect(sameRead(probe, [project(b), project(a)], [project(a), project(b)])).toBe(true);
    expect(sameRead(probe, [project(b)], [project(a), project(b)])).toBe(false);
  });
});
