/**
 * Bench: the three models of the blogging case study (test/fixtures/examples/blogging/model-v1.yaml
 * ... model-v3.yaml) evaluated and compared, request by request, with the charges the article
 * measured (bench/data/blogging-case-study.json). Targets (issue 3): single-partition
 * requests within 25% of the article, fan-out requests within a factor of 2, and total RU/s at
 * peak V3 < V2 < V1. V1 follow-ups are costed one request per returned item, as the article ran
 * them; the default (`cheapest`) figures are printed too.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { evaluateModel } from "../cost/evaluate.js";
import { formatIssue } from "../common/issues.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import type { Bench } from "./bench.js";
import { CASE_STUDY_FILE } from "./calibration-rows.js";

export const CASE_STUDY_VERSIONS = ["v1", "v2", "v3"] as const;
export type CaseStudyVersion = (typeof CASE_STUDY_VERSIONS)[number];

/** Targets of issue 3: |estimate / article - 1| <= 25% for single-partition requests; within 2x for fan-out. */
export const CASE_STUDY_TARGETS = { singlePartition: 0.25, fanOutFactor: 2 } as const;

/** One measured request of the article. */
export interface CaseStudyMeasurement {
  readonly request: string;
  readonly version: CaseStudyVersion;
  readonly ru: number;
  readonly fanOut: boolean;
}

/**
 * Rows whose article charge measures something else than the request our model plans, so the
 * target cannot apply; each with the reason. The test asserts the list is exactly these rows.
 */
export const CASE_STUDY_EXCLUSIONS: readonly {
  readonly version: CaseStudyVersion;
  readonly request: string;
  readonly reason: string;
}[] = [
  ...(["v2", "v3"] as const).flatMap((version) => [
    {
      version,
      request: "C3",
      reason:
        "the article runs a stored procedure (read the post, replace it with the counter incremented, create the comment); the model plans a transactional batch (create + patch), a different operation",
    },
    {
      version,
      request: "C4",
      reason:
        "the article runs a stored procedure (read the post, replace it with the counter incremented, create the like); the model plans a transactional batch (create + patch), a different operation",
    },
    {
      version,
      request: "Q4",
      reason:
        "the article's 7.72 RU for a post's comments exceeds its own 6.46 RU (V3 Q3) for 27.5 larger short posts: its test post had more than the workload's 12.5 comments, so the estimate is about 40% lower",
    },
  ]),
];

export interface ComparedRequest {
  readonly version: CaseStudyVersion;
  readonly request: string;
  readonly articleRU: number;
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  /** estimate / article. */
  readonly ratio: number;
  readonly fanOut: boolean;
  readonly within: boolean;
  /** Why the target does not apply, for excluded rows. */
  readonly excluded?: string;
}

export interface ComparedVersion {
  readonly version: CaseStudyVersion;
  readonly followUps: "cheapest" | "perItem";
  readonly requests: readonly ComparedRequest[];
  readonly totalPeakRus: number;
  readonly totalAvgRus: number;
  readonly monthlyCostUSD: number;
  /** Error issues of the evaluation (formatted). */
  readonly errors: readonly string[];
}

/** Whether `ratio` (estimate / article) meets the target of its kind of request. */
export function meetsCaseStudyTarget(ratio: number, fanOut: boolean): boolean {
  return fanOut
    ? ratio >= 1 / CASE_STUDY_TARGETS.fanOutFactor && ratio <= CASE_STUDY_TARGETS.fanOutFactor
    : Math.abs(ratio - 1) <= CASE_STUDY_TARGETS.singlePartition;
}

/** Parses blogging-case-study.json into its measured requests. */
export function parseCaseStudy(text: string): CaseStudyMeasurement[] {
  const raw = JSON.parse(text) as { rows?: unknown };
  if (!Array.isArray(raw.rows)) throw new Error(`${CASE_STUDY_FILE}: no rows`);
  return raw.rows.map((row: unknown, index) => {
    const r = row as Record<string, unknown>;
    const version = r["version"];
    if (
      typeof r["request"] !== "string" ||
      typeof r["ru"] !== "number" ||
      !CASE_STUDY_VERSIONS.some((v) => v === version)
    ) {
      throw new Error(`${CASE_STUDY_FILE}: rows[${index}] is not {request, version: v1|v2|v3, ru}`);
    }
    return {
      request: r["request"],
      version: version as CaseStudyVersion,
      ru: r["ru"],
      fanOut: r["fanOut"] === true,
    };
  });
}

/** Evaluates one model of the case study and compares each of its requests with the article (pure). */
export function compareCaseStudyVersion(
  version: CaseStudyVersion,
  workload: Workload,
  model: Model,
  measurements: readonly CaseStudyMeasurement[],
  followUps: "cheapest" | "perItem",
): ComparedVersion {
  const evaluation = evaluateModel(workload, model, { followUps });
  const requests = measurements
    .filter((row) => row.version === version)
    .map((row): ComparedRequest => {
      const pattern = evaluation.patterns.find((p) => p.id === row.request);
      if (pattern === undefined) throw new Error(`the workload has no access pattern ${row.request}`);
      const ratio = pattern.ru.estimate / row.ru;
      const exclusion = CASE_STUDY_EXCLUSIONS.find((e) => e.version === version && e.request === row.request);
      return {
        version,
        request: row.request,
        articleRU: row.ru,
        estimate: pattern.ru.estimate,
        low: pattern.ru.low,
        high: pattern.ru.high,
        ratio,
        fanOut: row.fanOut,
        within: meetsCaseStudyTarget(ratio, row.fanOut),
        ...(exclusion === undefined ? {} : { excluded: exclusion.reason }),
      };
    });
  return {
    version,
    followUps,
    requests,
    totalPeakRus: evaluation.totals.rus.peak,
    totalAvgRus: evaluation.totals.rus.avg,
    monthlyCostUSD: evaluation.totals.monthlyCostUSD,
    errors: evaluation.issues.filter((i) => i.severity === "error").map((i) => formatIssue(i)),
  };
}

/** How the article ran each version's follow-ups: V1 one request per returned item. */
export function caseStudyFollowUps(version: CaseStudyVersion): "cheapest" | "perItem" {
  return version === "v1" ? "perItem" : "cheapest";
}

/** True when total RU/s at peak decrease from V1 to V3 (the article's conclusion). */
export function totalsDecrease(versions: readonly ComparedVersion[]): boolean {
  const peak = (version: CaseStudyVersion): number =>
    versions.find((v) => v.version === version)?.totalPeakRus ?? Number.NaN;
  return peak("v3") < peak("v2") && peak("v2") < peak("v1");
}

/** Requests that miss their target and are not excluded. */
export function missedRequests(versions: readonly ComparedVersion[]): ComparedRequest[] {
  return versions.flatMap((v) => v.requests.filter((r) => !r.within && r.excluded === undefined));
}

function formatVersion(compared: ComparedVersion): string {
  const header = ["request", "article RU", "estimate", "[low, high]", "ratio", "target", "within?"];
  const body = compared.requests.map((r) => [
    r.request,
    r.articleRU.toFixed(2),
    r.estimate.toFixed(2),
    `[${r.low.toFixed(2)}, ${r.high.toFixed(2)}]`,
    r.ratio.toFixed(2),
    r.fanOut ? "2x (fan-out)" : "25%",
    r.excluded !== undefined ? `excluded (${r.within ? "yes" : "no"})` : r.within ? "yes" : "NO",
  ]);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...body.map((line) => (line[column] ?? "").length)),
  );
  const format = (line: readonly string[]): string =>
    line
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  const lines = [
    `${compared.version} (follow-ups: ${compared.followUps})`,
    format(header),
    ...body.map(format),
    `total: ${Math.round(compared.totalAvgRus).toLocaleString("en-US")} RU/s average, ${Math.round(compared.totalPeakRus).toLocaleString("en-US")} RU/s at peak, $${compared.monthlyCostUSD.toFixed(2)} per month`,
  ];
  for (const error of compared.errors) lines.push(`  ${error}`);
  return lines.join("\n");
}

async function loadVersion(modelsDir: string, workload: Workload, version: CaseStudyVersion): Promise<Model> {
  const file = join(modelsDir, "blogging", `model-${version}.yaml`);
  const result = loadModel(await readFile(file, "utf8"), { file, workload });
  if (!result.ok) throw new Error(result.issues.map((i) => formatIssue(i)).join("\n"));
  return result.value;
}

export const bench: Bench = {
  name: "Blogging case study: evaluate V1-V3 vs the article's measured charges",
  async run({ dataDir, examplesDir, modelsDir }) {
    const workloadFile = join(examplesDir, "blogging", "workload.yaml");
    const caseStudyFile = join(dataDir, CASE_STUDY_FILE);
    const modelFiles = CASE_STUDY_VERSIONS.map((version) =>
      join(modelsDir, "blogging", `model-${version}.yaml`),
    );
    const missing = [workloadFile, caseStudyFile, ...modelFiles].filter((file) => !existsSync(file));
    if (missing.length > 0)
      return { ran: false, passed: true, report: `skipped: ${missing.join(", ")} not found` };
    const loaded = loadWorkload(await readFile(workloadFile, "utf8"), { file: workloadFile });
    if (!loaded.ok) throw new Error(loaded.issues.map((i) => formatIssue(i)).join("\n"));
    const workload = loaded.value;
    const measurements = parseCaseStudy(await readFile(caseStudyFile, "utf8"));
    const versions: ComparedVersion[] = [];
    const lines: string[] = [];
    for (const version of CASE_STUDY_VERSIONS) {
      const model = await loadVersion(modelsDir, workload, version);
      const compared = compareCaseStudyVersion(
        version,
        workload,
        model,
        measurements,
        caseStudyFollowUps(version),
      );
      versions.push(compared);
      lines.push(formatVersion(compared), "");
      if (compared.followUps !== "cheapest") {
        const cheapest = compareCaseStudyVersion(version, workload, model, measurements, "cheapest");
        lines.push(
          `${formatVersion(cheapest)}\n  (for information: the targets apply to the per-item figures)`,
          "",
        );
      }
    }
    lines.push("exclusions:");
    for (const e of CASE_STUDY_EXCLUSIONS) lines.push(`  ${e.version} ${e.request}: ${e.reason}`);
    const missed = missedRequests(versions);
    const decreasing = totalsDecrease(versions);
    lines.push("");
    lines.push(
      `total RU/s at peak: ${versions.map((v) => `${v.version} ${Math.round(v.totalPeakRus).toLocaleString("en-US")}`).join(", ")}; V3 < V2 < V1: ${decreasing ? "yes" : "NO"}`,
    );
    lines.push(
      missed.length === 0
        ? "every request that is not excluded meets its target"
        : `missed: ${missed.map((r) => `${r.version} ${r.request} (ratio ${r.ratio.toFixed(2)})`).join(", ")}`,
    );
    const passed = decreasing && missed.length === 0;
    lines.push(passed ? "targets met" : "TARGETS MISSED");
    return { ran: true, passed, report: lines.join("\n") };
  },
};
