/**
 * The closing questions: consistency, regions, the horizon and multi-region writes (confirmed together), and
 * the user's confirmation that every access pattern is captured.
 */
import type { Change } from "./changes.js";
import type { DraftWorkload } from "./draft.js";
import type { Question, QuestionGroup } from "./questions.js";
import type { SessionState } from "./state.js";
import { RANGES } from "./value-ranges.js";

/** Consistency, regions, the planning horizon and multi-region writes, confirmed together. */
export function askDistribution(state: SessionState): readonly Question[] {
  if (state.confirmed.distribution) return [];
  const scale = state.workload.scale;
  const regionCount = Array.isArray(scale.regions) ? scale.regions.length : (scale.regions ?? 1);
  const confirm: Change[] = [{ kind: "confirm", subject: "distribution", value: true }];
  const group: QuestionGroup = {
    id: "distribution",
    text: "Where does the data live and how consistent must reads be?",
  };
  const consistencyChoice = (
    value: "strong" | "bounded" | "session" | "consistent-prefix" | "eventual",
    label: string,
  ) => ({
    value,
    label,
    changes: [{ kind: "set-scale", consistency: value } as const],
  });
  return [
    {
      group,
      id: "distribution:consistency",
      topic: "distribution",
      text: `Which consistency level does the application need${scale.consistency === undefined ? "" : ` (now ${scale.consistency})`}?`,
      why: "Strong and bounded staleness reads cost twice the RU of session, consistent prefix or eventual reads.",
      answer: {
        kind: "choice",
        choices: [
          consistencyChoice("session", "session (read your own writes; the default)"),
          consistencyChoice("eventual", "eventual"),
          consistencyChoice("consistent-prefix", "consistent prefix"),
          consistencyChoice("bounded", "bounded staleness (reads cost 2x)"),
          consistencyChoice("strong", "strong (reads cost 2x; not with multi-region writes)"),
        ],
      },
      alsoChanges: confirm,
      optional: false,
      suggested: {
        answer: { kind: "choice", value: scale.consistency ?? "session" },
        label: `${scale.consistency ?? "session"} consistency`,
      },
    },
    {
      group,
      id: "distribution:regions",
      topic: "distribution",
      text: `In how many Azure regions should the data live${scale.regions === undefined ? "" : ` (now ${scale.regions})`}?`,
      why: "Every region adds a full copy of the storage and provisioned throughput to the bill.",
      answer: { kind: "number", unit: "count", range: RANGES.positiveInteger },
      fills: { change: { kind: "set-scale" }, field: "regions" },
      alsoChanges: confirm,
      optional: false,
      suggested: {
        answer: { kind: "value", value: regionCount },
        label: `${regionCount} region${regionCount === 1 ? "" : "s"}`,
      },
      // one region has one write region: multi-region writes are not asked
      skipsWhen: { atMost: 1, skips: ["distribution:multi-region-writes"] },
    },
    {
      group,
      id: "distribution:horizon",
      topic: "distribution",
      text: `For how many months ahead must the design hold${scale.horizonMonths === undefined ? " (default 12)" : ` (now ${scale.horizonMonths})`}? Skip to keep it.`,
      why: "Partitions, storage and the busiest reads are sized at the data of the horizon's end; a longer horizon can change the partition key (the design also says at which multiple of it the model breaks).",
      answer: { kind: "number", unit: "count", range: RANGES.positiveInteger },
      fills: { change: { kind: "set-scale" }, field: "horizonMonths" },
      alsoChanges: confirm,
      optional: true,
      suggested:
        scale.horizonMonths === undefined
          ? { answer: { kind: "skip", said: "12 months (the default)" }, label: "a 12-month horizon" }
          : {
              answer: { kind: "value", value: scale.horizonMonths },
              label: `a ${scale.horizonMonths}-month horizon`,
            },
    },
    {
      group,
      id: "distribution:multi-region-writes",
      topic: "distribution",
      text: "Must every region accept writes (multi-region writes), or is one write region enough?",
      why: "Multi-region writes double the throughput price and rule out strong consistency.",
      answer: {
        kind: "choice",
        choices: [
          {
            value: "single",
            label: "One write region",
            changes: [{ kind: "set-scale", multiRegionWrites: false }],
          },
          {
            value: "multi",
            label: "Multi-region writes",
            changes: [{ kind: "set-scale", multiRegionWrites: true }],
          },
        ],
      },
      alsoChanges: confirm,
      optional: false,
      suggested:
        scale.multiRegionWrites === true
          ? { answer: { kind: "choice", value: "multi" }, label: "multi-region writes" }
          : { answer: { kind: "choice", value: "single" }, label: "one write region" },
    },
  ];
}

/** Whether every read and write access pattern is captured. */
export function askConfirmation(state: SessionState): readonly Question[] {
  if (state.confirmed.accessPatternsComplete) return [];
  return [
    {
      id: "confirmation:access-patterns",
      topic: "confirmation",
      text: `We have ${describePatterns(state.workload)}. Is every read and write the application makes captured, or are there other access patterns to discuss?`,
      why: "The data model is written only when you confirm that every access pattern is captured.",
      answer: {
        kind: "choice",
        choices: [
          {
            value: "complete",
            label: "All access patterns are captured",
            changes: [{ kind: "confirm", subject: "access-patterns-complete", value: true }],
          },
          {
            value: "more",
            label: "There are more: add an access pattern",
            changes: [],
            form: { form: "access-pattern", preset: {} },
          },
        ],
      },
      optional: false,
    },
  ];
}

function describePatterns(workload: DraftWorkload): string {
  const reads = workload.accessPatterns.filter((p) => p.type === "read").length;
  const writes = workload.accessPatterns.length - reads;
  return `${reads} read and ${writes} write access pattern${writes === 1 ? "" : "s"} (${workload.accessPatterns.map((p) => p.id).join(", ")})`;
}
