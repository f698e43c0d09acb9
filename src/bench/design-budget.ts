/**
 * The time and memory budget of issue 14: the largest workload the format allows in practice
 * (500 entities, 2,000 patterns) and every extreme input the issue lists run through the built CLI
 * (`design <workload>`, or `evaluate <workload> <model>` for the model extremes) in a child process
 * each, measured from outside: wall time (Node's start-up included) and peak RSS (the child's own
 * `resourceUsage().maxRSS`). Targets: each under 30 s and 1 GiB, ending with exit 0 (a design) or
 * 1 (an input or model error, reported), never a crash; children are killed at 60 s.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument } from "yaml";
import { generateWorkload } from "../design/generate-workload.js";
import { serializeWorkload } from "../workload/serialize-workload.js";
import type { Bench, BenchContext } from "./bench.js";
import { runMeasured } from "./measured-process.js";

const LIMIT_MS = 30_000;
const LIMIT_MIB = 1024;
const KILL_MS = 60_000;
const CLI = join(dirname(fileURLToPath(import.meta.url)), "..", "cli", "main.js");

type YamlDocument = ReturnType<typeof parseDocument>;
type Edit = (document: YamlDocument) => void;

interface BudgetCase {
  readonly name: string;
  /** The files the command reads, written to the bench's folder; the command's arguments. */
  files(context: BenchContext): Readonly<Record<string, string>>;
  readonly args: readonly string[];
}

/** A number too large for a double, as a user would type it (YAML reads it as Infinity). */
const TOO_LARGE = "1.8e308";

function edited(path: string, edit: Edit = () => undefined): string {
  const document = parseDocument(readFileSync(path, "utf8"));
  edit(document);
  return document.toString().replace(/["']?__TOO_LARGE__["']?/, TOO_LARGE);
}

/** `design` on an example workload with one edit. */
function designCase(name: string, example: string, edit: Edit): BudgetCase {
  return {
    name,
    files: (context) => ({
      "workload.yaml": edited(join(context.examplesDir, example, "workload.yaml"), edit),
    }),
    args: ["design", "workload.yaml"],
  };
}

/** `evaluate` of an example's expert model with one edit. */
function evaluateCase(name: string, example: string, edit: Edit): BudgetCase {
  return {
    name,
    files: (context) => ({
      "workload.yaml": readFileSync(join(context.examplesDir, example, "workload.yaml"), "utf8"),
      "model.yaml": edited(join(context.modelsDir, example, "expert-model.yaml"), edit),
    }),
    args: ["evaluate", "workload.yaml", "model.yaml"],
  };
}

/** The index of pattern `id` in the document's accessPatterns. */
function patternIndex(document: YamlDocument, id: string): number {
  const patterns = (document.toJS() as { accessPatterns?: { id?: string }[] }).accessPatterns ?? [];
  return patterns.findIndex((pattern) => pattern.id === id);
}

/**
 * Issue 26's shapes: one dashboard read of a hub with `entries` `with` entries (children read in
 * full, counted and newest-3, and parents' attributes, in turn), each child written; and a chain
 * of `depth` entities, each the parent of the next, every one read by its parent's key with the
 * parent's attribute and counted from above, at `patternsPerEntity` reads each.
 */
export function wideWithWorkload(entries: number): string {
  const hubAttributes = ["siteId: string", "name: string"];
  const entities: string[] = [];
  const relationships: string[] = [];
  const withs: string[] = [];
  const writes: string[] = [];
  for (let i = 0; i < entries; i++) {
    const kind = i % 4;
    if (kind === 3) {
      hubAttributes.push(`ref${i}Id: string`);
      entities.push(
        `  Ref${i}:\n    key: ref${i}Id\n    count: 5000\n    avgBytes: 300\n    attributes: { ref${i}Id: string, label: { type: string, changes: rare } }`,
      );
      relationships.push(`  - { parent: Ref${i}, child: Site, via: ref${i}Id, avg: 2 }`);
      withs.push(`Ref${i}.label`);
      continue;
    }
    entities.push(
      `  Item${i}:\n    key: item${i}Id\n    count: ${100_000 * (1 + (i % 7))}\n    growthPerMonth: ${2_628_000 * (1 + (i % 4))}\n    avgBytes: ${300 + 50 * (i % 9)}\n    attributes: { item${i}Id: string, siteId: string, at: datetime }`,
    );
    relationships.push(`  - { parent: Site, child: Item${i}, via: siteId, avg: ${5 + (i % 11)} }`);
    withs.push(kind === 0 ? `all(Item${i})` : kind === 1 ? `count(Item${i})` : `"latest(Item${i}, 3)"`);
    writes.push(
      `  - { id: W${i}, name: Add item ${i}, type: write, operation: create, entity: Item${i}, rps: { avg: ${1 + (i % 4)}, peak: ${5 + (i % 9)} } }`,
    );
  }
  return [
    "version: 1",
    `name: A dashboard with ${entries} with entries`,
    "entities:",
    `  Site:\n    key: siteId\n    count: 10000\n    avgBytes: 600\n    attributes: { ${hubAttributes.join(", ")} }`,
    ...entities,
    "relationships:",
    ...relationships,
    "accessPatterns:",
    `  - { id: D1, name: The site dashboard, type: read, entity: Site, where: { siteId: eq }, with: [${withs.join(", ")}], rps: { avg: 800, peak: 3000 } }`,
    "  - { id: C1, name: Open a site, type: write, operation: create, entity: Site, rps: { avg: 1, peak: 5 } }",
    ...writes,
    "",
  ].join("\n");
}

export function chainWorkload(depth: number, patternsPerEntity: number): string {
  const entities: string[] = [];
  const relationships: string[] = [];
  const patterns: string[] = [];
  for (let i = 0; i < depth; i++) {
    const parent = i === 0 ? "" : `, e${i - 1}Id: string`;
    entities.push(
      `  E${i}:\n    key: e${i}Id\n    count: ${1000 * 2 ** Math.min(i, 20)}\n    growthPerMonth: ${2_628_000}\n    avgBytes: ${400 + 40 * (i % 7)}\n    attributes: { e${i}Id: string, label: { type: string, changes: rare }, at: datetime${parent} }`,
    );
    if (i > 0) relationships.push(`  - { parent: E${i - 1}, child: E${i}, via: e${i - 1}Id, avg: 2 }`);
    patterns.push(
      `  - { id: C${i}, name: Create E${i}, type: write, operation: create, entity: E${i}, rps: { avg: 1, peak: 4 } }`,
    );
    for (let p = 0; p < patternsPerEntity; p++) {
      const by = i > 0 && p % 2 === 0 ? `e${i - 1}Id` : `e${i}Id`;
      const extra =
        i > 0 && p % 3 === 1
          ? `, with: [E${i - 1}.label]`
          : i + 1 < depth && p % 3 === 2
            ? `, with: [count(E${i + 1})]`
            : "";
      const order = by === `e${i}Id` ? "" : ", orderBy: { at: desc }, limit: 20";
      patterns.push(
        `  - { id: R${i}x${p}, name: Read E${i} way ${p}, type: read, entity: E${i}, where: { ${by}: eq }${order}${extra}, rps: { avg: ${10 + p}, peak: ${40 + 10 * p} } }`,
      );
    }
  }
  return [
    "version: 1",
    `name: A chain of ${depth} entities`,
    "entities:",
    ...entities,
    "relationships:",
    ...relationships,
    "accessPatterns:",
    ...patterns,
    "",
  ].join("\n");
}

const CASES: readonly BudgetCase[] = [
  {
    name: "a read with 50 with entries (issue 26)",
    files: () => ({ "workload.yaml": wideWithWorkload(50) }),
    args: ["design", "workload.yaml"],
  },
  {
    name: "a read with 120 with entries",
    files: () => ({ "workload.yaml": wideWithWorkload(120) }),
    args: ["design", "workload.yaml"],
  },
  {
    name: "a chain of 40 entities, 8 reads each",
    files: () => ({ "workload.yaml": chainWorkload(40, 8) }),
    args: ["design", "workload.yaml"],
  },
  {
    name: "500 entities, 2,000 patterns (generated)",
    files: () => ({ "workload.yaml": serializeWorkload(generateWorkload(500, { patterns: 2_000 })) }),
    args: ["design", "workload.yaml"],
  },
  designCase("blogging, count: 1e15 posts", "blogging", (d) => d.setIn(["entities", "Post", "count"], 1e15)),
  designCase("blogging, count: 1e13 posts", "blogging", (d) => d.setIn(["entities", "Post", "count"], 1e13)),
  designCase("blogging, horizonMonths: 1e9", "blogging", (d) => d.setIn(["scale", "horizonMonths"], 1e9)),
  designCase("blogging, a peak of 10,000,000 requests/s", "blogging", (d) =>
    d.setIn(["accessPatterns", 0, "rps", "peak"], 1e7),
  ),
  designCase("blogging, a peak of 1.8e308 requests/s", "blogging", (d) =>
    d.setIn(["accessPatterns", 0, "rps", "peak"], "__TOO_LARGE__"),
  ),
  designCase("blogging, a relationship average of 1e8", "blogging", (d) => {
    d.setIn(["relationships", 0, "avg"], 1e8);
    d.deleteIn(["relationships", 0, "max"]);
  }),
  designCase("blogging, growthPerMonth: 9007199254740992", "blogging", (d) =>
    d.setIn(["entities", "Post", "growthPerMonth"], 2 ** 53),
  ),
  designCase("iot-telemetry, Q5 with: [count(Reading)]", "iot-telemetry", (d) =>
    d.setIn(["accessPatterns", patternIndex(d, "Q5"), "with"], d.createNode(["count(Reading)"])),
  ),
  evaluateCase("blogging model, physicalPartitions: 1e9", "blogging", (d) =>
    d.setIn(["containers", 0, "physicalPartitions"], 1e9),
  ),
  evaluateCase("blogging model, replicas: 100000", "blogging", (d) =>
    d.setIn(["containers", 2, "items", 0, "replicas"], 100_000),
  ),
  evaluateCase('social-reactions model, partitionKey: ["{shard}"]', "social-reactions", (d) =>
    d.setIn(["containers", 0, "items", 0, "partitionKey"], d.createNode(["{shard}"])),
  ),
];

export const bench: Bench = {
  name: "time and memory budget (issue 14: 30 s and 1 GiB per command)",
  async run(context) {
    const lines: string[] = [];
    let missed = 0;
    for (const budgetCase of CASES) {
      const dir = mkdtempSync(join(tmpdir(), "design-budget-"));
      try {
        for (const [name, text] of Object.entries(budgetCase.files(context)))
          writeFileSync(join(dir, name), text);
        const args = budgetCase.args.map((arg) => (arg.endsWith(".yaml") ? join(dir, arg) : arg));
        const run = runMeasured(CLI, args, { timeoutMs: KILL_MS, stdout: false });
        const ended = run.timedOut
          ? `killed at ${KILL_MS / 1000} s`
          : run.status === null
            ? `died (${run.signal ?? "?"})`
            : `exit ${run.status}`;
        const ok =
          !run.timedOut &&
          (run.status === 0 || run.status === 1) &&
          run.wallMs < LIMIT_MS &&
          run.maxRssMiB !== undefined &&
          run.maxRssMiB < LIMIT_MIB;
        if (!ok) missed++;
        const firstError = run.status === 0 ? "" : ` — ${run.stderr.split("\n")[0]?.slice(0, 160) ?? ""}`;
        lines.push(
          `${ok ? "ok  " : "MISS"} ${budgetCase.name}: ${(run.wallMs / 1000).toFixed(1)} s, ${run.maxRssMiB === undefined ? "RSS unknown" : `${run.maxRssMiB.toFixed(0)} MiB`}, ${ended}${firstError}`,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    lines.push(
      `${CASES.length - missed} of ${CASES.length} within ${LIMIT_MS / 1000} s and ${LIMIT_MIB} MiB`,
      missed === 0 ? "targets met" : "targets MISSED",
    );
    return { passed: missed === 0, ran: true, report: lines.join("\n") };
  },
};
