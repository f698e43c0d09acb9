/**
 * Chooses what to ask next, the way the expert prompt runs its interview: one question, or at
 * most three related ones, most important first. The massive-scale questions jump the queue as
 * soon as writes exceed 10,000/s or a bulk ingest of millions appears; then the domain, the
 * entities, the access patterns and their rates (estimated from business figures with the user
 * when unknown), reads without writes, attribute types, sizes, relationships, cardinalities,
 * consistency and regions, and finally the user's confirmation that every pattern is captured.
 */
import type { Change } from "./changes.js";
import type { DraftWorkload } from "./draft.js";
import {
  cardinalityGaps,
  entitiesWithoutKey,
  entitiesWithoutSize,
  inferredRelationships,
  massiveScaleOpen,
  massiveScaleReason,
  pairingGaps,
  patternsWithoutRate,
  relationshipsWithoutBounds,
  undeclaredAttributes,
} from "./gaps.js";
import type { Question } from "./questions.js";
import type { SessionState } from "./state.js";

/** Most questions asked in one turn (the expert prompt's limit). */
export const MAX_QUESTIONS_PER_TURN = 3;

type Asker = (state: SessionState) => readonly Question[];

/** The askers in priority order; the first that has questions decides the turn. */
const ASKERS: readonly Asker[] = [
  askMassiveScale,
  askApplication,
  askEntities,
  askEntityKeys,
  askFirstAccessPattern,
  askRates,
  askReadWritePairs,
  askAttributeTypes,
  askSizes,
  askRelationships,
  askCardinality,
  askDistribution,
  askConfirmation,
];

/**
 * The next questions to ask: at most three, all about one subject. Empty when nothing is
 * missing and the user confirmed every pattern: the session is ready for the design.
 */
export function nextQuestions(state: SessionState): readonly Question[] {
  for (const ask of ASKERS) {
    const questions = ask(state).filter((question) => !state.declined.includes(question.id));
    if (questions.length > 0) return questions.slice(0, MAX_QUESTIONS_PER_TURN);
  }
  return [];
}

function askMassiveScale(state: SessionState): readonly Question[] {
  const reason = massiveScaleReason(state.workload);
  if (reason === undefined || !massiveScaleOpen(state)) return [];
  const question = (
    field: "binning" | "writeReduction" | "dataSizeFanOut",
    text: string,
    why: string,
  ): Question | undefined =>
    state.massiveScale[field] === undefined
      ? {
          id: `massive-scale:${field}`,
          topic: "massive-scale",
          text,
          why: `Massive scale: ${reason}. ${why}`,
          answer: { kind: "text" },
          fills: { change: { kind: "answer-massive-scale" }, field },
          optional: false,
        }
      : undefined;
  return [
    question(
      "binning",
      "Can individual records be grouped into chunks (binning), e.g. all readings of one device per minute in one item? If so, how many records per chunk?",
      "Binning small records into one item can cut write operations and their RU by 90% or more.",
    ),
    question(
      "writeReduction",
      "What is the minimum number of write operations you need: must every record be written individually, or can writes be batched, sampled or aggregated before writing?",
      "Each write costs RU in proportion to item size and indexed values; fewer, larger writes are cheaper.",
    ),
    question(
      "dataSizeFanOut",
      "How much data will accumulate (total size over the horizon), and must any read look across all of it rather than one key's items?",
      "The data size sets the number of physical partitions (about 50 GB each), and every cross-partition query pays for each of them.",
    ),
  ].filter((q) => q !== undefined);
}

function askApplication(state: SessionState): readonly Question[] {
  const workload = state.workload;
  const questions: Question[] = [];
  if (workload.name === undefined) {
    questions.push({
      id: "application:name",
      topic: "application",
      text: "What is the application called?",
      why: "The name heads the requirements and the data model documents.",
      answer: { kind: "text" },
      fills: { change: { kind: "set-application" }, field: "name" },
      optional: false,
    });
  }
  if (workload.domain === undefined) {
    questions.push({
      id: "application:domain",
      topic: "application",
      text: "What is its domain (e.g. e-commerce, SaaS, social media, IoT, gaming)?",
      why: "The domain frames which access patterns to expect and which to ask about.",
      answer: { kind: "text" },
      fills: { change: { kind: "set-application" }, field: "domain" },
      optional: false,
    });
  }
  if (questions.length > 0 && workload.description === undefined) {
    questions.push({
      id: "application:description",
      topic: "application",
      text: "In a sentence or two, what does it do and what business rules matter (e.g. uniqueness, retention, compliance)?",
      why: "Business rules such as uniqueness or retention change the design (lookup items, TTL).",
      answer: { kind: "text" },
      fills: { change: { kind: "set-application" }, field: "description" },
      optional: true,
    });
  }
  return questions;
}

function askEntities(state: SessionState): readonly Question[] {
  if (state.workload.entities.length > 0) return [];
  return [
    {
      id: "entities:list",
      topic: "entities",
      text: "Which kinds of items does the application store (its entities, e.g. User, Order, OrderItem, Product)?",
      why: "Entities and their relationships are what the containers will hold.",
      answer: { kind: "list" },
      fills: { change: { kind: "add-entity" }, field: "name" },
      optional: false,
    },
  ];
}

function askEntityKeys(state: SessionState): readonly Question[] {
  return entitiesWithoutKey(state.workload).map((entity) => ({
    id: `entity:${entity.name}:key`,
    topic: "entities",
    text: `Which attribute identifies one ${entity.name} (e.g. ${lowerFirst(entity.name)}Id)?`,
    why: "The identifying attribute is the candidate id and often the partition key.",
    answer: { kind: "text" },
    fills: { change: { kind: "update-entity", name: entity.name }, field: "key" },
    optional: false,
  }));
}

function askFirstAccessPattern(state: SessionState): readonly Question[] {
  if (state.workload.accessPatterns.length > 0) return [];
  return [
    {
      id: "access-patterns:add",
      topic: "access-patterns",
      text: "What is the most frequent thing the application does with its data? Describe it as an access pattern: read or write, which entity, and (for reads) which attributes it filters on.",
      why: "Access patterns, not entities, decide the containers and partition keys.",
      answer: { kind: "form", request: { form: "access-pattern", preset: {} } },
      optional: false,
    },
  ];
}

function askRates(state: SessionState): readonly Question[] {
  const workload = state.workload;
  const pending = state.estimates[0];
  if (pending !== undefined) {
    const pattern = workload.accessPatterns.find((p) => p.id === pending.pattern);
    return [
      {
        id: `rate:${pending.pattern}:estimate`,
        topic: "rates",
        text: `For ${pending.pattern}${pattern === undefined ? "" : ` (${pattern.name})`} the business figures give:\n  ${pending.arithmetic.join("\n  ")}\nUse average ${pending.avg}/s and peak ${pending.peak}/s?`,
        why: "A rate is only used once you accept it; the design's RU/s and cost scale with it.",
        answer: {
          kind: "choice",
          choices: [
            {
              value: "accept",
              label: "Yes, use this estimate",
              changes: [{ kind: "accept-estimate", pattern: pending.pattern }],
            },
            {
              value: "reject",
              label: "No, let me give other numbers",
              changes: [{ kind: "reject-estimate", pattern: pending.pattern }],
            },
          ],
        },
        optional: false,
      },
    ];
  }
  const pattern = patternsWithoutRate(workload)[0];
  if (pattern === undefined) return [];
  const label = `${pattern.id} (${pattern.name})`;
  if (state.unknownRates.includes(pattern.id)) {
    const figure = (
      id: string,
      text: string,
      field: string,
      unit: "count" | "requests/s",
      integer: boolean,
    ): Question => ({
      id: `rate:${pattern.id}:${id}`,
      topic: "rates",
      text,
      why: "Rates come from you: these business figures give an estimate, with the arithmetic shown, for you to accept or correct.",
      answer: { kind: "number", unit, integer },
      fills: { change: { kind: "estimate-rate", pattern: pattern.id }, field },
      optional: false,
    });
    return [
      figure(
        "daily-active-users",
        `How many users a day perform ${label}? (daily active users)`,
        "dailyActiveUsers",
        "count",
        false,
      ),
      figure(
        "actions-per-user",
        `How many times a day does one of them do it? (actions per user per day)`,
        "actionsPerUserPerDay",
        "count",
        false,
      ),
      figure(
        "peak-factor",
        `How much busier is the peak hour than the day's average? (peak-hour factor, e.g. 2 for twice as busy; 1 if flat)`,
        "peakFactor",
        "count",
        false,
      ),
    ];
  }
  const unknown: Change[] = [{ kind: "mark-rate-unknown", pattern: pattern.id }];
  const questions: Question[] = [];
  if (pattern.rps?.avg === undefined) {
    questions.push({
      id: `rate:${pattern.id}:avg`,
      topic: "rates",
      text: `How many requests per second does ${label} receive on average? ("?" if you do not know: we will estimate it from business figures)`,
      why: "Every access pattern needs its rate: RU/s, partitions and cost are computed from it.",
      answer: { kind: "number", unit: "requests/s", integer: false },
      fills: { change: { kind: "set-rate", pattern: pattern.id }, field: "avg" },
      whenUnknown: unknown,
      optional: false,
    });
  }
  if (pattern.rps?.peak === undefined) {
    questions.push({
      id: `rate:${pattern.id}:peak`,
      topic: "rates",
      text: `And at peak (the busiest minutes), how many requests per second for ${label}?`,
      why: "Provisioned throughput and hot-partition limits are sized for the peak.",
      answer: { kind: "number", unit: "requests/s", integer: false },
      fills: { change: { kind: "set-rate", pattern: pattern.id }, field: "peak" },
      whenUnknown: unknown,
      optional: false,
    });
  }
  return questions;
}

function askReadWritePairs(state: SessionState): readonly Question[] {
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

function askAttributeTypes(state: SessionState): readonly Question[] {
  return undeclaredAttributes(state.workload).map(({ entity, attribute }) => ({
    id: `attribute:${entity}:${attribute}:type`,
    topic: "attributes",
    text: `What type is ${entity}.${attribute}?`,
    why: "Attribute types decide indexing and the sample items of the design.",
    answer: {
      kind: "choice",
      choices: (["string", "number", "boolean", "datetime", "object", "array"] as const).map((type) => ({
        value: type,
        label: type,
        changes: [{ kind: "set-attribute", entity, name: attribute, type }],
      })),
    },
    optional: false,
  }));
}

function askSizes(state: SessionState): readonly Question[] {
  const entity = entitiesWithoutSize(state.workload)[0];
  if (entity === undefined) return [];
  const questions: Question[] = [];
  const update = { kind: "update-entity", name: entity.name };
  if (entity.count === undefined) {
    questions.push({
      id: `size:${entity.name}:count`,
      topic: "sizes",
      text: `How many ${entity.name} items will there be at the start (e.g. 2.5M)?`,
      why: "Item counts and sizes give the storage, the number of physical partitions and the 20 GB logical-partition risk.",
      answer: { kind: "number", unit: "count", integer: false },
      fills: { change: update, field: "count" },
      optional: false,
    });
  }
  if (entity.avgBytes === undefined) {
    questions.push({
      id: `size:${entity.name}:avgBytes`,
      topic: "sizes",
      text: `What is the average size of one ${entity.name} item as JSON (e.g. 800 bytes, 3 KB)?`,
      why: "RU charges grow with item size; realistic sizes, not 1 KB examples, give realistic costs.",
      answer: { kind: "number", unit: "bytes", integer: false },
      fills: { change: update, field: "avgBytes" },
      optional: false,
    });
  }
  if (entity.growthPerMonth === undefined) {
    questions.push({
      id: `size:${entity.name}:growth`,
      topic: "sizes",
      text: `How many new ${entity.name} items per month (0 if stable)?`,
      why: "Growth over the planning horizon decides whether a partition key value can outgrow 20 GB.",
      answer: { kind: "number", unit: "count", integer: false },
      fills: { change: update, field: "growthPerMonth" },
      optional: true,
    });
  }
  return questions;
}

function askRelationships(state: SessionState): readonly Question[] {
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
              changes: [{ ...base, relationshipKind: "one-to-one", avg: 1, max: 1 }],
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

function askCardinality(state: SessionState): readonly Question[] {
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

function askDistribution(state: SessionState): readonly Question[] {
  if (state.confirmed.distribution) return [];
  const scale = state.workload.scale;
  const confirm: Change[] = [{ kind: "confirm", subject: "distribution", value: true }];
  const consistencyChoice = (
    value: "strong" | "bounded" | "session" | "consistent-prefix" | "eventual",
    label: string,
  ) => ({
    value,
    label,
    changes: [{ kind: "set-scale", consistency: value } as const],
  });
  return [
    {
      id: "distribution:consistency",
      topic: "distribution",
      text: `Which consistency level does the application need${scale.consistency === undefined ? "" : ` (now ${scale.consistency})`}?`,
      why: "Strong and bounded staleness reads cost twice the RU of session, consistent prefix or eventual reads.",
      answer: {
        kind: "choice",
        choices: [
          consistencyChoice("session", "session (read your own writes; the default)"),
          consistencyChoice("eventual", "eventual"),
          consistencyChoice("consistent-prefix", "consistent prefix"),
          consistencyChoice("bounded", "bounded staleness (reads cost 2x)"),
          consistencyChoice("strong", "strong (reads cost 2x; not with multi-region writes)"),
        ],
      },
      alsoChanges: confirm,
      optional: false,
    },
    {
      id: "distribution:regions",
      topic: "distribution",
      text: `In how many Azure regions should the data live${scale.regions === undefined ? "" : ` (now ${scale.regions})`}?`,
      why: "Every region adds a full copy of the storage and provisioned throughput to the bill.",
      answer: { kind: "number", unit: "count", integer: true },
      fills: { change: { kind: "set-scale" }, field: "regions" },
      alsoChanges: confirm,
      optional: false,
    },
    {
      id: "distribution:multi-region-writes",
      topic: "distribution",
      text: "Must every region accept writes (multi-region writes), or is one write region enough?",
      why: "Multi-region writes double the throughput price and rule out strong consistency.",
      answer: {
        kind: "choice",
        choices: [
          {
            value: "single",
            label: "One write region",
            changes: [{ kind: "set-scale", multiRegionWrites: false }],
          },
          {
            value: "multi",
            label: "Multi-region writes",
            changes: [{ kind: "set-scale", multiRegionWrites: true }],
          },
        ],
      },
      alsoChanges: confirm,
      optional: false,
    },
  ];
}

function askConfirmation(state: SessionState): readonly Question[] {
  if (state.confirmed.accessPatternsComplete) return [];
  return [
    {
      id: "confirmation:access-patterns",
      topic: "confirmation",
      text: `We have ${describePatterns(state.workload)}. Is every read and write the application makes captured, or are there other access patterns to discuss?`,
      why: "The data model is written only when you confirm that every access pattern is captured.",
      answer: {
        kind: "choice",
        choices: [
          {
            value: "complete",
            label: "All access patterns are captured",
            changes: [{ kind: "confirm", subject: "access-patterns-complete", value: true }],
          },
          {
            value: "more",
            label: "There are more: add an access pattern",
            changes: [],
            form: { form: "access-pattern", preset: {} },
          },
        ],
      },
      optional: false,
    },
  ];
}

function describePatterns(workload: DraftWorkload): string {
  const reads = workload.accessPatterns.filter((p) => p.type === "read").length;
  const writes = workload.accessPatterns.length - reads;
  return `${reads} read and ${writes} write access pattern${writes === 1 ? "" : "s"} (${workload.accessPatterns.map((p) => p.id).join(", ")})`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
