/**
 * Questions about what the application stores: its name and domain, its entities and their
 * keys, the first access pattern, attribute types, item counts and sizes.
 */
import { formatDecimal } from "../common/format-number.js";
import {
  entitiesWithoutKey,
  entitiesWithoutLargestSize,
  entitiesWithoutSize,
  LARGEST_RECORD_BYTES,
  undeclaredAttributes,
} from "./gaps.js";
import type { Question, QuestionGroup } from "./questions.js";
import type { SessionState } from "./state.js";
import { RANGES } from "./value-ranges.js";

/** The application's name and domain (and, optionally, its business rules). */
export function askApplication(state: SessionState): readonly Question[] {
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

/** The entities, when none is known yet. */
export function askEntities(state: SessionState): readonly Question[] {
  if (state.workload.entities.length > 0) return [];
  return [
    {
      id: "entities:list",
      topic: "entities",
      text: "Which kinds of items does the application store (its entities, e.g. User, Order, OrderItem, Product)? If you know them, give each one's identifying attribute, the attributes its reads filter, sort or return, and its item count, average (and largest) item size, new items per month and how long an item is kept.",
      why: "Entities and their relationships are what the containers will hold; counts and sizes given now are not asked again.",
      answer: { kind: "list" },
      fills: { change: { kind: "add-entity" }, field: "name" },
      optional: false,
    },
  ];
}

/** The identifying attribute of every entity that has none, asked together. */
export function askEntityKeys(state: SessionState): readonly Question[] {
  const group: QuestionGroup = {
    id: "entity-keys",
    text: "Which attribute identifies one item of each entity?",
  };
  return entitiesWithoutKey(state.workload).map((entity) => ({
    group,
    id: `entity:${entity.name}:key`,
    topic: "entities",
    text: `Which attribute identifies one ${entity.name} (e.g. ${lowerFirst(entity.name)}Id)?`,
    why: "The identifying attribute is the candidate id and often the partition key.",
    answer: { kind: "text" },
    fills: { change: { kind: "update-entity", name: entity.name }, field: "key" },
    optional: false,
    suggested: {
      answer: { kind: "value", value: `${lowerFirst(entity.name)}Id` },
      label: `${lowerFirst(entity.name)}Id for ${entity.name}`,
    },
  }));
}

/** The access patterns, when none is known yet: all of them at once. */
export function askFirstAccessPattern(state: SessionState): readonly Question[] {
  if (state.workload.accessPatterns.length > 0) return [];
  return [
    {
      id: "access-patterns:add",
      topic: "access-patterns",
      text: "Which reads and writes does the application make? For each: read or write, which entity, what it filters and sorts on (reads), the operation (writes), and, if you know them, its average and peak requests per second and, for a read, how many items it returns on average and how old the related data it returns may be (in seconds, 0 if it must reflect every write). Start with the most frequent.",
      why: "Access patterns, not entities, decide the containers and partition keys.",
      answer: { kind: "form", request: { form: "access-pattern", preset: {} } },
      optional: false,
    },
  ];
}

/** The type of every attribute a pattern or relationship names but the entity does not declare, asked together. */
export function askAttributeTypes(state: SessionState): readonly Question[] {
  const group: QuestionGroup = { id: "attribute-types", text: "Which type has each of these attributes?" };
  return undeclaredAttributes(state.workload).map(({ entity, attribute }) => ({
    group,
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

/**
 * Item count, average size, growth and retention of each entity missing its count or size, one
 * group per entity (three entities a turn).
 */
export function askSizes(state: SessionState): readonly Question[] {
  // An imported entity has its count and size from the database, not its retention: ask it too.
  const imported =
    state.imported === undefined
      ? []
      : state.workload.entities.filter(
          (entity) =>
            entity.ttlSeconds === undefined && !state.declined.includes(`size:${entity.name}:retention`),
        );
  // count, size, growth and retention; an entity whose largest item is missing only that
  const sized = new Set([...entitiesWithoutSize(state.workload), ...imported].map((entity) => entity.name));
  const largest = entitiesWithoutLargestSize(state.workload);
  const open = new Set([...sized, ...largest.map((entity) => entity.name)]);
  return state.workload.entities
    .filter((entity) => open.has(entity.name))
    .flatMap((entity) => {
      const group: QuestionGroup = {
        id: `size:${entity.name}`,
        text: `${entity.name}: how many items, how large, how fast do they grow, and how long are they kept?`,
      };
      const update = { kind: "update-entity", name: entity.name };
      const asked = (id: string): boolean => !state.declined.includes(id);
      const questions: Question[] = [];
      if (entity.count === undefined) {
        questions.push({
          id: `size:${entity.name}:count`,
          topic: "sizes",
          text: `How many ${entity.name} items will there be at the start (e.g. 2.5M; for a new application, the number soon after launch: the growth comes next)?`,
          why: "Item counts and sizes give the storage, the number of physical partitions and the 20 GB logical-partition risk.",
          answer: { kind: "number", unit: "count", range: RANGES.positive },
          fills: { change: update, field: "count" },
          optional: false,
          group,
        });
      }
      // an average over what an item holds is asked again (the workload would not load)
      if (entity.avgBytes === undefined || entity.avgBytes > LARGEST_RECORD_BYTES) {
        questions.push({
          id: `size:${entity.name}:avgBytes`,
          topic: "sizes",
          text: `What is the average size of one ${entity.name} item as JSON (e.g. 800 bytes, 3 KB)?`,
          why: "RU charges grow with item size; realistic sizes, not 1 KB examples, give realistic costs.",
          answer: { kind: "number", unit: "bytes", range: { ...RANGES.positive, max: LARGEST_RECORD_BYTES } },
          fills: { change: update, field: "avgBytes" },
          optional: false,
          group,
        });
      }
      if (largest.includes(entity)) {
        questions.push({
          id: `size:${entity.name}:maxBytes`,
          topic: "sizes",
          text: `How large is the largest ${entity.name} item as JSON? (4 x the average, the default, is more than the ${formatDecimal(LARGEST_RECORD_BYTES)} bytes an item can hold with the properties every item adds)`,
          why: "An item holds at most 2 MB: the largest record decides whether the entity fits in items at all, and how much room its copies have.",
          answer: {
            kind: "number",
            unit: "bytes",
            range: {
              ...RANGES.positive,
              min: entity.avgBytes ?? 0,
              minInclusive: true,
              max: LARGEST_RECORD_BYTES,
            },
          },
          fills: { change: update, field: "maxBytes" },
          optional: false,
          group,
        });
      }
      if (!sized.has(entity.name)) return questions;
      if (entity.growthPerMonth === undefined && asked(`size:${entity.name}:growth`)) {
        questions.push({
          id: `size:${entity.name}:growth`,
          topic: "sizes",
          text: `How many new ${entity.name} items per month (0 if stable)?`,
          why: "Growth over the planning horizon decides whether a partition key value can outgrow 20 GB.",
          answer: { kind: "number", unit: "count", range: RANGES.nonNegative },
          fills: { change: update, field: "growthPerMonth" },
          optional: true,
          group,
        });
      }
      if (entity.ttlSeconds === undefined && asked(`size:${entity.name}:retention`)) {
        questions.push({
          id: `size:${entity.name}:retention`,
          topic: "sizes",
          text: `How long is one ${entity.name} item kept after its last write (e.g. 24 h, 90 d)? Skip if items are kept until deleted.`,
          why: "Items that expire (TTL) are deleted by Cosmos DB for free: storage stops at what one retention period accumulates instead of growing for ever.",
          answer: { kind: "number", unit: "seconds", range: RANGES.ttlSeconds },
          fills: { change: update, field: "ttlSeconds" },
          optional: true,
          group,
        });
      }
      return questions;
    });
}

/** "OrderItem" -> "orderItem". */
export function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
