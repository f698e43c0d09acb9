/**
 * The structured changes an answer makes to the session: adding, editing and removing entities,
 * attributes, relationships and access patterns, setting rates and scale, recording business
 * figures for an estimate, and recording the user's confirmations. The interview in the terminal
 * and an assistant over MCP both speak this language; `applyChanges` is its only interpreter.
 *
 * Every change is strict: a field it does not have (`keyy`) is refused with the closest field
 * it does have and the list of its fields, never dropped. Numbers may also come as text that is
 * only a number ("600"); each says its range when it is out of it.
 */
import { z } from "zod";
import { suggestName } from "../source/suggest.js";
import {
  ATTRIBUTE_TYPES,
  CHANGE_FREQUENCIES,
  CONSISTENCY_LEVELS,
  PREDICATE_OPERATORS,
  RELATIONSHIP_KINDS,
  WRITE_OPERATIONS,
  binningSchema,
  draftSearchSchema,
  isValidEntityName,
  isValidName,
} from "./draft.js";
import { numberIn, RANGES } from "./value-ranges.js";
import { rawFullTextSchema, rawVectorSchema } from "../workload/raw-schema.js";

const name = z.string().refine(isValidName, {
  message: "expected a name of letters, digits, _ and $ that does not start with a digit (at most 64)",
});
const entityName = z.string().refine(isValidEntityName, {
  message: "expected a name of letters, digits and _ that does not start with a digit (at most 64)",
});
const positiveInteger = numberIn(RANGES.positiveInteger);
const positive = numberIn(RANGES.positive);
const nonNegative = numberIn(RANGES.nonNegative);
const patternId = z.string().min(1).max(64);

/**
 * A strict object whose unknown fields are refused with "did you mean" and the valid fields.
 * `what` names it in messages (`add-entity`, `attribute`).
 */
function strictObject<Shape extends z.ZodRawShape>(what: string, shape: Shape) {
  const fields = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return undefined;
      const described = issue.keys.map((key) => {
        const suggestion = suggestName(key, fields);
        return `"${key}"${suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`}`;
      });
      return `${what} has no field ${described.join(", ")}; its fields are ${fields.join(", ")}`;
    },
  });
}

const attributeFields = {
  type: z.enum(ATTRIBUTE_TYPES).optional(),
  avgBytes: positive.optional(),
  distinct: positiveInteger.optional(),
  skew: nonNegative
    .optional()
    .describe("Zipf exponent of how requests spread over the values: 0 even, 1 a few popular values"),
  unique: z.boolean().optional(),
  changes: z.enum(CHANGE_FREQUENCIES).optional(),
  presence: numberIn(RANGES.share)
    .optional()
    .describe("share of the records that have a value, more than 0 and at most 1 (sparse attribute)"),
  vector: rawVectorSchema
    .optional()
    .describe(
      "an embedding (type array): { dimensions, dataType (default float32), distance (default cosine) }",
    ),
  fullText: rawFullTextSchema
    .optional()
    .describe("text searched by full text (type string): { language } (default en-US)"),
};

/** A key or a via: one attribute name, or the list of a composite key (`[filmId, actorId]`). */
const names = z.union([name, z.array(name).min(1)]);

const entityFields = {
  key: names
    .optional()
    .describe("the key attribute, or the list of attributes that together identify a record (composite key)"),
  count: positive.optional(),
  growthPerMonth: nonNegative.optional(),
  avgBytes: positive.optional(),
  maxBytes: positive.optional(),
  ttlSeconds: numberIn(RANGES.ttlSeconds)
    .optional()
    .describe("records expire this long after their last write"),
  binning: binningSchema
    .optional()
    .describe("false (never bin), { windowSeconds: N } or { recordsPerItem: N }: the massive-scale answer"),
};

const relationshipFields = {
  relationshipKind: z
    .enum(RELATIONSHIP_KINDS)
    .optional()
    .describe("`kind` of the relationship in the workload file"),
  via: names
    .optional()
    .describe(
      "the child's attribute holding the parent's key; a list, in the parent's key order, for a composite key",
    ),
  avg: positive.optional(),
  max: positive.nullable().optional().describe("children per parent at most; null = unbounded"),
  owned: z.boolean().optional(),
};

const rate = strictObject("rps", { avg: nonNegative.optional(), peak: nonNegative.optional() });

const patternFields = {
  name: z.string().min(1).max(200).optional(),
  entity: entityName.optional(),
  rps: rate.optional(),
  standalone: z.boolean().optional(),
  skew: nonNegative.optional().describe("how this pattern's requests spread over the values it locates"),
  operation: z.enum(WRITE_OPERATIONS).optional(),
  changes: z.array(name).optional(),
  batch: positiveInteger.optional(),
  atomicWith: z
    .array(patternId)
    .min(1)
    .optional()
    .describe("ids of write patterns that must commit in the same transaction as this one"),
  bufferedRecords: positiveInteger
    .optional()
    .describe("records of one key the writer sends in one request (1 = each as it comes)"),
  where: z.record(name, z.enum(PREDICATE_OPERATORS)).optional(),
  orderBy: z.record(name, z.enum(["asc", "desc"])).optional(),
  limit: positiveInteger.optional(),
  returns: strictObject("returns", { avg: nonNegative }).optional(),
  select: z.array(name).optional(),
  truncate: z.record(name, positiveInteger).optional(),
  with: z
    .array(z.string().min(1))
    .optional()
    .describe(
      "related data returned with each item: Entity.attribute, count(Entity), sum(Entity.attribute), min(...), max(...), latest(Entity, N) or all(Entity)",
    ),
  consistency: z.enum(CONSISTENCY_LEVELS).optional(),
  latencyMs: positive.optional(),
  maxStalenessSeconds: nonNegative
    .optional()
    .describe("how old the related data returned may be, in seconds (0 = as of the last write)"),
  search: draftSearchSchema
    .optional()
    .describe(
      "a vector search (nearest: a vector attribute, recall), a full-text search (fullText: a full-text attribute, terms) or both (hybrid); k results",
    ),
};

const CHANGE_MEMBERS = [
  strictObject("set-application", {
    kind: z.literal("set-application"),
    name: z.string().min(1).max(200).optional(),
    domain: z.string().min(1).max(200).optional(),
    description: z.string().min(1).max(2000).optional(),
  }),
  strictObject("add-note", { kind: z.literal("add-note"), text: z.string().min(1).max(2000) }),
  strictObject("add-entity", {
    kind: z.literal("add-entity"),
    name: entityName,
    ...entityFields,
    attributes: z
      .record(name, z.union([z.enum(ATTRIBUTE_TYPES), strictObject("attribute", attributeFields)]))
      .optional(),
  }),
  strictObject("update-entity", {
    kind: z.literal("update-entity"),
    name: entityName,
    rename: entityName.optional(),
    ...entityFields,
  }),
  strictObject("remove-entity", { kind: z.literal("remove-entity"), name }),
  strictObject("set-attribute", { kind: z.literal("set-attribute"), entity: name, name, ...attributeFields }),
  strictObject("remove-attribute", { kind: z.literal("remove-attribute"), entity: name, name }),
  strictObject("add-relationship", {
    kind: z.literal("add-relationship"),
    parent: name,
    child: name,
    ...relationshipFields,
  }),
  strictObject("update-relationship", {
    kind: z.literal("update-relationship"),
    parent: name,
    child: name,
    of: names
      .optional()
      .describe(
        "the via of the relationship meant, when several relate the same two entities (a film's language and its original language)",
      ),
    ...relationshipFields,
  }),
  strictObject("remove-relationship", {
    kind: z.literal("remove-relationship"),
    parent: name,
    child: name,
    of: names
      .optional()
      .describe("the via of the relationship meant, when several relate the same two entities"),
  }),
  strictObject("add-access-pattern", {
    kind: z.literal("add-access-pattern"),
    id: patternId.optional().describe("default: Q<n> for reads, C<n> for writes"),
    type: z.enum(["read", "write"]),
    ...patternFields,
    name: z.string().min(1).max(200),
    entity: entityName,
  }),
  strictObject("update-access-pattern", {
    kind: z.literal("update-access-pattern"),
    id: patternId,
    type: z.enum(["read", "write"]).optional(),
    ...patternFields,
  }),
  strictObject("remove-access-pattern", { kind: z.literal("remove-access-pattern"), id: patternId }),
  strictObject("set-rate", {
    kind: z.literal("set-rate"),
    pattern: patternId,
    avg: nonNegative.optional(),
    peak: nonNegative.optional(),
  }),
  strictObject("set-latency-target", {
    kind: z.literal("set-latency-target"),
    latencyMs: positive.describe("p99 latency target in milliseconds"),
    patterns: z
      .array(patternId)
      .min(1)
      .optional()
      .describe("the read patterns it applies to; default: every read without a target"),
  }),
  strictObject("mark-rate-unknown", { kind: z.literal("mark-rate-unknown"), pattern: patternId }),
  strictObject("estimate-rate", {
    kind: z.literal("estimate-rate"),
    pattern: patternId,
    dailyActiveUsers: positive,
    actionsPerUserPerDay: positive,
    peakFactor: numberIn(RANGES.peakFactor).describe("peak-hour rate divided by the day's average rate"),
  }),
  strictObject("accept-estimate", { kind: z.literal("accept-estimate"), pattern: patternId }),
  strictObject("reject-estimate", { kind: z.literal("reject-estimate"), pattern: patternId }),
  strictObject("set-scale", {
    kind: z.literal("set-scale"),
    regions: positiveInteger.optional(),
    regionNames: z.array(z.string().min(1).max(100)).optional(),
    multiRegionWrites: z.boolean().optional(),
    consistency: z.enum(CONSISTENCY_LEVELS).optional(),
    horizonMonths: positiveInteger.optional(),
  }),
  strictObject("decline-question", {
    kind: z.literal("decline-question"),
    question: z.string().min(1).max(200),
    answer: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("what the user said, when the question is closed by an answer of no (not skipped)"),
  }),
  strictObject("confirm", {
    kind: z.literal("confirm"),
    subject: z.enum(["access-patterns-complete", "distribution"]),
    value: z.boolean().default(true),
  }),
] as const;

/** The kinds of change, for messages. */
export const CHANGE_KINDS: readonly string[] = CHANGE_MEMBERS.map((member) => member.shape.kind.value);

/** One structured change. `kind` says what it does; see each member for its fields. */
export const changeSchema = z.discriminatedUnion("kind", CHANGE_MEMBERS, {
  error: (issue) => {
    if (issue.code !== "invalid_union") return undefined;
    const kind = (issue.input as { kind?: unknown } | undefined)?.kind;
    if (typeof kind !== "string") return `a change needs a "kind": one of ${CHANGE_KINDS.join(", ")}`;
    const suggestion = suggestName(kind, CHANGE_KINDS);
    return `there is no change kind "${kind}"${suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`}; the kinds are ${CHANGE_KINDS.join(", ")}`;
  },
});

/** A structured change (see `changeSchema`). */
export type Change = z.infer<typeof changeSchema>;
export type ChangeKind = Change["kind"];

/** A list of changes, applied together or not at all. */
export const changesSchema = z.array(changeSchema).min(1).max(200);
