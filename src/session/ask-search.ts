/**
 * The settings of the search reads (issue 31): how many results a search returns (`k`) and, for
 * a vector search, the share of the true nearest neighbours it needs (`recall`). Both are
 * required by the workload format; the answers most retrieval applications give are suggested
 * (10 results, recall 0.9).
 */
import { searchGaps } from "./gaps.js";
import type { Question, QuestionGroup } from "./questions.js";
import type { SessionState } from "./state.js";
import { RANGES } from "./value-ranges.js";

/** The suggested answers: a page of 10 results, 90% of the true nearest neighbours. */
export const SUGGESTED_SEARCH = { k: 10, recall: 0.9 } as const;

/** One group per search read with a missing setting: its k and recall together. */
export function askSearch(state: SessionState): readonly Question[] {
  return searchGaps(state.workload).flatMap(({ pattern, missing }) => {
    const search = pattern.search ?? {};
    const what =
      search.nearest !== undefined && search.fullText !== undefined
        ? `a hybrid search (nearest ${search.nearest}, full text ${search.fullText})`
        : search.nearest !== undefined
          ? `a vector search (nearest ${search.nearest})`
          : `a full-text search (${search.fullText ?? ""})`;
    const group: QuestionGroup = {
      id: `search:${pattern.id}`,
      text: `${pattern.id} (${pattern.name}) is ${what} over ${pattern.entity}: how many results, and how exact?`,
    };
    // the change keeps the search's other settings: update-access-pattern replaces `search`
    const change = { kind: "update-access-pattern", id: pattern.id, search: { ...search } };
    const ask = (
      field: "k" | "recall",
      text: string,
      why: string,
      answer: Question["answer"],
      value: number,
      label: string,
    ): Question => ({
      id: `search:${pattern.id}:${field}`,
      topic: "search",
      text,
      why,
      answer,
      fills: { change, field: `search.${field}` },
      optional: false,
      group,
      suggested: { answer: { kind: "value", value }, label },
    });
    const questions: Question[] = [];
    if (missing.includes("k"))
      questions.push(
        ask(
          "k",
          `How many results (k) does one ${pattern.id} search return?`,
          "k is the search's TOP k: the items read, the RU of each search and, for a vector search, how far the index must look.",
          { kind: "number", unit: "count", range: RANGES.positiveInteger },
          SUGGESTED_SEARCH.k,
          `${SUGGESTED_SEARCH.k} results`,
        ),
      );
    if (missing.includes("recall"))
      questions.push(
        ask(
          "recall",
          `What share of the true ${search.nearest ?? ""} nearest neighbours must ${pattern.id} return (recall, more than 0 and at most 1; 1 = exact)?`,
          "The recall decides which vector index can serve the search (flat is exact but scans every vector; quantizedFlat and diskANN are approximate and cheaper at scale).",
          { kind: "number", unit: "share", range: RANGES.share },
          SUGGESTED_SEARCH.recall,
          `recall ${SUGGESTED_SEARCH.recall}`,
        ),
      );
    return questions;
  });
}
