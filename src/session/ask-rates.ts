/**
 * Questions about load: each access pattern's average and peak rate (with business figures and
 * an estimate to accept when the user does not know), and the three massive-scale questions.
 */
import type { Change } from "./changes.js";
import { massiveScaleOpen, massiveScaleReason, patternsWithoutRate } from "./gaps.js";
import type { Question } from "./questions.js";
import type { SessionState } from "./state.js";

/** The three massive-scale questions, when writes exceed 10,000/s or a batch ingests millions. */
export function askMassiveScale(state: SessionState): readonly Question[] {
  const reason = massiveScaleReason(state.workload);
  if (reason === undefined || !massiveScaleOpen(state)) return [];
  const question = (
    field: "binning" | "writeReduction" | "dataSizeFanOut",
    text: string,
    why: string,
  ): Question | undefined =>
    state.massiveScale[field] === undefined
      ? {
          id: `massive-scale:${field}`,
          topic: "massive-scale",
          text,
          why: `Massive scale: ${reason}. ${why}`,
          answer: { kind: "text" },
          fills: { change: { kind: "answer-massive-scale" }, field },
          optional: false,
        }
      : undefined;
  return [
    question(
      "binning",
      "Can individual records be grouped into chunks (binning), e.g. all readings of one device per minute in one item? If so, how many records per chunk?",
      "Binning small records into one item can cut write operations and their RU by 90% or more.",
    ),
    question(
      "writeReduction",
      "What is the minimum number of write operations you need: must every record be written individually, or can writes be batched, sampled or aggregated before writing?",
      "Each write costs RU in proportion to item size and indexed values; fewer, larger writes are cheaper.",
    ),
    question(
      "dataSizeFanOut",
      "How much data will accumulate (total size over the horizon), and must any read look across all of it rather than one key's items?",
      "The data size sets the number of physical partitions (about 50 GB each), and every cross-partition query pays for each of them.",
    ),
  ].filter((q) => q !== undefined);
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
  const pattern = patternsWithoutRate(workload)[0];
  if (pattern === undefined) return [];
  const label = `${pattern.id} (${pattern.name})`;
  if (state.unknownRates.includes(pattern.id)) {
    const figure = (
      id: string,
      text: string,
      field: string,
      unit: "count" | "requests/s",
      integer: boolean,
    ): Question => ({
      id: `rate:${pattern.id}:${id}`,
      topic: "rates",
      text,
      why: "Rates come from you: these business figures give an estimate, with the arithmetic shown, for you to accept or correct.",
      answer: { kind: "number", unit, integer },
      fills: { change: { kind: "estimate-rate", pattern: pattern.id }, field },
      optional: false,
    });
    return [
      figure(
        "daily-active-users",
        `How many users a day perform ${label}? (daily active users)`,
        "dailyActiveUsers",
        "count",
        false,
      ),
      figure(
        "actions-per-user",
        `How many times a day does one of them do it? (actions per user per day)`,
        "actionsPerUserPerDay",
        "count",
        false,
      ),
      figure(
        "peak-factor",
        `How much busier is the peak hour than the day's average? (peak-hour factor, e.g. 2 for twice as busy; 1 if flat)`,
        "peakFactor",
        "count",
        false,
      ),
    ];
  }
  const unknown: Change[] = [{ kind: "mark-rate-unknown", pattern: pattern.id }];
  const questions: Question[] = [];
  if (pattern.rps?.avg === undefined) {
    questions.push({
      id: `rate:${pattern.id}:avg`,
      topic: "rates",
      text: `How many requests per second does ${label} receive on average? ("?" if you do not know: we will estimate it from business figures)`,
      why: "Every access pattern needs its rate: RU/s, partitions and cost are computed from it.",
      answer: { kind: "number", unit: "requests/s", integer: false },
      fills: { change: { kind: "set-rate", pattern: pattern.id }, field: "avg" },
      whenUnknown: unknown,
      optional: false,
    });
  }
  if (pattern.rps?.peak === undefined) {
    questions.push({
      id: `rate:${pattern.id}:peak`,
      topic: "rates",
      text: `And at peak (the busiest minutes), how many requests per second for ${label}?`,
      why: "Provisioned throughput and hot-partition limits are sized for the peak.",
      answer: { kind: "number", unit: "requests/s", integer: false },
      fills: { change: { kind: "set-rate", pattern: pattern.id }, field: "peak" },
      whenUnknown: unknown,
      optional: false,
    });
  }
  return questions;
}
