/**
 * Questions about how the data hangs together: reads without writes (and the reverse), unused
 * entities, relationships and their bounds, and the cardinality of filtered attributes.
 */
import type { Change } from "./changes.js";
import { cardinalityGaps, inferredRelationships, pairingGaps, relationshipsWithoutBounds } from "./gaps.js";
import { lowerFirst } from "./ask-workload.js";
import type { Question } from "./questions.js";
import type { SessionState } from "./state.js";

/** Reads without a creating write, writes nobody reads, then entities no pattern uses. */
export function askReadWritePairs(state: SessionState): readonly Question[] {
  const gap = pairingGaps(state)[0];
  if (gap === undefined) return [];
  if (gap.missing === "any") {
    return [
      {
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
      },
    ];
  }
  const standalone: Change[] = gap.patterns.map((id) => ({
    kind: "update-access-pattern",
    id,
    standalone: true,
  }));
  const list = gap.patterns.join(", ");
  if (gap.missing === "create") {
    return [
      {
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
      },
    ];
  }
  return [
    {
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
    },
  ];
}

/** Whether a likely relationship exists, then the bounds and ownership of a relationship. */
export function askRelationships(state: SessionState): readonly Question[] {
  const inferred = inferredRelationships(state)[0];
  if (inferred !== undefined) {
    const base = {
      kind: "add-relationship",
      parent: inferred.parent,
      child: inferred.child,
      via: inferred.via,
    } as const;
    return [
      {
        id: inferred.questionId,
        topic: "relationships",
        text: `${inferred.child} has ${inferred.via}, the key of ${inferred.parent}. How are they related?`,
        why: "One-to-many relationships are where embedding, identifying partition keys and denormalization pay off.",
        answer: {
          kind: "choice",
          choices: [
            {
              value: "one-to-many",
              label: `Each ${inferred.parent} has many ${inferred.child} items`,
              changes: [{ ...base, relationshipKind: "one-to-many" }],
            },
            {
              value: "one-to-one",
              label: `Each ${inferred.parent} has at most one ${inferred.child}`,
              changes: [{ ...base, relationshipKind: "one-to-one", max: 1 }],
            },
            {
              value: "none",
              label: "They are not related that way",
              changes: [{ kind: "decline-question", question: inferred.questionId }],
            },
          ],
        },
        optional: true,
      },
    ];
  }
  const relationship = relationshipsWithoutBounds(state.workload)[0];
  if (relationship === undefined) return [];
  const { parent, child } = relationship;
  const update = { kind: "update-relationship", parent, child };
  const prefix = `relationship:${parent}:${child}`;
  const questions: Question[] = [];
  if (relationship.avg === undefined) {
    questions.push({
      id: `${prefix}:avg`,
      topic: "relationships",
      text: `How many ${child} items does one ${parent} have on average?`,
      why: "The average number of children sets the size of an embedded list and the result size of a per-parent query.",
      answer: { kind: "number", unit: "count", integer: false },
      fills: { change: update, field: "avg" },
      optional: false,
    });
  }
  if (relationship.max === undefined) {
    questions.push({
      id: `${prefix}:max`,
      topic: "relationships",
      text: `And at most? (a number, or "unbounded" if there is no limit)`,
      why: "Only a bounded list can be embedded safely (2 MB item limit); an unbounded one needs its own items.",
      answer: {
        kind: "number",
        unit: "count",
        integer: false,
        alternatives: [
          {
            value: "unbounded",
            label: "unbounded (no limit)",
            changes: [{ kind: "update-relationship", parent, child, max: null }],
          },
        ],
      },
      fills: { change: update, field: "max" },
      optional: false,
    });
  }
  if (relationship.owned === undefined) {
    questions.push({
      id: `${prefix}:owned`,
      topic: "relationships",
      text: `Can a ${child} exist without its ${parent} (e.g. after the ${parent} is deleted)?`,
      why: "A child that cannot exist without its parent is an identifying relationship: the parent's key can partition both.",
      answer: {
        kind: "choice",
        choices: [
          {
            value: "owned",
            label: `No, it belongs to its ${parent}`,
            changes: [{ kind: "update-relationship", parent, child, owned: true }],
          },
          {
            value: "independent",
            label: "Yes, it is independent",
            changes: [{ kind: "update-relationship", parent, child, owned: false }],
          },
        ],
      },
      optional: false,
    });
  }
  return questions;
}

/** Distinct values of attributes filtered with eq/in (other than keys), up to three at once. */
export function askCardinality(state: SessionState): readonly Question[] {
  return cardinalityGaps(state).map(({ entity, attribute, questionId }) => ({
    id: questionId,
    topic: "cardinality",
    text: `How many distinct values does ${entity}.${attribute} have (e.g. 3 for a status, 500 for tenants)?`,
    why: "A filter or partition key with few distinct values concentrates load (aim for 100+ values).",
    answer: { kind: "number", unit: "count", integer: true },
    fills: { change: { kind: "set-attribute", entity, name: attribute }, field: "distinct" },
    optional: true,
  }));
}
