/**
 * The calibration set of the RU model: measured charges of single operations from
 * bench/data, as estimator inputs plus the measured charge. Pure: callers read the files.
 */
import type { Operation } from "./operation.js";
import { validateOperation } from "./validate-operation.js";
import { formatIssue } from "../common/issues.js";

/**
 * How a row's charge is known:
 * - `measured`: a charge a request returned, as its author reported it;
 * - `lab-observed`: the charge a lab's instructions say the run printed;
 * - `documented-table`, `documented-average`, `documented-example`: figures Microsoft publishes
 *   in a cost table, as an average, or in a worked example (rounded, how obtained not said).
 * Leave-one-source-out accuracy is judged on measurements (`measured`, `lab-observed`); the
 * documented figures stay in the fit, the only anchors there are for large items.
 */
export type Evidence =
  "measured" | "lab-observed" | "documented-table" | "documented-average" | "documented-example";

const EVIDENCE: readonly Evidence[] = [
  "measured",
  "lab-observed",
  "documented-table",
  "documented-average",
  "documented-example",
];

/** Whether a row's charge was measured (not a documented figure). */
export function isMeasurement(row: CalibrationRow): boolean {
  return row.evidence === "measured" || row.evidence === "lab-observed";
}

/** One measured operation. */
export interface CalibrationRow {
  /**
   * Where the row is kept, as coefficients.ts cites it: `ru-measurements.jsonl:<line>` or
   * `blogging-case-study.json:<version> <request>` (absent for a user's recording).
   */
  readonly id?: string;
  readonly operation: Operation;
  readonly measuredRU: number;
  readonly scenario: string;
  /** The page, issue or file the figure was published in (full address). */
  readonly source: string;
  readonly evidence: Evidence;
  /**
   * For a transaction measured beside the same operations run directly: their charge, so the
   * row checks only what the transaction adds (the items' sizes are not published).
   */
  readonly directRU?: number;
  /** Rows the estimator does not model, kept with their reason (`calibration: false`). */
  readonly outOfModel?: string;
  /**
   * The source group the row is held out with (the page or repository it came from: rows of
   * one group share an account, an item shape and a way of measuring). Without it, the source
   * address less its anchor stands for the group (a user's recording).
   */
  readonly sourceGroup?: string;
  /** The row belongs to the held-out split: never fitted on, only estimated (bench data). */
  readonly heldOut?: boolean;
}

/** The splits of the bench data: rows the coefficients are fitted on, and rows they never see. */
export type Split = "calibration" | "held-out";
const SPLITS: readonly Split[] = ["calibration", "held-out"];

/** The files the calibration set is read from, in bench/data. */
export const MEASUREMENTS_FILE = "ru-measurements.jsonl";
export const CASE_STUDY_FILE = "blogging-case-study.json";

/**
 * Parses ru-measurements.jsonl: one operation per line with `measuredRU`, `scenario`, `source`,
 * `evidence`, `sourceGroup` and `split` (every row of a source group in the same split).
 */
export function parseMeasurementRows(text: string): CalibrationRow[] {
  const rows: CalibrationRow[] = [];
  const splitOfGroup = new Map<string, Split>();
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    const raw = JSON.parse(line) as Record<string, unknown>;
    const result = validateOperation(raw);
    if (!result.ok) {
      throw new Error(
        `${MEASUREMENTS_FILE}:${index + 1}: ${result.issues.map((issue) => formatIssue(issue)).join("; ")}`,
      );
    }
    const where = `${MEASUREMENTS_FILE}:${index + 1}`;
    const measuredRU = raw["measuredRU"];
    if (typeof measuredRU !== "number") throw new Error(`${where}: no measuredRU`);
    const source = raw["source"];
    if (typeof source !== "string" || !/^https:\/\//.test(source)) {
      throw new Error(`${where}: source must be the address (https://...) the figure was published at`);
    }
    const evidence = raw["evidence"];
    if (!EVIDENCE.some((e) => e === evidence)) {
      throw new Error(`${where}: evidence must be one of ${EVIDENCE.join(", ")}`);
    }
    const sourceGroup = raw["sourceGroup"];
    if (typeof sourceGroup !== "string" || sourceGroup.trim() === "") {
      throw new Error(`${where}: sourceGroup must name the page or repository the row came from`);
    }
    const split = raw["split"];
    if (!SPLITS.some((s) => s === split))
      throw new Error(`${where}: split must be one of ${SPLITS.join(", ")}`);
    const groupSplit = splitOfGroup.get(sourceGroup);
    if (groupSplit !== undefined && groupSplit !== split) {
      throw new Error(
        `${where}: every row of source group ${sourceGroup} must be in the same split (${groupSplit})`,
      );
    }
    splitOfGroup.set(sourceGroup, split as Split);
    const directRU = raw["directRU"];
    const outOfModel = raw["calibration"] === false ? String(raw["why"] ?? "") : undefined;
    if (outOfModel === "") throw new Error(`${where}: calibration: false needs a why`);
    rows.push({
      id: where,
      operation: result.value,
      measuredRU,
      scenario: String(raw["scenario"] ?? `line ${index + 1}`),
      source,
      evidence: evidence as Evidence,
      ...(typeof directRU === "number" ? { directRU } : {}),
      ...(outOfModel === undefined ? {} : { outOfModel }),
      sourceGroup,
      ...(split === "held-out" ? { heldOut: true } : {}),
    });
  });
  return rows;
}

interface CaseStudyRow {
  readonly request: string;
  readonly version: string;
  readonly ru: number;
  readonly fanOut?: boolean;
}

const CASE_STUDY_SOURCE = "https://learn.microsoft.com/azure/cosmos-db/nosql/model-partition-example";
/** The source group of the case study's rows in ru-measurements.jsonl (the same article). */
const CASE_STUDY_GROUP = "learn/model-partition-example";

/**
 * Inputs of the case study's V3 single-partition queries, derived from
 * examples/blogging/workload.yaml and test/fixtures/examples/blogging/model-v3.yaml (the article
 * gives only the charge):
 * - a post is 3,000 bytes of which `content` is 2,600; the short form truncates `content` to 200
 *   characters: 600 bytes, plus the copied username and the comment and like counters (~50
 *   bytes): 650 bytes per short post;
 * - a comment is 400 bytes and a like 150, each plus the copied username (~25 bytes);
 * - `returned` is the workload's average (`returns: { avg }`; Q6 `limit: 100`); the filters are
 *   the partition key plus the item type, served by the index, so nothing is scanned.
 * The V1/V2/V3 C1, C2, Q1 and V2/V3 Q2 rows repeat ru-measurements.jsonl (same request, same
 * charge) and are not added twice; V2/V3 C3 and C4 run a stored procedure (read, replace,
 * create) and V1/V2 fan-out requests issue several queries, so they are not single operations.
 */
const V3_QUERY_INPUTS: Readonly<
  Record<string, { readonly returned: number; readonly itemBytes: number; readonly what: string }>
> = {
  Q3: { returned: 27.5, itemBytes: 650, what: "a user's posts in short form (users container, pk=userId)" },
  Q4: {
    returned: 12.5,
    itemBytes: 425,
    what: "a post's comments with usernames (posts container, pk=postId)",
  },
  Q5: { returned: 50, itemBytes: 175, what: "a post's likes with usernames (posts container, pk=postId)" },
  Q6: { returned: 100, itemBytes: 650, what: "the 100 newest posts, ORDER BY creationDate (feed container)" },
};

/** The case study's single-operation rows that ru-measurements.jsonl does not already hold. */
export function caseStudyCalibrationRows(json: string): CalibrationRow[] {
  const document = JSON.parse(json) as { rows: readonly CaseStudyRow[] };
  const rows: CalibrationRow[] = [];
  for (const row of document.rows) {
    if (row.version !== "v3") continue;
    const inputs = V3_QUERY_INPUTS[row.request];
    if (inputs === undefined || row.fanOut === true) continue;
    rows.push({
      id: `${CASE_STUDY_FILE}:${row.version} ${row.request}`,
      operation: {
        op: "query",
        returned: inputs.returned,
        returnedBytes: inputs.returned * inputs.itemBytes,
        partitions: 1,
      },
      measuredRU: row.ru,
      scenario: `blog V3 [${row.request}] ${inputs.what}`,
      source: CASE_STUDY_SOURCE,
      evidence: "measured",
      sourceGroup: CASE_STUDY_GROUP,
    });
  }
  return rows;
}

/**
 * A fan-out check outside the calibration set: V2 Q3 queries every physical partition of the
 * posts container for a user's 27.5 full posts (3,000 bytes each) and was charged 201.54 RU.
 * model-v1.yaml infers the 70 partitions from the article's fan-out charges, so this row only
 * checks consistency; it is not independent evidence.
 */
export function caseStudyFanOutCheck(json: string): CalibrationRow | undefined {
  const document = JSON.parse(json) as { rows: readonly CaseStudyRow[] };
  const row = document.rows.find((candidate) => candidate.version === "v2" && candidate.request === "Q3");
  if (row === undefined) return undefined;
  return {
    operation: { op: "query", returned: 27.5, returnedBytes: 27.5 * 3000, partitions: 70 },
    measuredRU: row.ru,
    scenario: "blog V2 [Q3] a user's posts, fan-out over the posts container's 70 partitions",
    source: CASE_STUDY_SOURCE,
    evidence: "measured",
    sourceGroup: CASE_STUDY_GROUP,
  };
}
