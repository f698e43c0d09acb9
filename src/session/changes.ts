/**
 * The structured changes an answer makes to the session: adding, editing and removing entities,
 * attributes, relationships and access patterns, setting rates and scale, recording business
 * figures for an estimate, and recording the user's confirmations. The interview in the terminal
 * and an assistant over MCP both speak this language; `applyChanges` is its only interpreter.
 */
import { z } from "zod";
import {
  ATTRIBUTE_TYPES,
  CHANGE_FREQUENCIES,
  CONSISTENCY_LEVELS,
  PREDICATE_OPERATORS,
  RELATIONSHIP_KINDS,
  WRITE_OPERATIONS,
  isValidEntityName,
  isValidName,
} from "./draft.js";

const name = z.string().refine(isValidName, {
  message: "expected a name of letters, digits, _ and $ that does not start with a digit (at most 64)",
});
const entityName = z.string().refine(isValidEntityName, {
  message: "expected a name of letters, digits and _ that does not start with a digit (at most 64)",
});
const positiveInteger = z.number().int().positive();
const positive = z.number().positive().finite();
const nonNegative = z.number().nonnegative().finite();
const patternId = z.string().min(1).max(64);

const attributeFields = {
  type: z.enum(ATTRIBUTE_TYPES).optional(),
  avgBytes: positive.optional(),
  distinct: positive.optional(),
  skew: nonNegative.optional(),
  unique: z.boolean().optional(),
  changes: z.enum(CHANGE_FREQUENCIES).optional(),
};

const entityFields = {
  key: name.optional(),
  count: positive.optional(),
  growthPerMonth: nonNegative.optional(),
  avgBytes: positive.optional(),
  maxBytes: positive.optional(),
  ttlSeconds: positive.optional(),
};

const relationshipFields = {
  relationshipKind: z
    .enum(RELATIONSHIP_KINDS)
    .optional()
    .describe("`kind` of the relationship in the workload file"),
  via: name.optional(),
  avg: positive.optional(),
  max: positive.nullable().optional().describe("children per parent at most; null = unbounded"),
  owned: z.boolean().optional(),
};

const rate = z.object({ avg: nonNegative.optional(), peak: nonNegative.optional() });

const patternFields = {
  name: z.string().min(1).max(200).optional(),
  entity: entityName.optional(),
  rps: rate.optional(),
  standalone: z.boolean().optional(),
  operation: z.enum(WRITE_OPERATIONS).optional(),
  changes: z.array(name).optional(),
  batch: positiveInteger.optional(),
  where: z.record(name, z.enum(PREDICATE_OPERATORS)).optional(),
  orderBy: z.record(name, z.enum(["asc", "desc"])).optional(),
  limit: positiveInteger.optional(),
  returns: z.object({ avg: nonNegative }).optional(),
  select: z.array(name).optional(),
  truncate: z.record(name, positiveInteger).optional(),
  with: z.array(z.string().min(1)).optional(),
  consistency: z.enum(CONSISTENCY_LEVELS).optional(),
  latencyMs: positive.optional(),
};

/** One structured change. `kind` says what it does; see each member for its fields. */
export const changeSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("set-application"),
    name: z.string().min(1).max(200).optional(),
    domain: z.string().min(1).max(200).optional(),
    description: z.string().min(1).max(2000).optional(),
  }),
  z.object({ kind: z.literal("add-note"), text: z.string().min(1).max(2000) }),
  z.object({
    kind: z.literal("add-entity"),
    name: entityName,
    ...entityFields,
    attributes: z.record(name, z.union([z.enum(ATTRIBUTE_TYPES), z.object(attributeFields)])).optional(),
  }),
  z.object({
    kind: z.literal("update-entity"),
    name: entityName,
    rename: entityName.optional(),
    ...entityFields,
  }),
  z.object({ kind: z.literal("remove-entity"), name }),
  z.object({ kind: z.literal("set-attribute"), entity: name, name, ...attributeFields }),
  z.object({ kind: z.literal("remove-attribute"), entity: name, name }),
  z.object({ kind: z.literal("add-relationship"), parent: name, child: name, ...relationshipFields }),
  z.object({ kind: z.literal("update-relationship"), parent: name, child: name, ...relationshipFields }),
  z.object({ kind: z.literal("remove-relationship"), parent: name, child: name }),
  z.object({
    kind: z.literal("add-access-pattern"),
    id: patternId.optional().describe("default: Q<n> for reads, C<n> for writes"),
    type: z.enum(["read", "write"]),
    ...patternFields,
    name: z.string().min(1).max(200),
    entity: entityName,
  }),
  z.object({
    kind: z.literal("update-access-pattern"),
    id: patternId,
    type: z.enum(["read", "write"]).optional(),
    ...patternFields,
  }),
  z.object({ kind: z.literal("remove-access-pattern"), id: patternId }),
  z.object({
    kind: z.literal("set-rate"),
    pattern: patternId,
    avg: nonNegative.optional(),
    peak: nonNegative.optional(),
  }),
  z.object({
    kind: z.literal("mark-rate-unknown"),
    pattern: patternId,
  }),
  z.object({
    kind: z.literal("estimate-rate"),
    pattern: patternId,
    dailyActiveUsers: positive,
    actionsPerUserPerDay: positive,
    peakFactor: z.number().min(1).finite().describe("peak-hour rate divided by the day's average rate"),
  }),
  z.object({ kind: z.literal("accept-estimate"), pattern: patternId }),
  z.object({ kind: z.literal("reject-estimate"), pattern: patternId }),
  z.object({
    kind: z.literal("set-scale"),
    regions: z.number().int().positive().optional(),
    regionNames: z.array(z.string().min(1).max(100)).optional(),
    multiRegionWrites: z.boolean().optional(),
    consistency: z.enum(CONSISTENCY_LEVELS).optional(),
    horizonMonths: positiveInteger.optional(),
  }),
  z.object({
    kind: z.literal("answer-massive-scale"),
    binning: z.string().min(1).max(2000).optional(),
    writeReduction: z.string().min(1).max(2000).optional(),
    dataSizeFanOut: z.string().min(1).max(2000).optional(),
  }),
  z.object({ kind: z.literal("decline-question"), question: z.string().min(1).max(200) }),
  z.object({
    kind: z.literal("confirm"),
    subject: z.enum(["access-patterns-complete", "distribution"]),
    value: z.boolean().default(true),
  }),
]);

/** A structured change (see `changeSchema`). */
export type Change = z.infer<typeof changeSchema>;
export type ChangeKind = Change["kind"];

/** A list of changes, applied together or not at all. */
export const changesSchema = z.array(changeSchema).min(1).max(200);
