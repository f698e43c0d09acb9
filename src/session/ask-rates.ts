/**
 * Questions about load: each access pattern's average and peak rate, asked together (with
 * business figures and an estimate to accept when the user does not know), and the
 * massive-scale questions, answered in the workload's own fields: how records may be binned
 * (entity `binning`), how many the writer sends at once (write `bufferedRecords`), and how old
 * they may be where reads return them with other data (read `maxStalenessSeconds`).
 */
import { formatNames } from "./describe-changes.js";
import type { Change } from "./changes.js";
import { massiveScaleGaps, massiveScaleReason, patternsWithoutRate, type MassiveScaleGap } from "./gaps.js";
import type { Question, QuestionGroup } from "./questions.js";
import type { DraftAccessPattern } from "./draft.js";
import type { SessionState } from "./state.js";
import { RANGES, type NumberRange } from "./value-ranges.js";

/** Rate questions of this many patterns are asked in one turn (each pattern's average and peak together). */
const PATTERNS_PER_TURN = 3;

/**
 * The massive-scale questions, when writes exceed 10,000/s or a batch ingests millions, as one
 * question with a part for each massive write (the largest first): how its records may be
 * binned, how many the writer sends at once, and how old the reads that return them may see
 * them.
 */
export function askMassiveScale(state: SessionState): readonly Question[] {
  const reason = massiveScaleReason(state.workload);
  if (reason === undefined) return [];
  const gaps = massiveScaleGaps(state);
  const writes = [...new Map(gaps.map((gap) => [gap.write.id, gap.write])).values()];
  const [only] = writes;
  if (only === undefined) return [];
  const group: QuestionGroup = {
    id: `massive-scale:${writes.map((write) => write.id).join(",")}`,
    text:
      writes.length === 1
        ? `Massive scale: ${reason}. How can ${only.id} (${only.name}) write less?`
        : `Massive scale: ${reason}. How can ${writes.map((write) => `${write.id} (${write.name})`).join(", ")} write less?`,
  };
  return gaps.map((gap) => massiveScaleQuestion(state, gap, reason, group));
}

function massiveScaleQuestion(
  state: SessionState,
  gap: MassiveScaleGap,
  reason: string,
  group: QuestionGroup,
): Question {
  const write = gap.write;
  const entity = state.workload.entities.find((e) => e.name === write.entity);
  const locator = formatNames(
    state.workload.relationships.find((r) => r.child === write.entity && r.via !== undefined)?.via ??
      entity?.key ?? ["key"],
  );
  const base = { topic: "massive-scale" as const, optional: false, group };
  switch (gap.subject) {
    case "binning":
      return {
        ...base,
        id: gap.questionId,
        text: `Can the ${write.entity} records of one ${locator} be grouped into one item per time window (binning)? How many seconds per item (e.g. 60, 1 h), or "never" if each record must stay its own item?`,
        why: `Massive scale: ${reason}. One bucket item per ${locator} and window turns thousands of small creates into patches of one item and cuts their RU by 90% or more; over MCP, { "recordsPerItem": N } groups by count instead.`,
        answer: {
          kind: "number",
          unit: "seconds",
          range: RANGES.positiveInteger,
          alternatives: [
            {
              value: "never",
              label: "never: every record stays its own item",
              changes: [],
              sets: { binning: false },
            },
          ],
        },
        fills: { change: { kind: "update-entity", name: write.entity }, field: "binning.windowSeconds" },
      };
    case "buffering":
      return {
        ...base,
        id: gap.questionId,
        text: `How many ${write.entity} records of one ${locator} does the writer collect before sending them in one request (1 if each is written as it comes, e.g. 5 if the app sends 5 at once)?`,
        why: "Records sent together are written with one request (one patch of a bucket item): the write rate and its RU fall by that factor.",
        answer: { kind: "number", unit: "count", range: RANGES.positiveInteger },
        fills: { change: { kind: "update-access-pattern", id: write.id }, field: "bufferedRecords" },
      };
    case "staleness": {
      const read = gap.read ?? write;
      return {
        ...base,
        id: gap.questionId,
        text: `${read.id} (${read.name}) returns ${write.entity} data with each item: how old may it be, in seconds (0 if it must reflect the last write)?`,
        why: "Data that may be a few seconds old can be kept by the change feed or aggregated before it is copied, instead of on every one of the massive writes.",
        answer: { kind: "number", unit: "seconds", range: RANGES.nonNegative },
        fills: { change: { kind: "update-access-pattern", id: read.id }, field: "maxStalenessSeconds" },
      };
    }
    default:
      gap.subject satisfies never;
      throw new Error("unknown massive-scale question");
  }
}

/** The next pattern's average and peak rate; the business figures when it is unknown; the estimate to accept. */
export function askRates(state: SessionState): readonly Question[] {
  const workload = state.workload;
  const pending = state.estimates[0];
  if (pending !== undefined) {
    const pattern = workload.accessPatterns.find((p) => p.id === pending.pattern);
    return [
      {
        id: `rate:${pending.pattern}:estimate`,
        topic: "rates",
        text: `For ${pending.pattern}${pattern === undefined ? "" : ` (${pattern.name})`} the business figures give:\n  ${pending.arithmetic.join("\n  ")}\nUse average ${pending.avg}/s and peak ${pending.peak}/s?`,
        why: "A rate is only used once you accept it; the design's RU/s and cost scale with it.",
        answer: {
          kind: "choice",
          choices: [
            {
              value: "accept",
              label: "Yes, use this estimate",
              changes: [{ kind: "accept-estimate", pattern: pending.pattern }],
            },
            {
              value: "reject",
              label: "No, let me give other numbers",
              changes: [{ kind: "reject-estimate", pattern: pending.pattern }],
            },
          ],
        },
        optional: false,
      },
    ];
  }
  const unknown = patternsWithoutRate(workload).filter((pattern) =>
    state.unknownRates.includes(pattern.id),
  )[0];
  if (unknown !== undefined) return businessFigureQuestions(unknown);
  return patternsWithoutRate(workload)
    .slice(0, PATTERNS_PER_TURN)
    .flatMap((pattern) => rateQuestions(pattern));
}

/** A pattern's average and peak rate, asked together. */
function rateQuestions(pattern: DraftAccessPattern): Question[] {
  const label = `${pattern.id} (${pattern.name})`;
  const group: QuestionGroup = {
    id: `rate:${pattern.id}`,
    text: `How many requests per second does ${label} receive, on average and at peak?`,
  };
  const unknown: Change[] = [{ kind: "mark-rate-unknown", pattern: pattern.id }];
  const questions: Question[] = [];
  if (pattern.rps?.avg === undefined) {
    questions.push({
      id: `rate:${pattern.id}:avg`,
      topic: "rates",
      text: `How many requests per second does ${label} receive on average? ("?" if you do not know: we will estimate it from business figures)`,
      why: "Every access pattern needs its rate: RU/s, partitions and cost are computed from it.",
      answer: { kind: "number", unit: "requests/s", range: RANGES.nonNegative },
      fills: { change: { kind: "set-rate", pattern: pattern.id }, field: "avg" },
      whenUnknown: unknown,
      optional: false,
      group,
    });
  }
  if (pattern.rps?.peak === undefined) {
    questions.push({
      id: `rate:${pattern.id}:peak`,
      topic: "rates",
      text: `And at peak (the busiest minutes), how many requests per second for ${label}?`,
      why: "Provisioned throughput and hot-partition limits are sized for the peak.",
      answer: { kind: "number", unit: "requests/s", range: RANGES.positive },
      fills: { change: { kind: "set-rate", pattern: pattern.id }, field: "peak" },
      whenUnknown: unknown,
      optional: false,
      group,
    });
  }
  return questions;
}

/** The business figures an estimate of a pattern's rate is computed from. */
function businessFigureQuestions(pattern: DraftAccessPattern): Question[] {
  const label = `${pattern.id} (${pattern.name})`;
  const group: QuestionGroup = {
    id: `rate:${pattern.id}:figures`,
    text: `The business figures behind ${label}'s rate (an estimate to accept follows):`,
  };
  const figure = (id: string, text: string, field: string, range: NumberRange): Question => ({
    id: `rate:${pattern.id}:${id}`,
    topic: "rates",
    text,
    why: "Rates come from you: these business figures give an estimate, with the arithmetic shown, for you to accept or correct.",
    answer: { kind: "number", unit: "count", range },
    fills: { change: { kind: "estimate-rate", pattern: pattern.id }, field },
    optional: false,
    group,
  });
  return [
    figure(
      "daily-active-users",
      `How many users a day perform ${label}? (daily active users)`,
      "dailyActiveUsers",
      RANGES.positive,
    ),
    figure(
      "actions-per-user",
      `How many times a day does one of them do it? (actions per user per day)`,
      "actionsPerUserPerDay",
      RANGES.positive,
    ),
    figure(
      "peak-factor",
      `How much busier is the peak hour than the day's average? (peak-hour factor, e.g. 2 for twice as busy; 1 if flat)`,
      "peakFactor",
      RANGES.peakFactor,
    ),
  ];
}
