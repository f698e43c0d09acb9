/**
 * Questions about what the application stores: its name and domain, its entities and their
 * keys, the first access pattern, attribute types, item counts and sizes.
 */
import { entitiesWithoutKey, entitiesWithoutSize, undeclaredAttributes } from "./gaps.js";
import type { Question } from "./questions.js";
import type { SessionState } from "./state.js";

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
      text: "Which kinds of items does the application store (its entities, e.g. User, Order, OrderItem, Product)?",
      why: "Entities and their relationships are what the containers will hold.",
      answer: { kind: "list" },
      fills: { change: { kind: "add-entity" }, field: "name" },
      optional: false,
    },
  ];
}

/** The identifying attribute of each entity that has none (up to three at once). */
export function askEntityKeys(state: SessionState): readonly Question[] {
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

/** The first access pattern, when none is known yet. */
export function askFirstAccessPattern(state: SessionState): readonly Question[] {
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

/** The type of each attribute a pattern or relationship names but the entity does not declare. */
export function askAttributeTypes(state: SessionState): readonly Question[] {
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

/** Item count, average size and growth of the first entity missing them. */
export function askSizes(state: SessionState): readonly Question[] {
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

/** "OrderItem" -> "orderItem". */
export function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
