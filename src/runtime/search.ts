/**
 * Full-text search terms: a search query takes one parameter per term (`@term1`, `@term2`, ...:
 * FullTextScore and FullTextContainsAny take each term as its own argument), as many as the
 * pattern's `terms`; a call with fewer terms leaves the others out of the query text and of
 * its parameters, so that no empty term is scored.
 */
import { DataAccessError } from "./errors.js";
import type { QueryStream } from "./paging.js";

/**
 * The query and streams with the terms bound: `@term1..@termN` for N given terms, the others
 * removed from every argument list. Throws `badSearchTerms` for no term or more than `most`.
 * @example withSearchTerms("... FullTextScore(c.t, @term1, @term2)", streams, ["cosmos"], 2)
 *   // ["... FullTextScore(c.t, @term1)", streams with @term1 = "cosmos"]
 */
export function withSearchTerms(
  query: string,
  streams: readonly QueryStream[],
  terms: readonly string[],
  most: number,
): readonly [string, readonly QueryStream[]] {
  if (terms.length === 0 || terms.length > most)
    throw new DataAccessError(
      "badSearchTerms",
      `a full-text search takes 1 to ${most} terms, got ${terms.length}`,
      { context: { terms: terms.length, most } },
    );
  let text = query;
  for (let n = terms.length + 1; n <= most; n++)
    text = text.split(`, @term${n})`).join(")").split(`, @term${n},`).join(",");
  const bound = (name: string): number | undefined => {
    const match = /^@term(\d+)$/.exec(name);
    return match?.[1] === undefined ? undefined : Number(match[1]);
  };
  return [
    text,
    streams.map((stream) => ({
      ...stream,
      parameters: stream.parameters
        .filter((p) => (bound(p.name) ?? 0) <= terms.length)
        .map((p) => {
          const n = bound(p.name);
          return n === undefined ? p : { name: p.name, value: terms[n - 1] };
        }),
    })),
  ];
}
