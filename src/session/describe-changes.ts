/**
 * Changes in words, for the "what I learned" part of the turn summary.
 */
import type { DraftAccessPattern, DraftAttribute, DraftEntity } from "./draft.js";
import { formatNumber } from "./estimate-rate.js";

/** ": key userId, 1,000 items, ..." for the turn summary. */
export function describeEntity(entity: Partial<DraftEntity>): string {
  const parts = [
    entity.key === undefined ? undefined : `key ${formatNames(entity.key)}`,
    entity.count === undefined ? undefined : `${formatNumber(entity.count)} items`,
    entity.growthPerMonth === undefined ? undefined : `+${formatNumber(entity.growthPerMonth)} per month`,
    entity.avgBytes === undefined ? undefined : `${formatNumber(entity.avgBytes)} bytes on average`,
    entity.maxBytes === undefined ? undefined : `at most ${formatNumber(entity.maxBytes)} bytes`,
    entity.ttlSeconds === undefined
      ? undefined
      : `expires ${formatNumber(entity.ttlSeconds)} s after its last write`,
    entity.binning === undefined
      ? undefined
      : entity.binning === false
        ? "never binned"
        : entity.binning.windowSeconds !== undefined
          ? `binned per ${formatNumber(entity.binning.windowSeconds)} s window`
          : `binned ${formatNumber(entity.binning.recordsPerItem ?? 0)} records per item`,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? "" : `: ${parts.join(", ")}`;
}

/** "string, 3 distinct values, unique" for the turn summary. */
export function describeAttribute(attribute: DraftAttribute): string {
  const parts = [
    attribute.type,
    attribute.vector === undefined
      ? undefined
      : `a vector of ${formatNumber(attribute.vector.dimensions)} dimensions (${attribute.vector.dataType ?? "float32"}, ${attribute.vector.distance ?? "cosine"})`,
    attribute.fullText === undefined
      ? undefined
      : `searched by full text (${attribute.fullText.language ?? "en-US"})`,
    attribute.distinct === undefined ? undefined : `${formatNumber(attribute.distinct)} distinct values`,
    attribute.unique === true ? "unique" : undefined,
    attribute.changes === undefined ? undefined : `changes ${attribute.changes}`,
    attribute.avgBytes === undefined ? undefined : `${formatNumber(attribute.avgBytes)} bytes`,
    attribute.skew === undefined
      ? undefined
      : attribute.skew === 0
        ? "requests spread evenly over its values (skew 0)"
        : `skew ${formatNumber(attribute.skew)} (a few values get most requests)`,
    attribute.presence === undefined
      ? undefined
      : `${formatNumber(attribute.presence * 100)}% of the records have it`,
  ].filter((part) => part !== undefined);
  return parts.join(", ");
}

/** "User 1:N Post via userId (avg 27.5, max 50, owned)". */
export function describeRelationship(relationship: {
  parent: string;
  child: string;
  kind?: string;
  via?: readonly string[];
  avg?: number;
  max?: number | null;
  owned?: boolean;
}): string {
  const arrow =
    relationship.kind === "many-to-many" ? "M:N" : relationship.kind === "one-to-one" ? "1:1" : "1:N";
  const bounds = [
    relationship.avg === undefined ? undefined : `avg ${formatNumber(relationship.avg)}`,
    relationship.max === undefined
      ? undefined
      : relationship.max === null
        ? "unbounded"
        : `max ${formatNumber(relationship.max)}`,
    relationship.owned === undefined ? undefined : relationship.owned ? "owned" : "independent",
  ].filter((part) => part !== undefined);
  return `${relationship.parent} ${arrow} ${relationship.child}${relationship.via === undefined ? "" : ` via ${formatNames(relationship.via)}`}${bounds.length === 0 ? "" : ` (${bounds.join(", ")})`}`;
}

/** A key or via in words: the attribute alone, or the list of a composite key (`[filmId, actorId]`). */
export function formatNames(names: readonly string[]): string {
  return names.length === 1 ? (names[0] ?? "") : `[${names.join(", ")}]`;
}

/** ", rate avg 5/s, peak 20/s" for the turn summary. */
export function describeRate(pattern: DraftAccessPattern): string {
  const { avg, peak } = pattern.rps ?? {};
  if (avg === undefined && peak === undefined) return "";
  const part = (value: number | undefined): string =>
    value === undefined ? "unknown" : `${formatNumber(value)}/s`;
  return `, rate avg ${part(avg)}, peak ${part(peak)}`;
}
