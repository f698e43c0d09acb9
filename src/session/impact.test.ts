/**
 * Issue 27, "questions ranked by what they change": the vet clinic's unpaid invoices (two equality
 * filters, no limit) are designed at a page of 20 and at the size the evaluation assumes without
 * an answer; the question comes first and says what it decides, in dollars. A read whose assumed
 * size is already small is not worth a sentence and keeps its place after it.
 */
import { describe, expect, it } from "vitest";
import { askDesignDetails } from "./ask-details.js";
import { askDistribution } from "./ask-confirmation.js";
import type { DraftAccessPattern, DraftWorkload } from "./draft.js";
import { HIGH_HORIZON_MONTHS, HIGH_SKEW, LOW_RESULT_SIZE, rankByImpact } from "./impact.js";
import { askRelationships } from "./ask-relationships.js";
import { createSession } from "./state.js";
import { serializeDraft } from "./checklist.js";
import { designModel } from "../design/design-model.js";
import { loadWorkload } from "../workload/load-workload.js";

const rate = (avg: number) => ({ avg, peak: avg * 3 });

function clinics(reads: readonly DraftAccessPattern[]): DraftWorkload {
  return {
    version: 1,
    name: "Vet clinics",
    domain: "healthcare",
    scale: {},
    entities: [
      {
        name: "Clinic",
        key: ["clinicId"],
        count: 2_000,
        avgBytes: 1_000,
        attributes: [
          { name: "clinicId", type: "string" },
          { name: "region", type: "string", distinct: 400 },
        ],
      },
      {
        name: "Invoice",
        key: ["invoiceId"],
        count: 20_000_000,
        avgBytes: 1_200,
        growthPerMonth: 400_000,
        attributes: [
          { name: "invoiceId", type: "string" },
          { name: "clinicId", type: "string", distinct: 2_000 },
          { name: "status", type: "string", distinct: 3 },
        ],
      },
    ],
    relationships: [
      {
        parent: "Clinic",
        child: "Invoice",
        kind: "one-to-many",
        via: ["clinicId"],
        avg: 10_000,
        max: null,
        owned: true,
      },
    ],
    accessPatterns: [
      {
        id: "C1",
        type: "write",
        name: "open a clinic",
        entity: "Clinic",
        operation: "create",
        rps: rate(0.01),
      },
      {
        id: "C2",
        type: "write",
        name: "issue an invoice",
        entity: "Invoice",
        operation: "create",
        rps: rate(20),
      },
      {
        id: "Q1",
        type: "read",
        name: "a clinic",
        entity: "Clinic",
        where: { clinicId: "eq" },
        rps: rate(50),
      },
      {
        id: "Q2",
        type: "read",
        name: "an invoice",
        entity: "Invoice",
        where: { invoiceId: "eq" },
        rps: rate(100),
      },
      ...reads,
    ],
  };
}

const smallRead = {
  id: "Q3",
  type: "read",
  name: "clinics of a region",
  entity: "Clinic",
  where: { region: "eq" },
  rps: rate(2),
} as const satisfies DraftAccessPattern;
const unpaid = {
  id: "Q4",
  type: "read",
  name: "a clinic's unpaid invoices",
  entity: "Invoice",
  where: { clinicId: "eq", status: "eq" },
  rps: rate(30),
} as const satisfies DraftAccessPattern;

describe("questions ranked by what they change", () => {
  const state = createSession(clinics([smallRead, unpaid]));

  it("asks the unpaid invoices first and says what their size decides, in dollars", () => {
    const asked = askDesignDetails(state);
    // the asker's own order: Q3 before Q4
    expect(asked.filter((q) => q.id.startsWith("result-size:")).map((q) => q.id)).toEqual([
      "result-size:Q3",
      "result-size:Q3:limit",
      "result-size:Q4",
      "result-size:Q4:limit",
    ]);
    const ranked = rankByImpact(state, asked);
    expect(ranked[0]?.id).toBe("result-size:Q4");
    const impact = ranked[0]?.impact ?? "";
    expect(impact).toMatch(/^This (decides|moves)/);
    const costs = [...impact.matchAll(/\$([\d,]+)/g)].map((m) => Number((m[1] ?? "").replace(/,/g, "")));
    expect(costs).toHaveLength(2);
    const [low = 0, high = 0] = costs;
    // a page of 20 is far cheaper than the thousands of invoices assumed without an answer
    expect(high).toBeGreaterThan(3 * low);
    expect(impact).toContain(`at ${LOW_RESULT_SIZE} items`);
    expect(impact).toMatch(/at the [\d,]+ items assumed without an answer/);
    // the small read: nothing to say, kept after, in its order
    const q3 = ranked.find((q) => q.id === "result-size:Q3");
    expect(q3?.impact).toBeUndefined();
    expect(ranked.findIndex((q) => q.id === "result-size:Q3")).toBeGreaterThan(
      ranked.findIndex((q) => q.id === "result-size:Q4:limit"),
    );
    // every question is kept
    expect(new Set(ranked.map((q) => q.id))).toEqual(new Set(asked.map((q) => q.id)));
  });

  it("reconciles: the workload answered with a page of 20 designs at the figure the question quoted", () => {
    const ranked = rankByImpact(state, askDesignDetails(state));
    const impact = ranked[0]?.impact ?? "";
    const quoted = Number((/\$([\d,]+) a month at 20 items/.exec(impact)?.[1] ?? "").replace(/,/g, ""));
    const answered = createSession(clinics([smallRead, { ...unpaid, returns: { avg: LOW_RESULT_SIZE } }]));
    expect(askDesignDetails(answered).map((q) => q.id)).not.toContain("result-size:Q4");
    const loaded = loadWorkload(serializeDraft(answered.workload), { file: "workload.yaml" });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const designed = designModel(loaded.value, { horizon: false });
    expect(Math.round(designed.evaluation.totals.monthlyCostUSD)).toBe(quoted);
  });

  it("says what a longer horizon would change, on the horizon question only", () => {
    // 20 million new invoices a month: three times the data at 36 months
    const draft = clinics([{ ...unpaid, limit: 50 }]);
    const growing = createSession({
      ...draft,
      entities: draft.entities.map((e) => (e.name === "Invoice" ? { ...e, growthPerMonth: 20_000_000 } : e)),
    });
    const ranked = rankByImpact(growing, askDistribution(growing));
    const horizon = ranked.find((q) => q.id === "distribution:horizon");
    expect(horizon?.impact ?? "").toContain(`at ${HIGH_HORIZON_MONTHS} months`);
    expect(ranked.filter((q) => q.impact !== undefined).map((q) => q.id)).toEqual(["distribution:horizon"]);
  });

  it("says what the spread of requests over a located attribute changes, on the skew question", () => {
    // 2,000 invoices a second, read by clinic: a few busy clinics would concentrate them
    const draft = clinics([{ ...unpaid, limit: 50, rps: rate(300) }]);
    const busy = createSession({
      ...draft,
      accessPatterns: draft.accessPatterns.map((p) => (p.id === "C2" ? { ...p, rps: rate(2_000) } : p)),
    });
    const asked = askRelationships(busy);
    expect(asked.map((q) => q.id)).toContain("skew:Invoice:clinicId");
    const ranked = rankByImpact(busy, asked);
    const skew = ranked.find((q) => q.id === "skew:Invoice:clinicId");
    expect(skew?.impact ?? "").toContain(`a few popular values (skew ${HIGH_SKEW})`);
    expect(ranked.filter((q) => q.impact !== undefined).map((q) => q.id)).toEqual(["skew:Invoice:clinicId"]);
  });

  it("changes nothing while the draft does not load", () => {
    const incomplete = createSession({ ...clinics([unpaid]), entities: [] });
    const asked = askDesignDetails(incomplete);
    expect(rankByImpact(incomplete, asked)).toBe(asked);
  });
});
