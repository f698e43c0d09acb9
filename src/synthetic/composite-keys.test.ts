/**
 * Synthetic records of entities with a composite key: every key tuple unique, and shaped like the
 * workload (a film has about its `avg` actors, an order's lines are numbered 1, 2, 3...).
 */
import { describe, expect, it } from "vitest";
import { recordIdentity } from "../workload/keys.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { generateDataset } from "./generate-records.js";
import { generateWriteRecord } from "./generate-writes.js";
import { mulberry32 } from "./random.js";

function workloadOf(text: string): Workload {
  const loaded = loadWorkload(text);
  if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("\n"));
  return loaded.value;
}

const films = workloadOf(`version: 1
name: Films
entities:
  Film: { key: filmId, count: 1000, avgBytes: 300, attributes: { filmId: string, title: string } }
  Actor: { key: actorId, count: 200, avgBytes: 200, attributes: { actorId: string, name: string } }
  FilmActor:
    key: [filmId, actorId]
    count: 5462
    avgBytes: 100
    attributes: { filmId: string, actorId: string, role: string }
relationships:
  - { parent: Film, child: FilmActor, via: filmId, avg: 7, max: 20 }
  - { parent: Actor, child: FilmActor, via: actorId, avg: 27 }
accessPatterns:
  - { id: Q1, name: cast, type: read, entity: FilmActor, where: { filmId: eq }, rps: { avg: 1, peak: 2 } }
  - { id: C1, name: cast, type: write, operation: create, entity: FilmActor, rps: { avg: 1, peak: 2 } }
`);

function groupSizes(records: readonly Readonly<Record<string, unknown>>[], attribute: string): number[] {
  const sizes = new Map<unknown, number>();
  for (const record of records) sizes.set(record[attribute], (sizes.get(record[attribute]) ?? 0) + 1);
  return [...sizes.values()];
}

describe("records of a link entity (key [filmId, actorId])", () => {
  const dataset = generateDataset(films, { seed: 7 });
  const links = dataset.entities["FilmActor"] ?? [];
  const link = films.entities.find((entity) => entity.name === "FilmActor");

  it("every (filmId, actorId) pair once, each naming an existing film and actor", () => {
    expect(links.length).toBe(2000);
    expect(new Set(links.map((record) => recordIdentity(link ?? { key: [] }, record))).size).toBe(
      links.length,
    );
    const filmIds = new Set((dataset.entities["Film"] ?? []).map((record) => record["filmId"]));
    const actorIds = new Set((dataset.entities["Actor"] ?? []).map((record) => record["actorId"]));
    expect(links.every((record) => filmIds.has(record["filmId"]) && actorIds.has(record["actorId"]))).toBe(
      true,
    );
  });

  it("a film has about 7 actors (never more than 20), an actor about 27 films", () => {
    const average = (sizes: readonly number[]): number => sizes.reduce((sum, n) => sum + n, 0) / sizes.length;
    const perFilm = groupSizes(links, "filmId");
    expect(average(perFilm)).toBeGreaterThan(6);
    expect(average(perFilm)).toBeLessThan(8);
    expect(Math.max(...perFilm)).toBeLessThanOrEqual(20);
    const perActor = groupSizes(links, "actorId");
    expect(average(perActor)).toBeGreaterThan(24);
    expect(average(perActor)).toBeLessThan(30);
  });

  it("a new link has a pair no record has", () => {
    const pattern = films.accessPatterns.find((p) => p.id === "C1");
    if (pattern?.type !== "write") throw new Error("C1 is a write");
    const rng = mulberry32(3);
    const taken = new Set(links.map((record) => recordIdentity(link ?? { key: [] }, record)));
    for (let n = 0; n < 50; n++) {
      const record = generateWriteRecord(films, dataset, pattern, rng);
      expect(record).toBeDefined();
      const identity = recordIdentity(link ?? { key: [] }, record ?? {});
      expect(taken.has(identity)).toBe(false);
      taken.add(identity);
    }
  });

  it("never more links than film-actor pairs exist (3 films x 2 actors)", () => {
    const small = workloadOf(
      JSON.stringify({
        version: 1,
        name: "small",
        entities: {
          Film: { key: "filmId", count: 3, avgBytes: 100, attributes: { filmId: "string" } },
          Actor: { key: "actorId", count: 2, avgBytes: 100, attributes: { actorId: "string" } },
          FilmActor: {
            key: ["filmId", "actorId"],
            count: 50,
            avgBytes: 100,
            attributes: { filmId: "string", actorId: "string" },
          },
        },
        relationships: [
          { parent: "Film", child: "FilmActor", via: "filmId", avg: 16 },
          { parent: "Actor", child: "FilmActor", via: "actorId", avg: 25 },
        ],
        accessPatterns: [
          {
            id: "Q1",
            name: "q",
            type: "read",
            entity: "FilmActor",
            where: { filmId: "eq" },
            rps: { avg: 1, peak: 1 },
          },
        ],
      }),
    );
    const records = generateDataset(small, { seed: 1 }).entities["FilmActor"] ?? [];
    expect(records.length).toBe(6);
    expect(new Set(records.map((r) => `${String(r["filmId"])}/${String(r["actorId"])}`)).size).toBe(6);
  });
});

describe("records keyed by their parent and a number of their own (key [orderId, lineNo])", () => {
  const orders = workloadOf(`version: 1
name: Orders
entities:
  Order: { key: orderId, count: 100, avgBytes: 300, attributes: { orderId: string, placedAt: datetime } }
  OrderLine:
    key: [orderId, lineNo]
    count: 400
    avgBytes: 100
    attributes: { orderId: string, lineNo: number, sku: string, quantity: number }
relationships:
  - { parent: Order, child: OrderLine, via: orderId, avg: 4, max: 12, owned: true }
accessPatterns:
  - { id: Q1, name: lines, type: read, entity: OrderLine, where: { orderId: eq }, rps: { avg: 1, peak: 2 } }
`);

  it("an order's lines are numbered 1, 2, 3... and never repeat", () => {
    const lines = generateDataset(orders, { seed: 11 }).entities["OrderLine"] ?? [];
    expect(lines.length).toBe(400);
    const byOrder = new Map<unknown, unknown[]>();
    for (const line of lines)
      byOrder.set(line["orderId"], [...(byOrder.get(line["orderId"]) ?? []), line["lineNo"]]);
    for (const numbers of byOrder.values()) {
      expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, index) => index + 1));
    }
  });
});
