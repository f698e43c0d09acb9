/**
 * Chooses what to ask next, the way the expert prompt runs its interview: one question, or at
 * most three related ones, most important first. A question may have parts that belong together
 * (an entity's count, size, growth and retention; a pattern's average and peak; every pairing
 * gap at once): the limit counts those groups. The massive-scale questions jump the queue as
 * soon as writes exceed 10,000/s or a bulk ingest of millions appears; then the domain, the
 * entities, the access patterns and their rates (estimated from business figures with the user
 * when unknown), the results and recall of search reads, reads without writes, attribute types, sizes and retention, relationships,
 * cardinalities and skew, result sizes, latency, sparse attributes and atomic writes,
 * consistency and regions, and finally the user's confirmation that every pattern is captured.
 * Questions whose answer is implied (the distinct values of a boolean) are not asked.
 */
import { askConfirmation, askDistribution } from "./ask-confirmation.js";
import { askDesignDetails } from "./ask-details.js";
import { askSearch } from "./ask-search.js";
import { askMassiveScale, askRates } from "./ask-rates.js";
import { askCardinality, askReadWritePairs, askRelationships } from "./ask-relationships.js";
import {
  askApplication,
  askAttributeTypes,
  askEntities,
  askEntityKeys,
  askFirstAccessPattern,
  askSizes,
} from "./ask-workload.js";
import { rankByImpact } from "./impact.js";
import { groupQuestions, type Question } from "./questions.js";
import type { SessionState } from "./state.js";

/** Most questions (groups of parts) asked in one turn (the expert prompt's limit). */
export const MAX_QUESTIONS_PER_TURN = 3;

type Asker = (state: SessionState) => readonly Question[];

/** The askers in priority order; the first that has questions decides the turn. */
const ASKERS: readonly Asker[] = [
  askMassiveScale,
  askApplication,
  askEntities,
  askEntityKeys,
  askFirstAccessPattern,
  askRates,
  askSearch,
  askReadWritePairs,
  askAttributeTypes,
  askSizes,
  askRelationships,
  askCardinality,
  askDesignDetails,
  askDistribution,
  askConfirmation,
];

/**
 * The next questions to ask: at most three (groups of parts), all about one subject. Empty when
 * nothing is missing and the user confirmed every pattern: the session is ready for the design.
 */
export function nextQuestions(state: SessionState): readonly Question[] {
  for (const ask of ASKERS) {
    const asked = ask(state).filter((question) => !state.declined.includes(question.id));
    if (asked.length > 0) {
      // the unknowns whose answer changes the design or the cost most come first
      const questions = rankByImpact(state, asked);
      return groupQuestions(questions)
        .slice(0, MAX_QUESTIONS_PER_TURN)
        .flatMap((group) => group.questions);
    }
  }
  return [];
}
