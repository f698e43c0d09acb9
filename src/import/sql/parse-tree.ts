/**
 * Helpers over the tree PostgreSQL's parser (libpg-query) returns: every node is an object of
 * one key, its tag (`{ ColumnRef: { fields: [...] } }`).
 */

/** A node of the parser's tree, after its tag. */
export type Tree = Readonly<Record<string, unknown>>;

/** The tag and body of a node (`{ FuncCall: {...} }` -> ["FuncCall", {...}]), or undefined. */
export function unwrap(value: unknown): [string, Tree] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const entry = Object.entries(value)[0];
  return entry !== undefined && typeof entry[1] === "object" && entry[1] !== null
    ? [entry[0], entry[1] as Tree]
    : undefined;
}

/** The value as a list (empty when it is none). */
export const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

/** The texts of a list of `String` nodes (a qualified name: `["pg_catalog", "to_tsvector"]`). */
export function strings(value: unknown): string[] {
  return list(value).flatMap((item) => {
    const node = unwrap(item);
    return node?.[0] === "String" && typeof node[1].sval === "string" ? [node[1].sval] : [];
  });
}
