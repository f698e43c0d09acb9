/**
 * Whether the session is ready for the design: the session's own checklist (what the interview
 * must still ask), the requirements checklist of `cosmosdb_requirements.md` computed from the
 * loaded workload, and the loader's verdict on the workload file. The data model is written only
 * when all three agree, as the expert prompt requires.
 */
import { Document, isSeq } from "yaml";
import { formatPath, hasErrors, type Issue } from "../common/issues.js";
import {
  requirementsChecklist,
  requirementsComplete,
  type ChecklistItem,
  type RequirementsState,
} from "../analysis/requirements-checklist.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { draftToDocument, type DraftWorkload } from "./draft.js";
import { askDesignDetails } from "./ask-details.js";
import {
  cardinalityGaps,
  searchGaps,
  entitiesWithoutKey,
  entitiesWithoutLargestSize,
  entitiesWithoutSize,
  inferredRelationships,
  massiveScaleGaps,
  massiveScaleOpen,
  massiveScaleReason,
  pairingGaps,
  patternsWithoutRate,
  relationshipsWithoutBounds,
  requiredRelationships,
  skewGaps,
  undeclaredAttributes,
  type PairingGap,
} from "./gaps.js";
import { groupQuestions } from "./questions.js";
import type { SessionState } from "./state.js";

/** One item of the session checklist. */
export interface SessionChecklistItem {
  readonly id: string;
  readonly label: string;
  readonly done: boolean;
  readonly why: string;
}

/** The workload file as the interview writes it (YAML in the format of docs/workload-format.md). */
export function serializeDraft(draft: DraftWorkload): string {
  const document = new Document(draftToDocument(draft));
  // A composite key or via on one line, as people write it: key: [filmId, actorId].
  const flow = (path: readonly (string | number)[]): void => {
    const node = document.getIn(path, true);
    if (isSeq(node)) node.flow = true;
  };
  for (const entity of draft.entities) flow(["entities", entity.name, "key"]);
  draft.relationships.forEach((_, index) => flow(["relationships", index, "via"]));
  return document.toString({ lineWidth: 0 });
}

/** The session checklist: every item must be done before the data model is written. */
export function sessionChecklist(state: SessionState): readonly SessionChecklistItem[] {
  return [...workloadItems(state), ...answerItems(state), ...confirmationItems(state)];
}

/** An item, done when nothing is open; `why` lists what is open, or says what is done. */
function item(id: string, label: string, open: readonly string[], doneWhy: string): SessionChecklistItem {
  return { id, label, done: open.length === 0, why: open.length === 0 ? doneWhy : open.join("; ") };
}

/** The non-empty texts of a list of conditional ones. */
function present(texts: readonly string[]): readonly string[] {
  return texts.filter((text) => text !== "");
}

/** The workload's facts: application, entities, relationships, rates, pairing, attributes. */
function workloadItems(state: SessionState): readonly SessionChecklistItem[] {
  const workload = state.workload;
  const names = (list: readonly { name: string }[]): string => list.map((entry) => entry.name).join(", ");
  const withoutKey = entitiesWithoutKey(workload);
  const withoutSize = entitiesWithoutSize(workload);
  const withoutLargest = entitiesWithoutLargestSize(workload);
  const withoutRate = patternsWithoutRate(workload);
  return [
    item(
      "application",
      "Application name and domain documented",
      present([
        workload.name === undefined ? "no name yet" : "",
        workload.domain === undefined ? "no domain yet" : "",
      ]),
      `${workload.name ?? ""} (${workload.domain ?? ""})`,
    ),
    item(
      "entities",
      "Every entity has its key, item count and average size",
      present([
        workload.entities.length === 0 ? "no entities yet" : "",
        withoutKey.length > 0 ? `no key: ${names(withoutKey)}` : "",
        withoutSize.length > 0 ? `count or size unknown: ${names(withoutSize)}` : "",
        withoutLargest.length > 0
          ? `largest item unknown (4 x the average is over 2 MB): ${names(withoutLargest)}`
          : "",
      ]),
      count(workload.entities.length, "entity", "entities"),
    ),
    item(
      "relationships",
      "Relationships mapped with their bounds (average, maximum or unbounded, ownership)",
      [
        ...inferredRelationships(state).map((r) => `is ${r.child}.${r.via} a relationship to ${r.parent}?`),
        ...relationshipsWithoutBounds(workload).map(
          (r) => `${r.parent} -> ${r.child}: bounds or ownership unknown`,
        ),
        ...requiredRelationships(state).map(
          (r) =>
            `${r.uses.map((use) => `${use.pattern} returns ${use.entries.join(", ")}`).join("; ")}: needs a relationship ${r.parent} -> ${r.child}`,
        ),
      ],
      count(workload.relationships.length, "relationship", "relationships"),
    ),
    item(
      "rates",
      "Every access pattern has its average and peak requests/s (estimates accepted by you)",
      present([
        workload.accessPatterns.length === 0 ? "no access patterns yet" : "",
        withoutRate.length > 0 ? `rate unknown: ${withoutRate.map((p) => p.id).join(", ")}` : "",
        state.estimates.length > 0
          ? `estimates awaiting your answer: ${state.estimates.map((e) => e.pattern).join(", ")}`
          : "",
      ]),
      `${count(workload.accessPatterns.length, "access pattern", "access patterns")} with rates`,
    ),
    item(
      "read-write-pairs",
      "A write creates every entity that is read, and every write is read (unless you declined)",
      pairingGaps(state).map(describePairingGap),
      "every read has its write and every write its read",
    ),
    item(
      "attributes",
      "Attributes used by access patterns are declared with their types",
      undeclaredAttributes(workload).map(({ entity, attribute }) => `${entity}.${attribute}`),
      "declared",
    ),
  ];
}

function describePairingGap(gap: PairingGap): string {
  switch (gap.missing) {
    case "create":
      return `nothing creates ${gap.entity} (read by ${gap.patterns.join(", ")})`;
    case "read":
      return `nothing reads ${gap.entity} (written by ${gap.patterns.join(", ")})`;
    case "any":
      return `no access pattern uses ${gap.entity}`;
    default:
      gap.missing satisfies never;
      return "";
  }
}

/** The answers that shape the design: cardinality and skew, massive scale, design details. */
function answerItems(state: SessionState): readonly SessionChecklistItem[] {
  const reason = massiveScaleReason(state.workload);
  return [
    item(
      "cardinality",
      "Filtered attributes have their number of distinct values and how the requests spread over them (or you skipped the question)",
      [
        ...cardinalityGaps(state).map(({ entity, attribute }) => `distinct values of ${entity}.${attribute}`),
        ...skewGaps(state).map(
          ({ entity, attribute }) => `spread of the requests over ${entity}.${attribute}`,
        ),
      ],
      "known",
    ),
    item(
      "massive-scale",
      "Massive-scale questions answered (binning, writer buffering, acceptable staleness)",
      massiveScaleOpen(state)
        ? [
            `${reason ?? ""}: open ${massiveScaleGaps(state)
              .map((gap) => gap.questionId)
              .join(", ")}`,
          ]
        : [],
      reason === undefined ? "not a massive-scale workload" : "answered",
    ),
    item(
      "search",
      "Search reads have their results (k) and, for a vector search, their recall",
      searchGaps(state.workload).map(
        (gap) => `${gap.pattern.id} (${gap.pattern.name}) needs ${gap.missing.join(" and ")}`,
      ),
      state.workload.accessPatterns.some((p) => p.search !== undefined) ? "known" : "no search reads",
    ),
    item(
      "design-details",
      "Result sizes, latency target, sparse attributes and atomic writes asked (or you skipped them)",
      groupQuestions(askDesignDetails(state))
        .map(({ group, questions }) => group?.id ?? questions[0]?.id ?? "")
        .filter((id) => !state.declined.includes(id)),
      "asked",
    ),
  ];
}

/** What the user confirms: distribution, and that every access pattern is captured. */
function confirmationItems(state: SessionState): readonly SessionChecklistItem[] {
  return [
    item(
      "distribution",
      "Consistency, regions and multi-region writes confirmed",
      state.confirmed.distribution ? [] : ["not confirmed yet"],
      "confirmed",
    ),
    item(
      "access-patterns-confirmed",
      "You confirmed that every read and write access pattern is captured",
      state.confirmed.accessPatternsComplete ? [] : ["not confirmed yet"],
      "confirmed",
    ),
  ];
}

/** Whether the data model may be written, and if not, why. */
export interface Readiness {
  readonly ready: boolean;
  /** The loaded workload, when the draft is a valid workload file. */
  readonly workload?: Workload;
  /** The loader's issues for the draft (errors while incomplete, warnings after). */
  readonly issues: readonly Issue[];
  readonly session: readonly SessionChecklistItem[];
  /** The requirements document's checklist, once the workload loads. */
  readonly requirements: readonly ChecklistItem[];
  /** Each open item in words: why the data model cannot be written yet. */
  readonly reasons: readonly string[];
}

/** The state of the requirements document for the render layer. */
export function requirementsState(state: SessionState): RequirementsState {
  return {
    confirmedPatterns: state.confirmed.accessPatternsComplete,
    massiveScaleDiscussed: massiveScaleReason(state.workload) === undefined || !massiveScaleOpen(state),
  };
}

/** Loads the draft as a workload file would be loaded, and checks every checklist. */
export function checkReadiness(state: SessionState, file = "workload.yaml"): Readiness {
  const loaded = loadWorkload(serializeDraft(state.workload), { file });
  const session = sessionChecklist(state);
  const requirements = loaded.ok ? requirementsChecklist(loaded.value, requirementsState(state)) : [];
  const errors = loaded.issues.filter((issue) => issue.severity === "error");
  const shown = 5;
  const reasons = [
    ...session.filter((item) => !item.done).map((item) => `${item.label}: ${item.why}`),
    ...(hasErrors(loaded.issues)
      ? [
          `${file} does not load yet: ${errors.length} error${errors.length === 1 ? "" : "s"}: ${errors
            .slice(0, shown)
            .map(
              (issue) =>
                `${issue.line === undefined ? "" : `line ${issue.line} `}${formatPath(issue.path)}: ${issue.message}${issue.suggestion === undefined ? "" : ` (${issue.suggestion})`}`,
            )
            .join(
              "; ",
            )}${errors.length > shown ? `; and ${errors.length - shown} more (check-workload lists them)` : ""}`,
        ]
      : []),
    ...requirements.filter((item) => !item.done && item.blocking).map((item) => `${item.label}: ${item.why}`),
  ];
  return {
    ready: reasons.length === 0 && loaded.ok && requirementsComplete(requirements),
    ...(loaded.ok ? { workload: loaded.value } : {}),
    issues: loaded.issues,
    session,
    requirements,
    reasons,
  };
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
