/**
 * Which reads the interview asks the result size of (issue 27): every read without a limit or a
 * result size that is not a lookup of one item, nor all the children of a parent whose number is
 * known, whatever its equality filters (a clinic's unpaid invoices filter on two attributes).
 */
import { describe, expect, it } from "vitest";
import { readsWithoutResultSize } from "./ask-details.js";
import type { DraftAccessPattern, DraftWorkload } from "./draft.js";

function clinic(max: number | null, reads: readonly DraftAccessPattern[]): DraftWorkload {
  return {
    version: 1,
    scale: {},
    entities: [
      { name: "Clinic", key: ["clinicId"], attributes: [{ name: "clinicId", type: "string" }] },
      {
        name: "Invoice",
        key: ["invoiceId"],
        attributes: [
          { name: "invoiceId", type: "string" },
          { name: "clinicId", type: "string" },
          { name: "status", type: "string", distinct: 3 },
          { name: "number", type: "string", unique: true },
          { name: "issuedAt", type: "datetime" },
        ],
      },
    ],
    relationships: [{ parent: "Clinic", child: "Invoice", via: ["clinicId"], avg: 175_000, max }],
    accessPatterns: reads,
  };
}

const read = (id: string, where: DraftAccessPattern["where"], extra: Partial<DraftAccessPattern> = {}) =>
  ({ id, type: "read", name: id, entity: "Invoice", where, ...extra }) as DraftAccessPattern;

describe("readsWithoutResultSize", () => {
  const reads = [
    read("unpaid", { clinicId: "eq", status: "eq" }),
    read("byKey", { invoiceId: "eq" }),
    read("byNumber", { number: "eq" }),
    read("all", { clinicId: "eq" }),
    read("paged", { clinicId: "eq", status: "eq" }, { limit: 100 }),
    read("sized", { clinicId: "eq", status: "eq" }, { returns: { avg: 40 } }),
    read("recent", { issuedAt: "range" }),
  ];

  it("asks a read with several equality filters and no limit (the vet clinic's unpaid invoices)", () => {
    const asked = readsWithoutResultSize(clinic(null, reads)).map((r) => r.id);
    expect(asked).toEqual(["unpaid", "all", "recent"]);
  });

  it("does not ask a lookup by key or unique value, nor a read with a limit or a result size", () => {
    const asked = readsWithoutResultSize(clinic(null, reads)).map((r) => r.id);
    for (const id of ["byKey", "byNumber", "paged", "sized"]) expect(asked).not.toContain(id);
  });

  it("does not ask all the children of a parent when the relationship bounds them", () => {
    expect(readsWithoutResultSize(clinic(500_000, reads)).map((r) => r.id)).toEqual(["unpaid", "recent"]);
  });
});
