/**
 * The data model document of every example (designed with `designModel`; its golden files are
 * those of `design --out`, src/deliverables/golden.test.ts):
 * every access pattern in the mapping, sample items that validate against their item type,
 * validation marks that follow the evaluation, and user text that cannot break the Markdown.
 */
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { MAX_PHYSICAL_PARTITION_RUS } from "../cosmos/limits.js";
import { DEFAULT_PRICES } from "../cosmos/prices.js";
import type { Evaluation } from "../cost/evaluation-types.js";
import { designModel, type DesignResult } from "../design/design-model.js";
import { DEFAULT_RU_COEFFICIENTS } from "../estimator/coefficients.js";
import { effectiveItemType } from "../model/materialize-item.js";
import type { Container, ItemType, Model } from "../model/types.js";
import { designedExample } from "../test-support/designed-examples.js";
import { EXAMPLE_NAMES, readExampleWorkload } from "../test-support/model-examples.js";
import type { AttributeType, Workload } from "../workload/types.js";
import { MAX_SAMPLE_ITEMS, MIN_SAMPLE_ITEMS, pickSamples, renderDataModel } from "./data-model.js";
import { formatNumber } from "./markdown.js";

interface Designed {
  readonly workload: Workload;
  readonly design: DesignResult;
  readonly doc: string;
}

// designModel takes up to a few seconds per example: each is designed once per process
// (src/test-support/designed-examples.ts, shared with the other test files) and rendered once here.
const documents = new Map<string, Designed>();
function designed(name: string): Designed {
  let found = documents.get(name);
  if (found === undefined) {
    const { workload, design } = designedExample(name);
    const doc = renderDataModel(workload, design.model, design.evaluation, design.decisions, {
      baseline: design.baseline,
    });
    found = { workload, design, doc };
    documents.set(name, found);
  }
  return found;
}

/** The lines of a `## ` section, up to the next `## ` heading. */
function section(doc: string, heading: string): string[] {
  const lines = doc.split("\n");
  const start = lines.findIndex((line) => line === heading);
  if (start < 0) throw new Error(`no section ${heading}`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith("## "));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Cells of a table row, split on unescaped pipes. */
function cellsOf(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

/** The JSON sample block of each `### <name> Container` section. */
function sampleBlocks(doc: string): Map<string, unknown[]> {
  const blocks = new Map<string, unknown[]>();
  const lines = section(doc, "## Container Designs");
  for (let i = 0; i < lines.length; i++) {
    const heading = /^### (.*) Container$/.exec(lines[i] ?? "");
    if (heading === null) continue;
    const open = lines.findIndex((line, index) => index > i && /^`{3,}json$/.test(line));
    const fence = (lines[open] ?? "").replace(/json$/, "");
    const close = lines.findIndex((line, index) => index > open && line === fence);
    blocks.set(heading[1] ?? "", JSON.parse(lines.slice(open + 1, close).join("\n")) as unknown[]);
  }
  return blocks;
}

function typeMatches(type: AttributeType, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "datetime":
      return typeof value === "string" && !Number.isNaN(Date.parse(value.replace(/…$/, "")));
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    default:
      return type satisfies never;
  }
}

/**
 * Problems of a sample item against its item type: id, type and partition key properties
 * present; the entity's attributes (or the projection) present with their declared JSON types,
 * nothing outside the projection; truncated attributes within their byte limit.
 */
function itemProblems(
  workload: Workload,
  model: Model,
  container: Container,
  stored: ItemType,
  item: Record<string, unknown>,
): string[] {
  const problems: string[] = [];
  const shape = effectiveItemType(stored, model);
  const entity = workload.entities.find((x) => x.name === shape.entity);
  if (entity === undefined) return [`no entity ${shape.entity}`];
  if (typeof item["id"] !== "string" || item["id"] === "") problems.push("id missing");
  if (item["type"] !== stored.type) problems.push(`type ${String(item["type"])}`);
  for (const path of container.partitionKey) {
    let value: unknown = item;
    for (const segment of path.slice(1).split("/")) value = (value as Record<string, unknown>)[segment];
    if (value === undefined || value === null) problems.push(`partition key ${path} missing`);
  }
  const expected = entity.attributes.filter(
    (a) => shape.select === undefined || shape.select.includes(a.name),
  );
  const records =
    stored.bucket === undefined ? [item] : ((item["records"] as Record<string, unknown>[] | undefined) ?? []);
  if (records.length === 0) problems.push("bucket without records");
  const keyProps = new Set(container.partitionKey.map((p) => p.slice(1)));
  for (const record of records) {
    for (const attribute of expected) {
      if (stored.bucket === undefined && (attribute.name === "id" || keyProps.has(attribute.name))) continue;
      const value = record[attribute.name];
      if (value === undefined) problems.push(`${attribute.name} missing`);
      else if (value !== null && !typeMatches(attribute.type, value))
        problems.push(`${attribute.name} is not a ${attribute.type}: ${JSON.stringify(value)}`);
    }
    for (const cut of shape.truncate) {
      const value = record[cut.attribute];
      if (typeof value === "string" && !value.endsWith("…") && Buffer.byteLength(value) > cut.bytes)
        problems.push(`${cut.attribute} longer than ${cut.bytes} bytes`);
    }
    if (shape.select !== undefined) {
      const others = entity.attributes.filter((a) => !(shape.select ?? []).includes(a.name));
      for (const attribute of others) {
        if (attribute.name in record && !keyProps.has(attribute.name) && attribute.name !== "id")
          problems.push(`${attribute.name} stored outside the projection`);
      }
    }
  }
  for (const copy of shape.copies) if (!(copy.as in item)) problems.push(`copy ${copy.as} missing`);
  for (const counter of shape.counts)
    if (typeof item[counter.as] !== "number") problems.push(`counter ${counter.as} missing`);
  for (const embed of shape.embeds) {
    const child = workload.entities.find((x) => x.name === embed.entity);
    const value = item[embed.as];
    const children = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
    if (!(embed.as in item)) problems.push(`embed ${embed.as} missing`);
    for (const entry of children as Record<string, unknown>[]) {
      for (const key of child?.key ?? []) {
        if (entry[key] === undefined) problems.push(`${embed.as} entry without ${key}`);
      }
    }
  }
  return problems;
}

describe.each(EXAMPLE_NAMES)("the data model document of %s", (name) => {
  it("has every section of the expert template, in order", () => {
    const headings = designed(name)
      .doc.split("\n")
      .filter((line) => line.startsWith("## "));
    expect(headings).toEqual([
      "## Design Philosophy & Approach",
      "## Aggregate Design Decisions",
      "## Container Designs",
      "## Access Pattern Mapping",
      "## Hot Partition Analysis",
      "## Trade-offs and Optimizations",
      "## Global Distribution Strategy",
      "## Cost",
      "## Validation Results 🔴",
      "## Diagram",
    ]);
  });

  it("maps every access pattern, reads and writes, once", () => {
    const { workload, doc } = designed(name);
    const rows = section(doc, "## Access Pattern Mapping").filter((line) => line.startsWith("| `"));
    const ids = rows.map((row) => (cellsOf(row)[0] ?? "").replace(/`/g, ""));
    expect(ids).toEqual(workload.accessPatterns.map((p) => p.id));
    for (const row of rows) expect(cellsOf(row)).toHaveLength(8);
  });

  it("shows each pattern's charge and RU/s as the evaluation computed them", () => {
    const { design, doc } = designed(name);
    const rows = section(doc, "## Access Pattern Mapping").filter((line) => line.startsWith("| `"));
    const number = (value: number): string => value.toLocaleString("en-US", { maximumFractionDigits: 0 });
    design.evaluation.patterns.forEach((pattern, index) => {
      const cells = cellsOf(rows[index] ?? "");
      // RU per request: estimate then (low-high); RU/s: average and peak, rounded when 100 or more.
      const [estimate, low, high] = /^(\S+) RU \((\S+)-(\S+)\)/.exec(cells[5] ?? "")?.slice(1) ?? [];
      const parse = (text: string | undefined): number =>
        Number((text ?? "").replace(/,/g, "").replace("<", ""));
      expect(parse(estimate)).toBeCloseTo(pattern.ru.estimate, pattern.ru.estimate >= 100 ? -1 : 0);
      expect(parse(low)).toBeLessThanOrEqual(parse(estimate));
      expect(parse(high)).toBeGreaterThanOrEqual(parse(estimate));
      if (pattern.rus.peak >= 100) expect(cells[6]).toContain(`${number(pattern.rus.peak)} RU/s peak`);
    });
  });

  it("shows 5-10 sample items per container that validate against their item type", () => {
    const { workload, design, doc } = designed(name);
    const blocks = sampleBlocks(doc);
    expect([...blocks.keys()]).toEqual(design.model.containers.map((c) => c.name));
    for (const container of design.model.containers) {
      const items = blocks.get(container.name) ?? [];
      expect(items.length, container.name).toBeGreaterThanOrEqual(MIN_SAMPLE_ITEMS);
      expect(items.length, container.name).toBeLessThanOrEqual(MAX_SAMPLE_ITEMS);
      // Every item type shows when there is room for it.
      const types = new Set(items.map((item) => (item as Record<string, unknown>)["type"]));
      expect(types.size, container.name).toBe(Math.min(container.items.length, MAX_SAMPLE_ITEMS));
      for (const raw of items) {
        const item = raw as Record<string, unknown>;
        const stored = container.items.find((i) => i.type === item["type"]);
        expect(stored, `${container.name}: type ${String(item["type"])}`).toBeDefined();
        if (stored === undefined) continue;
        expect(itemProblems(workload, design.model, container, stored, item), JSON.stringify(item)).toEqual(
          [],
        );
      }
    }
  });

  it("gives each container its indexing policy as Cosmos DB JSON, and the total cost of the evaluation", () => {
    const { design, doc } = designed(name);
    const lines = doc.split("\n");
    for (const container of design.model.containers) {
      const at = lines.indexOf(`#### Indexing Strategy of ${container.name}`);
      expect(at, container.name).toBeGreaterThan(0);
      const open = lines.indexOf("```json", at);
      const close = lines.indexOf("```", open + 1);
      const policy = JSON.parse(lines.slice(open + 1, close).join("\n")) as Record<string, unknown>;
      expect(policy["indexingMode"]).toBe("consistent");
      expect(Array.isArray(policy["includedPaths"])).toBe(true);
      const paths = [
        ...(policy["includedPaths"] as { path: string }[]),
        ...(policy["excludedPaths"] as { path: string }[]),
      ].map((p) => p.path);
      // Cosmos DB requires the root path to be included or excluded.
      expect(
        paths.some((p) => p === "/*" || p === "/"),
        container.name,
      ).toBe(true);
    }
    const total = `$${design.evaluation.totals.monthlyCostUSD.toLocaleString("en-US", {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    })}`;
    expect(section(doc, "## Cost").find((line) => line.startsWith("| **Total**"))).toContain(`**${total}**`);
  });
});

describe("renderDataModel validation results", () => {
  const validation = (evaluation: Evaluation): string[] => {
    const { workload, design } = designed("blogging");
    return section(
      renderDataModel(workload, design.model, evaluation, design.decisions),
      "## Validation Results 🔴",
    );
  };
  const line = (lines: readonly string[], text: string): string =>
    lines.find((l) => l.includes(text)) ?? `(no line with ${text})`;

  it("passes the checks a clean evaluation passes", () => {
    const { design } = designed("blogging");
    const lines = validation({ ...design.evaluation, issues: [] });
    expect(line(lines, "No item over 2 MiB")).toMatch(/^- \[x\] ✅/);
    expect(line(lines, "Every access pattern is served")).toMatch(/^- \[x\] ✅ .*10 of 10/);
    expect(line(lines, "No logical partition over 20 GB")).toMatch(/^- \[x\] ✅/);
  });

  it("fails the checks whose issues the evaluation reports", () => {
    const { design } = designed("blogging");
    const patterns = design.evaluation.patterns.map((p, index) =>
      index === 0 ? { ...p, plan: { ...p.plan, served: false } } : p,
    );
    const containers = design.evaluation.containers.map((c, index) =>
      index === 0
        ? {
            ...c,
            hottestLogicalPartition: { ...c.hottestLogicalPartition, rus: 12_345, storageGB: 25 },
            limits: {
              ...c.limits,
              hottestLogicalPartitionRus: {
                ...c.limits.hottestLogicalPartitionRus,
                value: 12_345,
                share: 1.2345,
                status: "over" as const,
              },
              largestLogicalPartitionGB: {
                ...c.limits.largestLogicalPartitionGB,
                value: 25,
                share: 1.25,
                status: "over" as const,
              },
            },
          }
        : c,
    );
    const lines = validation({
      ...design.evaluation,
      patterns,
      containers,
      issues: [
        {
          code: "evaluate.itemTooLarge",
          container: "posts",
          itemType: "post",
          bytes: 3_000_000,
          severity: "error",
          path: ["containers", "posts", "items", "post"],
          message: "evaluate.itemTooLarge",
        },
        {
          code: "evaluate.hotPartition",
          container: "users",
          rusPeak: 12_345,
          severity: "error",
          path: ["containers", "users"],
          message: "evaluate.hotPartition",
        },
        {
          code: "evaluate.logicalPartitionTooLarge",
          container: "users",
          storageGB: 25,
          severity: "error",
          path: ["containers", "users"],
          message: "evaluate.logicalPartitionTooLarge",
        },
        {
          code: "evaluate.patternNotServed",
          pattern: "Q1",
          severity: "error",
          path: ["accessPatterns", 0],
          message: "evaluate.patternNotServed",
        },
      ],
    });
    expect(line(lines, "No item over 2 MiB")).toMatch(/^- \[ \] ❌/);
    expect(
      line(lines, `No logical partition over ${MAX_PHYSICAL_PARTITION_RUS.toLocaleString("en-US")} RU/s`),
    ).toMatch(/^- \[ \] ❌ .*12,345 RU\/s/);
    expect(line(lines, "No logical partition over 20 GB")).toMatch(/^- \[ \] ❌ .*25 GB/);
    expect(line(lines, "Every access pattern is served")).toMatch(/^- \[ \] ❌ .*9 of 10.*not served: C1/);
    expect(lines.filter((l) => l.startsWith("| error |"))).toHaveLength(4);
  });

  it("lists the fan-outs with their charge", () => {
    const { workload, design } = designed("social-reactions");
    const lines = section(
      renderDataModel(workload, design.model, design.evaluation, design.decisions),
      "## Validation Results 🔴",
    );
    const fanOuts = design.evaluation.patterns.filter((p) => p.fanOut).map((p) => p.id);
    const fanOutLine = line(lines, "fan out over every physical partition");
    if (fanOuts.length === 0) expect(fanOutLine).toMatch(/^- \[x\] ✅/);
    else {
      expect(fanOutLine).toMatch(/^- \[ \] ⚠️/);
      for (const id of fanOuts) expect(fanOutLine).toContain(id);
    }
  });
});

describe("pickSamples", () => {
  const container = (types: number): Container => ({
    name: "c",
    partitionKey: ["/pk"],
    uniqueKeys: [],
    indexing: { kind: "automatic" },
    items: Array.from({ length: types }, (_, i) => ({
      type: `t${i}`,
      entity: `E${i}`,
      id: "{id}",
      partitionKey: ["{pk}"],
      truncate: [],
      embeds: [],
      copies: [],
      counts: [],
    })),
  });
  const items = (type: string, count: number): Record<string, unknown>[] =>
    Array.from({ length: count }, (_, i) => ({ id: `${type}-${i}`, type, list: [1, 2, 3, 4, 5] }));

  it("alternates item types, shows every type, and keeps 5-10 items", () => {
    const picked = pickSamples(container(2), [items("t0", 20), items("t1", 20)]);
    expect(picked.map((i) => i["type"])).toEqual(["t0", "t1", "t0", "t1", "t0", "t1"]);
    const many = pickSamples(
      container(12),
      Array.from({ length: 12 }, (_, i) => items(`t${i}`, 3)),
    );
    expect(many).toHaveLength(MAX_SAMPLE_ITEMS);
  });

  it("fills up from the types that have more items, and shortens arrays", () => {
    const picked = pickSamples(container(2), [items("t0", 1), items("t1", 20)]);
    expect(picked.map((i) => i["type"])).toEqual(["t0", "t1", "t1", "t1", "t1", "t1"]);
    expect(picked[0]?.["list"]).toEqual([1, 2, 3]);
    expect(pickSamples(container(1), [items("t0", 2)])).toHaveLength(2);
  });
});

describe("renderDataModel prices", () => {
  it("shows the date, region and rates of the prices it is given", () => {
    const { workload, design } = designed("accounts-sessions");
    const prices = {
      ...DEFAULT_PRICES,
      checked: "2027-01-31",
      region: "West Europe",
      storagePerGBMonth: 0.3,
    };
    const cost = section(
      renderDataModel(workload, design.model, design.evaluation, design.decisions, { prices }),
      "## Cost",
    ).join("\n");
    expect(cost).toContain("West Europe prices (USD, checked 2027-01-31)");
    expect(cost).toContain("storage $0.30 per GB-month per region");
    expect(cost).toContain("manual throughput $0.008 per 100 RU/s per hour");
  });
});

describe("renderDataModel escaping", () => {
  /** The lines outside fenced code blocks (a fence shows its content literally). */
  const proseOf = (doc: string): string[] => {
    let fence: string | undefined;
    const prose: string[] = [];
    for (const l of doc.split("\n")) {
      const opening = /^(`{3,})/.exec(l);
      if (fence === undefined && opening !== null) fence = opening[1];
      else if (fence !== undefined && l === fence) fence = undefined;
      else if (fence === undefined) prose.push(l);
    }
    return prose;
  };
  /** Code spans show their content literally (GFM): only the text around them can hold HTML. */
  const withoutCodeSpans = (text: string): string => text.replace(/(?<!\\)(`+)([\s\S]*?[^`])\1(?!`)/g, "");
  /** Every table keeps its column count on every row. */
  const expectTablesIntact = (prose: readonly string[]): void => {
    let tables = 0;
    for (let i = 0; i < prose.length; i++) {
      const row = prose[i] ?? "";
      if (!row.startsWith("|") || (prose[i - 1] ?? "").startsWith("|")) continue;
      tables += 1;
      const width = cellsOf(row).length;
      for (let j = i; j < prose.length && (prose[j] ?? "").startsWith("|"); j++) {
        expect(cellsOf(prose[j] ?? ""), `row ${j}: ${prose[j]}`).toHaveLength(width);
      }
    }
    expect(tables).toBeGreaterThanOrEqual(5);
  };
  const HOSTILE = "Evil|Name `x` <script>alert(1)</script>\n# Injected heading";
  const hostile = (): Workload => {
    const base = readExampleWorkload("blogging");
    return {
      ...base,
      name: HOSTILE,
      description: HOSTILE,
      domain: HOSTILE,
      scale: { ...base.scale, regions: 2, regionNames: ["westus|<b>", "east`us\n## x"] },
      accessPatterns: base.accessPatterns.map((p, index) => ({
        ...p,
        id: index === 0 ? "C|1`\n<i>" : p.id,
        name: `${p.name} ${HOSTILE}`,
      })),
    };
  };

  it("keeps tables intact and lets no HTML or heading through", () => {
    const workload = hostile();
    const design = designModel(workload);
    const doc = renderDataModel(workload, design.model, design.evaluation, design.decisions, {
      baseline: design.baseline,
    });
    const prose = proseOf(doc);
    const text = withoutCodeSpans(prose.join("\n"));
    expect(text).not.toMatch(/(?<!\\)<(script|b>|i>)/i);
    expect(text).toContain("\\<script\\>");
    // No HTML entity in the Markdown text, and a Markdown renderer makes no element of the user's.
    expect(text).not.toMatch(/&(lt|gt|quot|amp|#39);/);
    expect(marked.parse(doc, { async: false })).not.toMatch(/<(script|b|i)>/i);
    expect(prose.some((l) => l.startsWith("# Injected") || l.startsWith("## x"))).toBe(false);
    expect(prose.filter((l) => l.startsWith("# "))).toHaveLength(1);
    expectTablesIntact(prose);
    // The hostile id is still mapped, escaped, in its row.
    const mapping = section(doc, "## Access Pattern Mapping").filter((l) => l.startsWith("| `"));
    expect(mapping).toHaveLength(workload.accessPatterns.length);
  });

  it("escapes entity, item type and container names that come from the user", () => {
    const base = readExampleWorkload("blogging");
    const evil = "User|<b>`x`\n# H";
    const rename = (name: string): string => (name === "User" ? evil : name);
    const workload: Workload = {
      ...base,
      entities: base.entities.map((entity) => ({ ...entity, name: rename(entity.name) })),
      relationships: base.relationships.map((r) => ({
        ...r,
        parent: rename(r.parent),
        child: rename(r.child),
      })),
      accessPatterns: base.accessPatterns.map((p) =>
        p.type === "read"
          ? { ...p, entity: rename(p.entity), with: p.with.map((w) => ({ ...w, entity: rename(w.entity) })) }
          : { ...p, entity: rename(p.entity) },
      ),
    };
    const design = designModel(workload);
    expect(design.model.containers.flatMap((c) => c.items.map((i) => i.type))).toContain("user|<b>`x`\n# H");
    const doc = renderDataModel(workload, design.model, design.evaluation, design.decisions);
    const prose = proseOf(doc);
    expect(withoutCodeSpans(prose.join("\n"))).not.toMatch(/(?<!\\)<b>/);
    expect(marked.parse(doc, { async: false })).not.toMatch(/<b>/);
    expect(prose.some((l) => l.startsWith("# H"))).toBe(false);
    expectTablesIntact(prose);
  });
});

describe("renderDataModel hot partition analysis", () => {
  it("says the band's top of the coefficients the evaluation used, never a fixed figure", () => {
    const { workload, design } = designed("blogging");
    const sentence = (evaluation: Evaluation): string =>
      section(
        renderDataModel(workload, design.model, evaluation, design.decisions),
        "## Hot Partition Analysis",
      ).find((line) => line.includes("measured band")) ?? "";
    const top = Math.max(DEFAULT_RU_COEFFICIENTS.bands.read.high, DEFAULT_RU_COEFFICIENTS.bands.insert.high);
    expect(sentence(design.evaluation)).toContain(`reaches ${formatNumber(top, 2)} times the estimate`);
    const wide = {
      ...DEFAULT_RU_COEFFICIENTS,
      bands: { ...DEFAULT_RU_COEFFICIENTS.bands, insert: { low: 0.5, high: 1.9 } },
    };
    const calibrated = { ...design.evaluation, requestCharges: { source: "test", coefficients: wide } };
    expect(sentence(calibrated)).toContain("reaches 1.9 times the estimate");
  });
});
