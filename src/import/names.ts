/**
 * Names of the workload from names of the database: a table becomes an entity in singular
 * PascalCase (`order_lines` -> `OrderLine`), a column an attribute in camelCase
 * (`customer_id` -> `customerId`), as Cosmos DB documents are usually written. Each name is a
 * valid workload identifier and unique in its scope; the original names stay in the import's
 * record of where each value came from.
 */
import pluralize from "pluralize";
import { isValidEntityName, isValidName } from "../session/draft.js";
import { isItemPropertyName } from "../workload/raw-schema.js";

/** The words of a database identifier (`OrderLines`, `order_lines`, `order-lines` -> order, lines). */
function words(identifier: string): string[] {
  return identifier
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "")
    .map((word) => word.toLowerCase());
}

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** `order_lines` -> `OrderLine`; a name that would not be an identifier gets a prefix. */
export function entityNameOf(table: string): string {
  const parts = words(table);
  const last = parts.pop();
  if (last !== undefined) parts.push(pluralize.singular(last));
  const name = parts.map(capitalize).join("").slice(0, 60);
  return /^[A-Za-z]/.test(name) ? name : `T${name}`;
}

/**
 * `customer_id` -> `customerId`, `Customer ID` -> `customerId`; a column named like a property
 * every item has (`type`, `ttl`, `_x`: `isItemPropertyName`) gets `Value` appended (`typeValue`).
 */
export function attributeNameOf(column: string): string {
  const [head = "", ...rest] = words(column);
  const name = (head + rest.map(capitalize).join("")).slice(0, 60);
  const valid = /^[A-Za-z_$]/.test(name) ? name : `c${name}`;
  return isItemPropertyName(valid) ? `${valid.replace(/^_+/, "") || "c"}Value` : valid;
}

/**
 * Gives each original a unique name: `make(original)`, then `2`, `3`... appended on a clash.
 * Returns the names in the order of `originals`.
 */
export function uniqueNames(
  originals: readonly string[],
  make: (original: string) => string,
  valid: (name: string) => boolean = isValidName,
): string[] {
  const taken = new Set<string>();
  return originals.map((original) => {
    const base = make(original);
    let name = valid(base) ? base : `x${base}`;
    for (let n = 2; taken.has(name.toLowerCase()) || !valid(name); n++) name = `${base}${n}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/** Entity names for tables (unique, valid entity identifiers). */
export function entityNames(tables: readonly string[]): string[] {
  return uniqueNames(tables, entityNameOf, isValidEntityName);
}
