import { marked } from "marked";
import { describe, expect, it } from "vitest";
import type { AccessPattern, Rate, ReadPattern, Workload, WritePattern } from "../workload/types.js";
import { renderRequirements } from "./requirements.js";
import {
  requirementsChecklist,
  requirementsComplete,
  type ChecklistId,
} from "../analysis/requirements-checklist.js";
import { zipfShare } from "../cost/zipf.js";
import { readExampleWorkload } from "../test-support/model-examples.js";

const HOSTILE = "Evil|Name `x` <script>alert(1)</script>\nsecond line";

function read(id: string, entity: string, rps: Rate, extra: Partial<ReadPattern> = {}): ReadPattern {
  return {
    id,
    name: id,
    entity,
    rps,
    standalone: false,
    type: "read",
    where: [],
    orderBy: [],
    truncate: [],
    with: [],
    ...extra,
  };
}
function write(id: string, entity: string, rps: Rate, extra: Partial<WritePattern> = {}): WritePattern {
  return {
    id,
    name: id,
    entity,
    rps,
    standalone: false,
    type: "write",
    operation: "create",
    batch: 1,
    atomicWith: [],
    bufferedRecords: 1,
    ...extra,
  };
}
function workloadOf(accessPatterns: AccessPattern[], extra: Partial<Workload> = {}): Workload {
  return {
    version: 1,
    name: "blog",
    domain: "blogging",
    scale: {
      regions: 1,
      multiRegionWrites: false,
      consistency: "session",
      horizonMonths: 12,
      targetUtilization: 0.8,
    },
    entities: [
      {
        name: "User",
        key: ["userId"],
        count: 1000,
        growthPerMonth: 10,
        avgBytes: 1000,
        maxBytes: 4000,
        attributes: [
          { name: "userId", type: "string", skew: 0, unique: false, changes: "never", presence: 1 },
          { name: "name", type: "string", skew: 0, unique: false, changes: "rare", presence: 1 },
        ],
      },
      {
        name: "Post",
        key: ["postId"],
        count: 10000,
        growthPerMonth: 100,
        avgBytes: 2000,
        maxBytes: 8000,
        attributes: [],
      },
    ],
    relationships: [
      { parent: "User", child: "Post", kind: "one-to-many", via: ["userId"], avg: 10, owned: true },
    ],
    accessPatterns,
    ...extra,
  };
}
const complete: AccessPattern[] = [
  read("Q1", "User", { avg: 10, peak: 20 }, { where: [{ attribute: "userId", op: "eq" }], latencyMs: 10 }),
  read("Q2", "Post", { avg: 5, peak: 10 }, { where: [{ attribute: "userId", op: "eq" }], latencyMs: 20 }),
  write("C1", "User", { avg: 1, peak: 2 }, { operation: "upsert" }),
  write("C2", "Post", { avg: 1, peak: 2 }),
];

function item(workload: Workload, id: ChecklistId, state = {}) {
  const found = requirementsChecklist(workload, state).find((i) => i.id === id);
  if (!found) throw new Error(`no checklist item ${id}`);
  return found;
}

/** Splits a GFM table row into cells (on `|` not escaped with a backslash). */
function cellsOf(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/);
}

describe("renderRequirements", () => {
  it("has every section of the expert prompt's requirements template", () => {
    const doc = renderRequirements(workloadOf(complete));
    for (const heading of [
      "# Azure Cosmos DB NoSQL Modeling Session",
      "## Application Overview",
      "## Access Patterns Analysis",
      "## Entity Relationships Deep Dive",
      "## Enhanced Aggregate Analysis",
      "### User + Post Container Item Analysis",
      "### Identifying Relationship Check",
      "## Container Consolidation Analysis",
      "### Consolidation Candidates Review",
      "### Consolidation Rules",
      "## Design Considerations (Subject to Change)",
      "## Validation Checklist",
    ]) {
      expect(doc).toContain(`${heading}`);
    }
    for (const label of [
      "**Domain**",
      "**Key Entities**",
      "**Business Context**",
      "**Scale**",
      "**Geographic Distribution**",
    ]) {
      expect(doc).toContain(label);
    }
    for (const label of [
      "Hot Partition Concerns",
      "Cross-Partition Query Costs",
      "Indexing Strategy",
      "Multi-Document Opportunities",
      "Multi-Entity Query Patterns",
      "Denormalization Ideas",
      "Global Distribution",
    ]) {
      expect(doc).toContain(label);
    }
    // Q2 filters Post by the parent key only: the identifying relationship applies.
    expect(doc).toMatch(/\| User → Post \| No \| Yes \| Yes \| ✅ Yes \|/);
  });

  it("keeps every table's column count and escapes HTML whatever the names contain", () => {
    const hostileWorkload: Workload = {
      ...workloadOf([
        read(
          "Q|1",
          HOSTILE,
          { avg: 1, peak: 2 },
          { where: [{ attribute: "a|b", op: "eq" }], select: ["`x`", "<b>"] },
        ),
        write("C\n1", HOSTILE, { avg: 1, peak: 2 }, { changes: ["<img src=x onerror=alert(1)>"] }),
      ]),
      name: HOSTILE,
      domain: HOSTILE,
      description: HOSTILE,
      entities: [
        {
          name: HOSTILE,
          key: ["a|b"],
          count: 10,
          growthPerMonth: 0,
          avgBytes: 100,
          maxBytes: 400,
          attributes: [],
        },
        {
          name: "Child|<script>",
          key: ["id"],
          count: 10,
          growthPerMonth: 0,
          avgBytes: 100,
          maxBytes: 400,
          attributes: [],
        },
      ],
      relationships: [
        {
          parent: HOSTILE,
          child: "Child|<script>",
          kind: "one-to-many",
          via: ["a|b"],
          avg: 1,
          max: 2,
          owned: true,
        },
      ],
    };
    const doc = renderRequirements(hostileWorkload);
    // Every "<" of the user's text is backslash-escaped (no entity), and a Markdown renderer
    // makes no element of it.
    expect(doc).not.toMatch(/(?<!\\)<(script|img|b>)/i);
    expect(doc).not.toMatch(/&(lt|gt|quot|amp|#39);/);
    expect(marked.parse(doc, { async: false })).not.toMatch(/<(script|img|b)[\s>]/i);
    const lines = doc.split("\n");
    let tables = 0;
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i] ?? "";
      if (!line.startsWith("|") || (lines[i - 1] ?? "").startsWith("|")) continue;
      tables += 1;
      const width = cellsOf(line).length;
      for (let j = i; j < lines.length && (lines[j] ?? "").startsWith("|"); j += 1) {
        expect(cellsOf(lines[j] ?? ""), `row ${j}: ${lines[j]}`).toHaveLength(width);
      }
    }
    expect(tables).toBeGreaterThanOrEqual(5);
    // A heading cannot be started by a name with a newline.
    expect(lines.some((l) => l.startsWith("second line"))).toBe(false);
  });

  it("renders an empty workload and leaves the blocking items open", () => {
    const empty: Workload = { ...workloadOf([]), entities: [], relationships: [] };
    const doc = renderRequirements(empty);
    expect(doc).toContain("No relationships captured yet.");
    expect(doc).toContain(
      "- [ ] Every access pattern has RPS (average and peak) (required before the data model): No access patterns yet.",
    );
    expect(requirementsComplete(requirementsChecklist(empty, { confirmedPatterns: true }))).toBe(false);
  });

  it("marks a pattern without a rate or without its write as pending", () => {
    const doc = renderRequirements(
      workloadOf([read("Q1", "User", { avg: 10 } as Rate), read("Q2", "Post", { avg: 1, peak: 2 })]),
    );
    const row = (id: string): string => doc.split("\n").find((l) => l.startsWith(`| ${id} |`)) ?? "";
    expect(row("Q1")).toContain("⏳");
    expect(row("Q1")).toContain("10 avg / ? peak");
    expect(row("Q2")).toContain("⏳");
  });
});

describe("requirementsChecklist", () => {
  it("ticks the items a complete workload satisfies and waits for the user's confirmation", () => {
    const w = workloadOf(complete);
    expect(item(w, "pattern-rates").done).toBe(true);
    expect(item(w, "reads-and-writes-paired").done).toBe(true);
    expect(item(w, "pattern-details").done).toBe(true);
    expect(item(w, "massive-scale").done).toBe(true);
    expect(item(w, "patterns-confirmed").done).toBe(false);
    expect(requirementsComplete(requirementsChecklist(w))).toBe(false);
    expect(requirementsComplete(requirementsChecklist(w, { confirmedPatterns: true }))).toBe(true);
    expect(renderRequirements(w, { confirmedPatterns: true })).toContain(
      "- [x] User confirmed that every access pattern is captured",
    );
  });

  it("leaves the rate item open when a peak rate is missing", () => {
    const w = workloadOf([...complete.slice(1), read("Q9", "User", { avg: 5 } as Rate)]);
    const rates = item(w, "pattern-rates");
    expect(rates.done).toBe(false);
    expect(rates.why).toContain("Q9");
    expect(renderRequirements(w)).toContain("- [ ] Every access pattern has RPS (average and peak)");
  });

  it("leaves the pairing item open for a read without a write and a write without a read", () => {
    const readOnly = workloadOf(complete.filter((p) => p.id !== "C2"));
    const pairing = item(readOnly, "reads-and-writes-paired");
    expect(pairing.done).toBe(false);
    expect(pairing.why).toContain("Q2");
    expect(item(workloadOf(complete.filter((p) => p.id !== "Q2")), "reads-and-writes-paired").why).toContain(
      "C2",
    );
    // The user declined explicitly: standalone.
    const declined = workloadOf([
      ...complete.filter((p) => p.id !== "C2" && p.id !== "Q2"),
      read("Q2", "Post", { avg: 1, peak: 1 }, { standalone: true }),
    ]);
    expect(item(declined, "reads-and-writes-paired").done).toBe(true);
  });

  it("requires the massive scale questions above 10,000 writes/s, counting batch sizes", () => {
    const heavy = workloadOf([...complete, write("C3", "Post", { avg: 100, peak: 200 }, { batch: 100 })]);
    expect(item(heavy, "massive-scale").done).toBe(false);
    expect(item(heavy, "massive-scale").why).toContain("20,004");
    expect(item(heavy, "massive-scale", { massiveScaleDiscussed: true }).done).toBe(true);
    expect(
      item(workloadOf([...complete, write("C3", "Post", { avg: 100, peak: 9000 })]), "massive-scale").done,
    ).toBe(true);
  });

  it("asks for the cardinality of filtered attributes", () => {
    const w = workloadOf([
      ...complete,
      read("Q3", "User", { avg: 1, peak: 1 }, { where: [{ attribute: "name", op: "eq" }] }),
    ]);
    expect(item(w, "hot-partitions").done).toBe(false);
    expect(item(w, "hot-partitions").why).toContain("User.name");
    expect(item(w, "domain-and-scale").done).toBe(true);
    const { domain: _domain, ...noDomain } = w;
    expect(item(noDomain, "domain-and-scale").done).toBe(false);
  });
});

describe("zipfShare (hot partition figures of the requirements)", () => {
  it("matches 1/zeta(1.5) for many values and 1/n without skew", () => {
    // zeta(1.5) = 2.6123753... (Abramowitz & Stegun 23.3).
    expect(zipfShare(500_000_000, 1.5)).toBeCloseTo(1 / 2.6123753, 3);
    expect(zipfShare(200, 0)).toBe(1 / 200);
    // H(n, 1) ~ ln n + 0.5772156649 (Euler-Mascheroni) for large n.
    expect(1 / zipfShare(1e8, 1)).toBeCloseTo(Math.log(1e8) + 0.5772156649, 4);
    expect(zipfShare(3, 1)).toBeCloseTo(1 / (1 + 1 / 2 + 1 / 3), 12);
  });
});

describe("the requirements' search section", () => {
  it("lists the vector and full-text attributes and each search read of a workload that searches", () => {
    const workload = readExampleWorkload("support-assistant");
    const doc = renderRequirements(workload);
    const section = doc.slice(doc.indexOf("## Vector and Full-Text Search"));
    expect(section.startsWith("## Vector and Full-Text Search")).toBe(true);
    for (const entity of workload.entities)
      for (const attribute of entity.attributes)
        if (attribute.vector !== undefined)
          expect(section).toContain(
            `| ${entity.name}.${attribute.name} | vector | ${attribute.vector.dimensions.toLocaleString("en-US")} dimensions, ${attribute.vector.dataType}, ${attribute.vector.distance} distance |`,
          );
    const searches = workload.accessPatterns.filter((p) => p.type === "read" && p.search !== undefined);
    expect(searches.length).toBeGreaterThan(0);
    for (const pattern of searches) expect(section).toContain(`| ${pattern.id} | ${pattern.name} |`);
  });

  it("is left out when nothing is searched", () => {
    expect(renderRequirements(readExampleWorkload("blogging"))).not.toContain("Vector and Full-Text Search");
  });
});
