/**
 * The `with` entries of a read pattern: related data returned with each item.
 * `User.username`, `count(Comment)`, `sum(Bet.amount)` (and min, max), `latest(Comment, 3)`,
 * `all(OrderItem)`.
 */
import type { WithItem } from "./types.js";

const NAME = "[A-Za-z_][A-Za-z0-9_]*";
const ATTRIBUTE = "[A-Za-z_$][A-Za-z0-9_$]*";
const ATTRIBUTE_OF = new RegExp(`^(${NAME})\\.(${ATTRIBUTE})$`);
const COUNT_OR_ALL = new RegExp(`^(count|all)\\(\\s*(${NAME})\\s*\\)$`);
const AGGREGATE = new RegExp(`^(sum|min|max)\\(\\s*(${NAME})\\.(${ATTRIBUTE})\\s*\\)$`);
const LATEST = new RegExp(`^latest\\(\\s*(${NAME})\\s*,\\s*([0-9]+)\\s*\\)$`);

/** What a valid entry looks like, for messages. */
export const WITH_FORMS =
  "Entity.attribute, count(Entity), sum(Entity.attribute), min(...), max(...), latest(Entity, N) or all(Entity)";

/**
 * Reads one `with` entry, or returns why it cannot be read.
 * @example parseWithItem("latest(Comment, 3)") // { kind: "latest", entity: "Comment", n: 3 }
 */
export function parseWithItem(text: string): { item: WithItem } | { problem: string } {
  const entry = text.trim();
  const attribute = ATTRIBUTE_OF.exec(entry);
  if (attribute !== null)
    return { item: { kind: "attribute", entity: at(attribute, 1), attribute: at(attribute, 2) } };
  const countOrAll = COUNT_OR_ALL.exec(entry);
  if (countOrAll !== null) {
    const entity = at(countOrAll, 2);
    return { item: at(countOrAll, 1) === "count" ? { kind: "count", entity } : { kind: "all", entity } };
  }
  const aggregate = AGGREGATE.exec(entry);
  if (aggregate !== null) {
    const fn = at(aggregate, 1) as "sum" | "min" | "max";
    return { item: { kind: "aggregate", fn, entity: at(aggregate, 2), attribute: at(aggregate, 3) } };
  }
  const latest = LATEST.exec(entry);
  if (latest !== null) {
    const n = Number(at(latest, 2));
    if (!Number.isSafeInteger(n) || n < 1) {
      return { problem: `latest(Entity, N) needs N to be a positive whole number, got ${at(latest, 2)}` };
    }
    return { item: { kind: "latest", entity: at(latest, 1), n } };
  }
  if (/^latest\(\s*[A-Za-z_][A-Za-z0-9_]*\s*$/.test(entry)) {
    return {
      problem: `${JSON.stringify(text)} was cut at its comma: in a [a, b] list, quote it ("latest(Entity, N)") or write the list one entry per line`,
    };
  }
  return { problem: `cannot read ${JSON.stringify(text)}; expected ${WITH_FORMS}` };
}

/** Writes a `with` entry back in the file's syntax (the inverse of `parseWithItem`). */
export function formatWithItem(item: WithItem): string {
  switch (item.kind) {
    case "attribute":
      return `${item.entity}.${item.attribute}`;
    case "count":
      return `count(${item.entity})`;
    case "aggregate":
      return `${item.fn}(${item.entity}.${item.attribute})`;
    case "latest":
      return `latest(${item.entity}, ${item.n})`;
    case "all":
      return `all(${item.entity})`;
    default:
      return item satisfies never;
  }
}

function at(match: RegExpExecArray, index: number): string {
  return match[index] ?? "";
}
