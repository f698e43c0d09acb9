/**
 * "Did you mean ...?" suggestions for misspelled names (attributes, entities, fields).
 */

/** Edit distance (Levenshtein) between two strings, case-insensitive. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, index) => index);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      current.push(
        Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost),
      );
    }
    previous = current;
  }
  return previous[y.length] ?? 0;
}

/**
 * Names longer than this get no suggestion (nobody mistypes a name that long, and the edit
 * distance costs the product of the two lengths), and candidates longer than it are not offered.
 */
export const MAX_SUGGESTED_NAME_LENGTH = 128;

/**
 * The closest candidate to `name`, if it is close enough to be a likely typo
 * (at most a third of the name's length, and at least one edit allowed).
 * @example suggestName("userid", ["userId", "postId"]) // "userId"
 */
export function suggestName(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > MAX_SUGGESTED_NAME_LENGTH) return undefined;
  const allowed = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    // The distance is at least the difference in length: too far, or too long to compare.
    if (candidate.length > MAX_SUGGESTED_NAME_LENGTH || Math.abs(candidate.length - name.length) > allowed)
      continue;
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= allowed ? best : undefined;
}

/** `did you mean "x"?`, or the list of valid values when none is close. */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const close = suggestName(name, candidates);
  if (close !== undefined) return `did you mean "${close}"?`;
  const shown = candidates.slice(0, 12).map((candidate) => `"${candidate}"`);
  const more = candidates.length > 12 ? `, ... (${candidates.length - 12} more)` : "";
  return candidates.length === 0 ? "nothing is valid here" : `valid: ${shown.join(", ")}${more}`;
}
