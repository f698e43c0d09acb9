/**
 * Questions about how the data hangs together: reads without writes (and the reverse), unused
 * entities, relationships and their bounds, and the cardinality of filtered attributes.
 */
import type { Change } from "./changes.js";
import {
  cardinalityGaps,
  inferredRelationships,
  pairingGaps,
  relationshipsWithoutBounds,
  skewGaps,
  type PairingGap,
} from "./gaps.js";
import { lowerFirst } from "./ask-workload.js";
import type { Choice, Question, QuestionGroup } from "./questions.js";
import type { SessionState } from "./state.js";
import { RANGES } from "./value-ranges.js";

/**
 * Reads without a creating write, writes nobody reads, and entities no pattern uses: every
 * entity's gap at once, one group.
 */
export function askReadWritePairs(state: SessionState): readonly Question[] {
  const gaps = pairingGaps(state);
  const group: QuestionGroup = {
    id: "pairing",
    text: "Some reads have no write that creates their items, or writes are never read:",
  };
  return gaps.map((gap) => ({ ...pairingQuestion(gap), ...(gaps.length > 1 ? { group } : {}) }));
}

function pairingQuestion(gap: PairingGap): Question {
  if (gap.missing === "any") {
    return {
      id: gap.questionId,
      topic: "read-write-pairs",
      text: `No access pattern reads or writes ${gap.entity} items yet. How does the application use them?`,
      why: "An entity without access patterns cannot be placed: the patterns decide its container and partition key.",
      answer: {
        kind: "choice",
        choices: [
          {
            value: "add",
            label: `Add an access pattern for ${gap.entity}`,
            changes: [],
            form: { form: "access-pattern", preset: { entity: gap.entity } },
          },
          {
            value: "remove",
            label: `${gap.entity} is not stored in this database: remove it`,
            changes: [{ kind: "remove-entity", name: gap.entity }],
          },
        ],
      },
      optional: true,
    };
  }
  const standalone: Change[] = gap.patterns.map((id) => ({
    kind: "update-access-pattern",
    id,
    standalone: true,
  }));
  const list = gap.patterns.join(", ");
  if (gap.missing === "create") {
    return {
      id: gap.questionId,
      topic: "read-write-pairs",
      text: `I see ${list} reading ${gap.entity} items, but no write pattern that creates them. Should we add one (e.g. create-${lowerFirst(gap.entity)})?`,
      why: "Writes cost about five times more RU than reads and can change the best design (denormalized copies must be kept up to date).",
      answer: {
        kind: "choice",
        choices: [
          {
            value: "add",
            label: `Yes, add the write that creates ${gap.entity} items`,
            changes: [],
            form: {
              form: "access-pattern",
              preset: { type: "write", entity: gap.entity, operation: "create" },
            },
          },
          {
            value: "standalone",
            label: `No, ${gap.entity} items are loaded outside the application (mark ${list} standalone)`,
            changes: standalone,
          },
        ],
      },
      optional: true,
    };
  }
  return {
    id: gap.questionId,
    topic: "read-write-pairs",
    text: `${list} write ${gap.entity} items, but no access pattern reads them. Should we add the read (e.g. get-${lowerFirst(gap.entity)})?`,
    why: "Reads decide the partition key; a design without them may put the items where no query can find them cheaply.",
    answer: {
      kind: "choice",
      choices: [
        {
          value: "add",
          label: `Yes, add a read of ${gap.entity} items`,
          changes: [],
          form: { form: "access-pattern", preset: { type: "read", entity: gap.entity } },
        },
        {
          value: "standalone",
          label: `No, they are read by another system or never (mark ${list} standalone)`,
          changes: standalone,
        },
      ],
    },
    optional: true,
  };
}

/** How evenly the requests spread over the values of an attribute: the choices (Zipf exponents). */
function skewChoices(): readonly Choice[] {
  return [
    {
      value: "even",
      label: "evenly: no value gets much more than the others (skew 0)",
      changes: [],
      sets: { skew: 0 },
    },
    {
      value: "popular",
      label: "a few popular values get most of the requests (skew 1)",
      changes: [],
      sets: { skew: 1 },
    },
    {
      value: "dominant",
      label: "one value takes a large share of them (skew 1.5)",
      changes: [],
      sets: { skew: 1.5 },
    },
  ];
}

/** A skew the interview has yet to ask. */
type SkewGap = ReturnType<typeof skewGaps>[number];
/** The change a relationship's answers fill (add- or update-relationship, without its fields). */
type ChangeTarget = Readonly<Record<string, unknown>>;

/** A relationship the interview asks about, found or inferred, and what is open about it. */
interface OpenRelationship {
  readonly parent: string;
  readonly child: string;
  readonly via: string | undefined;
  /** The id of the question whether it exists (asked only for an inferred one). */
  readonly questionId: string;
  /** False for a relationship inferred from an attribute's name, not yet in the workload. */
  readonly exists: boolean;
  /** Whether its bounds and ownership are asked (false when only the skew is open). */
  readonly bounds: boolean;
}

/**
 * Each relationship in one group: whether a likely one exists (the child has an attribute named
 * like the parent's key), its bounds and ownership, and how evenly the reads that follow it
 * spread over the parents. Three relationships a turn.
 */
export function askRelationships(state: SessionState): readonly Question[] {
  const skews = skewGaps(state);
  const viaSkew = (child: string, via: string | undefined): SkewGap | undefined =>
    via === undefined ? undefined : skews.find((gap) => gap.entity === child && gap.attribute === via);
  return openRelationships(state, viaSkew).flatMap((relationship) => {
    const { parent, child, via } = relationship;
    const group: QuestionGroup = {
      id: `relationship:${parent}:${child}`,
      text: `${parent} and ${child}${via === undefined ? "" : ` (${child}.${via} holds the ${parent}'s key)`}: how are they related?`,
    };
    const target: ChangeTarget = relationship.exists
      ? { kind: "update-relationship", parent, child }
      : { kind: "add-relationship", parent, child, ...(via === undefined ? {} : { via }) };
    const questions: Question[] = [];
    if (!relationship.exists) questions.push(relationshipKindQuestion(relationship, target, group));
    if (relationship.bounds) questions.push(...boundsQuestions(state, relationship, target, group));
    const skew = viaSkew(child, via);
    if (skew !== undefined && via !== undefined) {
      questions.push({
        id: skew.questionId,
        topic: "relationships",
        text: `Are some ${parent}s much busier than others? How do the reads of ${child} by ${via} spread over the ${parent}s?`,
        why: "A popular parent concentrates its children's reads and writes on one partition key value: a hot partition the design must spread.",
        answer: { kind: "choice", choices: skewChoices() },
        fills: { change: { kind: "set-attribute", entity: child, name: via }, field: "skew" },
        optional: true,
        group,
      });
    }
    return questions;
  });
}

/**
 * The relationships with something open: inferred ones (not yet in the workload), known ones
 * without bounds, and known ones whose bounds are known but not how the parents' popularity
 * spreads the reads.
 */
function openRelationships(
  state: SessionState,
  viaSkew: (child: string, via: string | undefined) => SkewGap | undefined,
): readonly OpenRelationship[] {
  const inferred = inferredRelationships(state).map((r) => ({ ...r, exists: false, bounds: true }));
  // A via of several attributes (a composite parent key) is named in no question (no skew asked).
  const single = (via: readonly string[] | undefined): string | undefined =>
    via?.length === 1 ? via[0] : undefined;
  const known = relationshipsWithoutBounds(state.workload).map((r) => ({
    parent: r.parent,
    child: r.child,
    via: single(r.via),
    questionId: `relationship:${r.parent}:${r.child}:exists`,
    exists: true,
    bounds: true,
  }));
  const onlySkew = state.workload.relationships
    .filter((r) => !known.some((k) => k.parent === r.parent && k.child === r.child))
    .filter((r) => viaSkew(r.child, single(r.via)) !== undefined)
    .map((r) => ({
      parent: r.parent,
      child: r.child,
      via: single(r.via),
      questionId: `relationship:${r.parent}:${r.child}:exists`,
      exists: true,
      bounds: false,
    }));
  return [...inferred, ...known, ...onlySkew];
}

/** Whether an inferred relationship exists, and of which kind (one-to-one skips the bounds). */
function relationshipKindQuestion(
  relationship: OpenRelationship,
  target: ChangeTarget,
  group: QuestionGroup,
): Question {
  const { parent, child, via } = relationship;
  const prefix = `relationship:${parent}:${child}`;
  const rest = [`${prefix}:avg`, `${prefix}:max`, `${prefix}:owned`, `skew:${child}:${via ?? ""}`];
  return {
    id: relationship.questionId,
    topic: "relationships",
    text: `${child} has ${via ?? "an attribute"}, the key of ${parent}. How are they related?`,
    why: "One-to-many relationships are where embedding, identifying partition keys and denormalization pay off.",
    answer: {
      kind: "choice",
      choices: [
        {
          value: "one-to-many",
          label: `Each ${parent} has many ${child} items`,
          changes: [],
          sets: { relationshipKind: "one-to-many" },
        },
        {
          value: "one-to-one",
          label: `Each ${parent} has at most one ${child}`,
          changes: [],
          sets: { relationshipKind: "one-to-one", avg: 1, max: 1 },
          skips: [`${prefix}:avg`, `${prefix}:max`],
        },
        {
          value: "none",
          label: "They are not related that way",
          changes: [{ kind: "decline-question", question: relationship.questionId }],
          skips: rest,
        },
      ],
    },
    fills: { change: target, field: "relationshipKind" },
    optional: true,
    group,
  };
}

/** The relationship's average and maximum children and its ownership, those not known yet. */
function boundsQuestions(
  state: SessionState,
  relationship: OpenRelationship,
  target: ChangeTarget,
  group: QuestionGroup,
): readonly Question[] {
  const { parent, child } = relationship;
  const prefix = `relationship:${parent}:${child}`;
  const existing = state.workload.relationships.find((r) => r.parent === parent && r.child === child);
  const questions: Question[] = [];
  if (existing?.avg === undefined) {
    questions.push({
      id: `${prefix}:avg`,
      topic: "relationships",
      text: `How many ${child} items does one ${parent} have on average?`,
      why: "The average number of children sets the size of an embedded list and the result size of a per-parent query.",
      answer: { kind: "number", unit: "count", range: RANGES.positive },
      fills: { change: target, field: "avg" },
      optional: false,
      group,
    });
  }
  if (existing?.max === undefined) {
    questions.push({
      id: `${prefix}:max`,
      topic: "relationships",
      text: `And at most? (a number, or "unbounded" if there is no limit)`,
      why: "Only a bounded list can be embedded safely (2 MB item limit); an unbounded one needs its own items.",
      answer: {
        kind: "number",
        unit: "count",
        range: RANGES.positive,
        alternatives: [
          { value: "unbounded", label: "unbounded (no limit)", changes: [], sets: { max: null } },
        ],
      },
      fills: { change: target, field: "max" },
      optional: false,
      group,
    });
  }
  if (existing?.owned === undefined) {
    questions.push({
      id: `${prefix}:owned`,
      topic: "relationships",
      text: `Can a ${child} exist without its ${parent} (e.g. after the ${parent} is deleted)?`,
      why: "A child that cannot exist without its parent is an identifying relationship: the parent's key can partition both.",
      answer: {
        kind: "choice",
        choices: [
          { value: "owned", label: `No, it belongs to its ${parent}`, changes: [], sets: { owned: true } },
          { value: "independent", label: "Yes, it is independent", changes: [], sets: { owned: false } },
        ],
      },
      fills: { change: target, field: "owned" },
      optional: false,
      group,
    });
  }
  return questions;
}

/**
 * For each entity, the number of distinct values of the attributes reads filter on with eq/in
 * (unless implied: keys, unique attributes, booleans, a relationship's via) and how evenly the
 * requests spread over them. One group per entity.
 */
export function askCardinality(state: SessionState): readonly Question[] {
  const distinct = cardinalityGaps(state);
  const viaAttributes = new Set(
    state.workload.relationships.flatMap((r) => (r.via ?? []).map((via) => `${r.child}.${via}`)),
  );
  // a via's skew is asked with its relationship
  const skews = skewGaps(state).filter((gap) => !viaAttributes.has(`${gap.entity}.${gap.attribute}`));
  const entities = [...new Set([...distinct, ...skews].map((gap) => gap.entity))];
  return entities.flatMap((entity) => {
    const attributes = [
      ...new Set([...distinct, ...skews].filter((gap) => gap.entity === entity).map((gap) => gap.attribute)),
    ];
    const group: QuestionGroup = {
      id: `cardinality:${entity}`,
      text: `${entity}: how many different values do ${attributes.join(", ")} take, and how evenly are the requests spread over them?`,
    };
    return attributes.flatMap((attribute): Question[] => {
      const change = { kind: "set-attribute", entity, name: attribute };
      const questions: Question[] = [];
      const gap = distinct.find((g) => g.entity === entity && g.attribute === attribute);
      if (gap !== undefined) {
        questions.push({
          id: gap.questionId,
          topic: "cardinality",
          text: `How many distinct values does ${entity}.${attribute} have (e.g. 3 for a status, 500 for tenants)?`,
          why: "A filter or partition key with few distinct values concentrates load (aim for 100+ values).",
          answer: { kind: "number", unit: "count", range: RANGES.positiveInteger },
          fills: { change, field: "distinct" },
          optional: true,
          group,
        });
      }
      const skew = skews.find((g) => g.entity === entity && g.attribute === attribute);
      if (skew !== undefined) {
        questions.push({
          id: skew.questionId,
          topic: "cardinality",
          text: `How are the requests that filter on ${entity}.${attribute} spread over its values?`,
          why: "A value that gets most of the requests is a hot partition if the design partitions by it.",
          answer: { kind: "choice", choices: skewChoices() },
          fills: { change, field: "skew" },
          optional: true,
          group,
        });
      }
      return questions;
    });
  });
}
