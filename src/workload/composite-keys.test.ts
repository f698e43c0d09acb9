/**
 * Composite keys (issue 24): an entity identified by several attributes (`key: [filmId, actorId]`)
 * and a relationship to it, whose via lists the child's attributes holding that key in order.
 * The loader, its errors, and the serializer's round trip.
 */
import { describe, expect, it } from "vitest";
import { formatPath } from "../common/issues.js";
import { coversKey, formatKey, keyTemplate, keyViaPairs, recordIdentity, soleKey } from "./keys.js";
import { loadWorkload } from "./load-workload.js";
import { serializeWorkload } from "./serialize-workload.js";

const base = `version: 1
name: Films
entities:
  Film:
    key: filmId
    count: 1000
    avgBytes: 500
    attributes: { filmId: string, title: string }
  Actor:
    key: actorId
    count: 200
    avgBytes: 300
    attributes: { actorId: string, name: string }
  FilmActor:
    key: [filmId, actorId]
    count: 5462
    avgBytes: 150
    attributes: { filmId: string, actorId: string, role: string }
  Award:
    key: awardId
    count: 300
    avgBytes: 200
    attributes: { awardId: string, film: string, actor: string, year: number }
relationships:
  - { parent: Film, child: FilmActor, via: filmId, avg: 7, owned: true }
  - { parent: Actor, child: FilmActor, via: [actorId], avg: 27 }
  - { parent: FilmActor, child: Award, via: [film, actor], avg: 0.05 }
accessPatterns:
  - { id: Q1, name: A film's actors, type: read, entity: FilmActor, where: { filmId: eq }, rps: { avg: 10, peak: 50 } }
  - { id: Q2, name: One part, type: read, entity: FilmActor, where: { filmId: eq, actorId: eq }, with: [count(Award)], rps: { avg: 5, peak: 20 } }
  - { id: Q3, name: An award with its role, type: read, entity: Award, where: { awardId: eq }, with: [FilmActor.role], rps: { avg: 1, peak: 5 } }
  - { id: C1, name: Cast, type: write, operation: create, entity: FilmActor, rps: { avg: 1, peak: 5 }, standalone: true }
  - { id: C2, name: Award, type: write, operation: create, entity: Award, rps: { avg: 1, peak: 5 }, standalone: true }
`;

function edit(from: string, to: string, text = base): string {
  if (!text.includes(from)) throw new Error(`the base has no ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

function errorsOf(text: string): { code: string; path: string; message: string; suggestion?: string }[] {
  const result = loadWorkload(text, { file: "workload.yaml" });
  return result.issues
    .filter((issue) => issue.severity === "error")
    .map((issue) => ({
      code: issue.code,
      path: formatPath(issue.path),
      message: issue.message,
      ...(issue.suggestion === undefined ? {} : { suggestion: issue.suggestion }),
    }));
}

describe("a composite key in the workload file", () => {
  it("loads as a list of attributes; the single form is a list of one; a via matches its parent's key", () => {
    const result = loadWorkload(base);
    expect(result.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    if (!result.ok) return;
    const [film, , link] = result.value.entities;
    expect(film?.key).toEqual(["filmId"]);
    expect(link?.key).toEqual(["filmId", "actorId"]);
    expect(result.value.relationships.map((r) => r.via)).toEqual([
      ["filmId"],
      ["actorId"],
      ["film", "actor"],
    ]);
    const toAward = result.value.relationships[2];
    expect(link !== undefined && toAward !== undefined && keyViaPairs(link, toAward)).toEqual([
      ["filmId", "film"],
      ["actorId", "actor"],
    ]);
  });

  it("the helpers name a key, its id template and a record's identity", () => {
    const link = { key: ["filmId", "actorId"] };
    expect(keyTemplate(link.key)).toBe("{filmId}-{actorId}");
    expect(formatKey(link.key)).toBe("[filmId, actorId]");
    expect(formatKey(["postId"])).toBe("postId");
    expect(soleKey(link)).toBeUndefined();
    expect(coversKey(link, ["filmId"])).toBe(false);
    expect(coversKey(link, ["actorId", "role", "filmId"])).toBe(true);
    expect(recordIdentity(link, { filmId: "f1", actorId: "a2", role: "x" })).toBe('["f1","a2"]');
    expect(recordIdentity(link, { filmId: "f1", actorId: "a2" })).not.toBe(
      recordIdentity(link, { filmId: "f1", actorId: "a3" }),
    );
  });

  it("an empty list is invalid: the message says what would be valid", () => {
    expect(errorsOf(edit("key: [filmId, actorId]", "key: []"))).toEqual([
      {
        code: "workload.invalidValue",
        path: "entities.FilmActor.key",
        message:
          "expected the attribute that identifies a record, or a list of the attributes that together do; got an empty list",
        suggestion: "for example key: orderId, or key: [orderId, productId] for a composite key",
      },
    ]);
  });

  it("an attribute listed twice is a duplicate entry", () => {
    expect(errorsOf(edit("key: [filmId, actorId]", "key: [filmId, filmId]"))).toEqual([
      expect.objectContaining({ code: "workload.duplicateEntry", path: "entities.FilmActor.key[1]" }),
    ]);
  });

  it("an attribute the entity does not list is unknown, at its place in the list", () => {
    expect(errorsOf(edit("key: [filmId, actorId]", "key: [filmId, actorID]"))).toEqual([
      expect.objectContaining({
        code: "workload.unknownAttribute",
        path: "entities.FilmActor.key[1]",
        suggestion: 'did you mean "actorId"?',
      }),
    ]);
  });

  it("a composite key needs the entity's attributes listed", () => {
    const text = edit(
      "    attributes: { filmId: string, actorId: string, role: string }\n",
      "",
      edit(
        "  - { id: Q1, name: A film's actors, type: read, entity: FilmActor, where: { filmId: eq }, rps: { avg: 10, peak: 50 } }\n",
        "",
      ),
    );
    expect(errorsOf(text)).toEqual([
      expect.objectContaining({ code: "workload.missingField", path: "entities.FilmActor.attributes" }),
    ]);
  });

  it("a key attribute present on only some records is refused", () => {
    const text = edit(
      "actorId: string, role: string }",
      "actorId: { type: string, presence: 0.5 }, role: string }",
    );
    expect(errorsOf(text)).toEqual([
      expect.objectContaining({
        code: "workload.invalidValue",
        path: "entities.FilmActor.attributes.actorId.presence",
        message:
          "actorId is part of the key [filmId, actorId], which identifies every FilmActor record, so every record has it; got presence 0.5",
      }),
    ]);
  });

  it("a via shorter or longer than its parent's key is refused, with the via that would be valid", () => {
    expect(errorsOf(edit("via: [film, actor]", "via: film"))).toEqual([
      {
        code: "workload.invalidValue",
        path: "relationships[2].via",
        message:
          "FilmActor has the composite key [filmId, actorId], so via lists 2 attributes of Award that hold them, in that order; got 1",
        suggestion: "for example via: [filmId, actorId] (or the Award attributes that hold them)",
      },
    ]);
    expect(errorsOf(edit("via: [actorId]", "via: [actorId, filmId]"))).toEqual([
      expect.objectContaining({
        code: "workload.invalidValue",
        path: "relationships[1].via",
        message: "Actor has the key actorId, one attribute, so via names one attribute of FilmActor; got 2",
        suggestion: "for example via: actorId",
      }),
    ]);
  });

  it("a via attribute that the child does not list, or listed twice, is reported at its place", () => {
    expect(errorsOf(edit("via: [film, actor]", "via: [film, actr]"))).toEqual([
      expect.objectContaining({ code: "workload.unknownAttribute", path: "relationships[2].via[1]" }),
    ]);
    expect(errorsOf(edit("via: [film, actor]", "via: [film, film]"))).toEqual([
      expect.objectContaining({ code: "workload.duplicateEntry", path: "relationships[2].via[1]" }),
    ]);
  });

  it("a missing key is a missing field, as before", () => {
    expect(errorsOf(edit("    key: [filmId, actorId]\n", ""))).toEqual([
      expect.objectContaining({ code: "workload.missingField", path: "entities.FilmActor.key" }),
    ]);
  });

  it("serializes back: the single form alone, a composite key and a list via in flow style", () => {
    const loaded = loadWorkload(base);
    if (!loaded.ok) throw new Error("the base loads");
    const text = serializeWorkload(loaded.value);
    expect(text).toContain("    key: filmId\n");
    expect(text).toContain("    key: [ filmId, actorId ]\n");
    expect(text).toContain("via: actorId,");
    expect(text).toContain("via: [ film, actor ]");
    const again = loadWorkload(text);
    expect(again.ok && again.value).toEqual(loaded.value);
  });
});
