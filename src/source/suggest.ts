/**
 * "Did you mean ...?" suggestions for misspelled names (attributes, entities, fields), with the
 * work and the output bounded per document: a file of 2,000 misspelled references to 500 long
 * names costs a bounded number of edit-distance steps (a cheap lower bound rules out most
 * candidates first) and prints the list of valid names a few times, not 2,000 times.
 */

/**
 * Names longer than this get no suggestion (nobody mistypes a name that long, and the edit
 * distance costs the product of the two lengths), and candidates longer than it are not offered.
 */
export const MAX_SUGGESTED_NAME_LENGTH = 128;

/** What the suggestions of one document may cost. */
export interface SuggestionBudget {
  /** Edit-distance steps (cells of the distance table, plus the cheap bounds) in all. */
  readonly steps: number;
  /** Lists of valid names printed in full; later issues say the list is in an earlier one. */
  readonly listings: number;
}

/**
 * One document's budget: 20 million steps (a fraction of a second) and 20 full lists. A document
 * that uses it up still gets every issue, each with a suggestion found while the budget lasted
 * or a short note instead.
 */
export const DOCUMENT_SUGGESTION_BUDGET: SuggestionBudget = { steps: 20_000_000, listings: 20 };

/** Valid names a listing shows, and the length each is shortened to. */
const LISTED_NAMES = 12;
const LISTED_NAME_LENGTH = 40;

interface BudgetState {
  steps: number;
  listings: number;
  /** Lower-cased names and their character histograms, computed once per document. */
  readonly profiles: Map<string, Profile>;
}

interface Profile {
  readonly lower: string;
  readonly histogram: Uint16Array;
}

/**
 * The budget of the document being loaded. Loading is synchronous, so the budget in force is the
 * one of the innermost {@link withSuggestionBudget} on the stack; a suggestion outside any gets a
 * budget of its own.
 */
let active: BudgetState | undefined;

const newState = (budget: SuggestionBudget): BudgetState => ({
  steps: budget.steps,
  listings: budget.listings,
  profiles: new Map(),
});

/**
 * Runs `load` (synchronous: the loading of one document) with one suggestion budget for all the
 * "did you mean" it asks for.
 * @example withSuggestionBudget(() => loadWorkloadPieces(text))
 */
export function withSuggestionBudget<T>(load: () => T, budget = DOCUMENT_SUGGESTION_BUDGET): T {
  const outer = active;
  active = newState(budget);
  try {
    return load();
  } finally {
    active = outer;
  }
}

const HISTOGRAM_BUCKETS = 64;

function profileOf(state: BudgetState, name: string): Profile {
  const known = state.profiles.get(name);
  if (known !== undefined) return known;
  const lower = name.toLowerCase();
  const histogram = new Uint16Array(HISTOGRAM_BUCKETS);
  for (let i = 0; i < lower.length; i++) {
    const bucket = lower.charCodeAt(i) % HISTOGRAM_BUCKETS;
    histogram[bucket] = (histogram[bucket] ?? 0) + 1;
  }
  const profile = { lower, histogram };
  state.profiles.set(name, profile);
  state.steps -= lower.length;
  return profile;
}

/**
 * A lower bound of the edit distance: each edit changes the character counts by at most 2 (a
 * substitution) or 1, so the distance is at least half the difference of the histograms.
 */
function histogramBound(a: Uint16Array, b: Uint16Array): number {
  let difference = 0;
  for (let i = 0; i < HISTOGRAM_BUCKETS; i++) difference += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return Math.ceil(difference / 2);
}

/**
 * Edit distance (Levenshtein) of two lower-cased strings, or `limit + 1` as soon as it is known to
 * exceed `limit` (every cell of a row above it). Charges its cells to `state`.
 */
function boundedDistance(x: string, y: string, limit: number, state: BudgetState): number {
  let previous = new Uint32Array(y.length + 1);
  let current = new Uint32Array(y.length + 1);
  for (let j = 0; j <= y.length; j++) previous[j] = j;
  for (let i = 1; i <= x.length; i++) {
    current[0] = i;
    let rowMinimum = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x.charCodeAt(i - 1) === y.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    state.steps -= y.length;
    if (rowMinimum > limit) return limit + 1;
    [previous, current] = [current, previous];
  }
  return previous[y.length] ?? 0;
}

/** Edit distance (Levenshtein) between two strings, case-insensitive. */
export function editDistance(a: string, b: string): number {
  const limit = Math.max(a.length, b.length);
  return boundedDistance(a.toLowerCase(), b.toLowerCase(), limit, newState({ steps: Infinity, listings: 0 }));
}

/**
 * The closest candidate to `name`, if it is close enough to be a likely typo (at most a third of
 * the name's length, and at least one edit allowed), found within the document's budget.
 * @example suggestName("userid", ["userId", "postId"]) // "userId"
 */
export function suggestName(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > MAX_SUGGESTED_NAME_LENGTH) return undefined;
  const state = active ?? newState(DOCUMENT_SUGGESTION_BUDGET);
  if (state.steps <= 0) return undefined;
  const allowed = Math.max(1, Math.floor(name.length / 3));
  const wanted = profileOf(state, name);
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of candidates) {
    if (state.steps <= 0) break;
    // The distance is at least the difference in length: too far, or too long to compare.
    if (candidate.length > MAX_SUGGESTED_NAME_LENGTH || Math.abs(candidate.length - name.length) > allowed)
      continue;
    const profile = profileOf(state, candidate);
    state.steps -= HISTOGRAM_BUCKETS;
    if (histogramBound(wanted.histogram, profile.histogram) >= bestDistance) continue;
    const distance = boundedDistance(wanted.lower, profile.lower, bestDistance - 1, state);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * `did you mean "x"?`, or the valid values when none is close: the first few, each shortened,
 * while the document's listings last; then a pointer to the earlier listing.
 */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const close = suggestName(name, candidates);
  if (close !== undefined) return `did you mean "${close}"?`;
  if (candidates.length === 0) return "nothing is valid here";
  const state = active;
  if (state !== undefined && candidates.length > LISTED_NAMES) {
    if (state.listings <= 0)
      return `none of the ${candidates.length} valid names is close; they are listed in the first issues of this kind`;
    state.listings--;
  }
  const shown = candidates.slice(0, LISTED_NAMES).map((candidate) => `"${shortened(candidate)}"`);
  const more = candidates.length > LISTED_NAMES ? `, ... (${candidates.length - LISTED_NAMES} more)` : "";
  return `valid: ${shown.join(", ")}${more}`;
}

/** A name for a listing: long names keep their start and end (`E1xxxx…xxxx`). */
function shortened(name: string): string {
  if (name.length <= LISTED_NAME_LENGTH) return name;
  return `${name.slice(0, LISTED_NAME_LENGTH - 12)}…${name.slice(-11)}`;
}
