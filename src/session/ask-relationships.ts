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
  requiredRelationships,
  skewGaps,
  type PairingGap,
  type RequiredRelationship,
} from "./gaps.js";
import { lowerFirst } from "./ask-workload.js";
import type { Choice, Question, QuestionGroup } from "./questions.js";
import type { SessionState } from "./state.js";
import type { DraftRelationship } from "./draft.js";
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
  /** For a relationship `with` entries need (not in the workload): the reads that need it. */
  readonly required?: RequiredRelationship;
}

/**
 * The relationships of each parent in one group: for each, whether a likely one exists (the
 * child has an attribute named like the parent's key) or which one `with` entries need, its
 * bounds and ownership, and how evenly the reads that follow it spread over the parents. Three
 * parents a turn.
 */
export function askRelationships(state: SessionState): readonly Question[] {
  const skews = skewGaps(state);
  const viaSkew = (child: string, via: string | undefined): SkewGap | undefined =>
    via === undefined ? undefined : skews.find((gap) => gap.entity === child && gap.attribute === via);
  const open = openRelationships(state, viaSkew);
  const parents = [...new Set(open.map((relationship) => relationship.parent))];
  return parents.flatMap((parent) => {
    const children = open.filter((relationship) => relationship.parent === parent);
    const [only] = children;
    const group: QuestionGroup =
      only !== undefined && children.length === 1
        ? {
            id: `relationship:${parent}:${only.child}`,
            text: `${parent} and ${describeChild(only)}: how are they related?`,
          }
        : {
            id: `relationship:${parent}:${children.map((r) => r.child).join(",")}`,
            text: `${parent} and ${children.map(describeChild).join(", ")}: how are they related?`,
          };
    return children.flatMap((relationship) => relationshipQuestions(state, relationship, viaSkew, group));
  });
}

/** The child of a relationship with what links it: the attribute holding the key, or the reads needing it. */
function describeChild(relationship: OpenRelationship): string {
  const { parent, child, via, required } = relationship;
  if (required !== undefined)
    return `${child} (${required.uses.map((use) => `${use.pattern} returns ${use.entries.join(", ")}`).join("; ")})`;
  return via === undefined ? child : `${child} (${child}.${via} holds the ${parent}'s key)`;
}

/** The open questions of one relationship, asked in its parent's group. */
function relationshipQuestions(
  state: SessionState,
  relationship: OpenRelationship,
  viaSkew: (child: string, via: string | undefined) => SkewGap | undefined,
  group: QuestionGroup,
): readonly Question[] {
  const { parent, child, via } = relationship;
  const target: ChangeTarget = relationship.exists
    ? {
        kind: "update-relationship",
        parent,
        child,
        // two relationships between the same entities (a film's language and original language)
        ...(via !== undefined && sameEntities(state, parent, child).length > 1 ? { of: via } : {}),
      }
    : { kind: "add-relationship", parent, child, ...(via === undefined ? {} : { via }) };
  const questions: Question[] = [];
  if (relationship.required !== undefined)
    questions.push(...requiredQuestions(state, relationship.required, target, group));
  else if (!relationship.exists) questions.push(relationshipKindQuestion(relationship, target, group));
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
    questionId: `relationship:${r.parent}:${r.child}${sameEntities(state, r.parent, r.child).length > 1 && single(r.via) !== undefined ? `.${single(r.via) ?? ""}` : ""}:exists`,
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
  // what `with` entries need: without it the workload does not load
  const required = requiredRelationships(state).map((r) => ({
    parent: r.parent,
    child: r.child,
    via: undefined,
    questionId: r.questionId,
    exists: false,
    bounds: true,
    required: r,
  }));
  return [...inferred, ...known, ...onlySkew, ...required];
}

/**
 * A relationship `with` entries need: of which kind (or none, and the entries go), and which
 * attribute of the child holds the parent's key (none for a many-to-many link).
 */
function requiredQuestions(
  state: SessionState,
  required: RequiredRelationship,
  target: ChangeTarget,
  group: QuestionGroup,
): readonly Question[] {
  const { parent, child } = required;
  const prefix = `relationship:${parent}:${child}`;
  const key = state.workload.entities.find((e) => e.name === parent)?.key ?? [];
  const dropped = required.uses.map(({ pattern, entries }): Change => {
    const read = state.workload.accessPatterns.find((p) => p.id === pattern);
    return {
      kind: "update-access-pattern",
      id: pattern,
      with: (read?.with ?? []).filter((entry) => !entries.includes(entry)),
    };
  });
  const bounds = [`${prefix}:avg`, `${prefix}:max`];
  return [
    {
      id: required.questionId,
      topic: "relationships",
      text: `${required.uses.map((use) => `${use.pattern} returns ${use.entries.join(", ")}`).join("; ")}: that needs a relationship between ${parent} and ${child}. Which is it?`,
      why: "A read returns related data only along a relationship: without it the workload cannot be designed.",
      answer: {
        kind: "choice",
        choices: [
          ...kindChoices(parent, child, bounds),
          {
            value: "many-to-many",
            label: `Each ${parent} has many ${child} items and each ${child} many ${parent}s`,
            changes: [],
            sets: { relationshipKind: "many-to-many" },
            skips: [`${prefix}:via`],
          },
          {
            value: "none",
            label: `They are not related: drop ${required.uses.flatMap((use) => use.entries).join(", ")}`,
            changes: dropped,
            skips: [`${prefix}:via`, ...bounds, `${prefix}:owned`],
          },
        ],
      },
      fills: { change: target, field: "relationshipKind" },
      optional: false,
      group,
    },
    {
      id: `${prefix}:via`,
      topic: "relationships",
      text: `Which attribute of ${child} holds the key of its ${parent}${key.length === 0 ? "" : ` (${key.join(", ")})`}? Skip if none does (a many-to-many link).`,
      why: "The attribute holding the parent's key is how the design finds a parent's children (and can partition them together).",
      answer: { kind: "text" },
      fills: { change: target, field: "via" },
      optional: true,
      group,
    },
  ];
}

/** The one-to-many and one-to-one choices of a relationship's kind (one-to-one skips `bounds`). */
function kindChoices(parent: string, child: string, bounds: readonly string[]): Choice[] {
  return [
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
      skips: [...bounds],
    },
  ];
}

/** The relationships between `parent` and `child` (two when a child holds two keys of its parent). */
function sameEntities(state: SessionState, parent: string, child: string): readonly DraftRelationship[] {
  return state.workload.relationships.filter((r) => r.parent === parent && r.child === child);
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
        ...kindChoices(parent, child, [`${prefix}:avg`, `${prefix}:max`]),
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
  const { parent, child, via } = relationship;
  const several = via !== undefined && sameEntities(state, parent, child).length > 1;
  const prefix = `relationship:${parent}:${child}${several ? `.${via}` : ""}`;
  const existing = sameEntities(state, parent, child).find(
    (r) => !several || (r.via?.length === 1 && r.via[0] === via),
  );
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
      text: `And at most, how many ${child} items per ${parent}? (a number, or "unbounded" if there is no limit)`,
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
 * The number of distinct values of the attributes reads filter on with eq/in (unless implied:
 * keys, unique attributes, booleans, a relationship's via) and how evenly the requests spread
 * over them: one question, with a part for each attribute, entity by entity.
 */
export function askCardinality(state: SessionState): readonly Question[] {
  const distinct = cardinalityGaps(state);
  // a via's skew is asked with its relationship; the parts of a composite via (a parent with a
  // composite key) are asked here, with the attribute's other questions
  const viaAttributes = new Set(
    state.workload.relationships.flatMap((r) => (r.via?.length === 1 ? [`${r.child}.${r.via[0]}`] : [])),
  );
  const skews = skewGaps(state).filter((gap) => !viaAttributes.has(`${gap.entity}.${gap.attribute}`));
  const entities = [...new Set([...distinct, ...skews].map((gap) => gap.entity))];
  const attributesOf = (entity: string): readonly string[] => [
    ...new Set([...distinct, ...skews].filter((gap) => gap.entity === entity).map((gap) => gap.attribute)),
  ];
  const [only] = entities;
  const group: QuestionGroup =
    only !== undefined && entities.length === 1
      ? {
          id: `cardinality:${only}`,
          text: `${only}: how many different values do ${attributesOf(only).join(", ")} take, and how evenly are the requests spread over them?`,
        }
      : {
          id: `cardinality:${entities.join(",")}`,
          text: `How many different values do ${entities.flatMap((entity) => attributesOf(entity).map((a) => `${entity}.${a}`)).join(", ")} take, and how evenly are the requests spread over them?`,
        };
  return entities.flatMap((entity) => {
    const attributes = attributesOf(entity);
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
