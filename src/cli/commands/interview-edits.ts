/**
 * The interview's edit menu: add, edit and remove entities, attributes, relationships and access
 * patterns, and change the application and its scale, at any point of the session. Each edit
 * becomes structured changes for the session engine.
 */
import type { Change } from "../../session/changes.js";
import { describeRelationship } from "../../session/describe-changes.js";
import {
  CHANGE_FREQUENCIES,
  CONSISTENCY_LEVELS,
  isValidEntityName,
  type DraftEntity,
  type DraftWorkload,
} from "../../session/draft.js";
import type { QuantityUnit } from "../../session/quantity.js";
import { RANGES, type NumberRange } from "../../session/value-ranges.js";
import { attributeList, namesAnswer, namesProblem, runForm } from "./interview-forms.js";
import type { Prompter } from "./interview-prompter.js";
import { attributeTypeForm, fullTextForm, vectorForm } from "./interview-search-form.js";
import { searchSettingEdit } from "./interview-lines.js";

type EditTarget = "application" | "entity" | "relationship" | "access-pattern" | "back";

/** Asks what to change and returns the changes (none when the user goes back). */
export async function runEditMenu(prompter: Prompter, workload: DraftWorkload): Promise<readonly Change[]> {
  const target = await prompter.choose<EditTarget>("What do you want to change?", [
    { value: "access-pattern", name: "Access patterns (add, edit, remove)" },
    { value: "entity", name: "Entities and their attributes (add, edit, remove)" },
    { value: "relationship", name: "Relationships (add, edit, remove)" },
    { value: "application", name: "Application, scale, consistency, regions, notes" },
    { value: "back", name: "Back" },
  ]);
  switch (target) {
    case "application":
      return editApplication(prompter, workload);
    case "entity":
      return editEntities(prompter, workload);
    case "relationship":
      return editRelationships(prompter, workload);
    case "access-pattern":
      return editPatterns(prompter, workload);
    case "back":
      return [];
    default:
      target satisfies never;
      return [];
  }
}

async function editApplication(prompter: Prompter, workload: DraftWorkload): Promise<readonly Change[]> {
  const field = await prompter.choose("Change", [
    { value: "name", name: `Name (${workload.name ?? "unknown"})` },
    { value: "domain", name: `Domain (${workload.domain ?? "unknown"})` },
    { value: "description", name: "Description and business rules" },
    { value: "note", name: "Add a business context note" },
    { value: "consistency", name: `Consistency (${workload.scale.consistency ?? "not set"})` },
    { value: "regions", name: `Regions (${workload.scale.regions ?? "not set"})` },
    {
      value: "multiRegionWrites",
      name: `Multi-region writes (${String(workload.scale.multiRegionWrites ?? "not set")})`,
    },
    { value: "horizonMonths", name: `Planning horizon in months (${workload.scale.horizonMonths ?? 12})` },
    { value: "back", name: "Back" },
  ] as const);
  switch (field) {
    case "name":
    case "domain":
    case "description": {
      const text = await nonEmpty(prompter, `New ${field}`, workload[field]);
      return [{ kind: "set-application", [field]: text }];
    }
    case "note":
      return [{ kind: "add-note", text: await nonEmpty(prompter, "Note") }];
    case "consistency": {
      const consistency = await prompter.choose(
        "Consistency level",
        CONSISTENCY_LEVELS.map((level) => ({ value: level, name: level })),
      );
      return [{ kind: "set-scale", consistency }];
    }
    case "regions": {
      const names = await prompter.text("Region names, comma-separated (e.g. westeurope, eastus)", {
        validate: (value) =>
          value.split(",").some((part) => part.trim() !== "") ? true : "at least one region",
      });
      return [
        {
          kind: "set-scale",
          regionNames: names
            .split(",")
            .map((part) => part.trim())
            .filter((part) => part !== ""),
        },
      ];
    }
    case "multiRegionWrites":
      return [
        {
          kind: "set-scale",
          multiRegionWrites: await prompter.yes("Should every region accept writes?", false),
        },
      ];
    case "horizonMonths": {
      const months = await prompter.quantity("Planning horizon (e.g. 12, 3 years)", "months", {
        range: RANGES.positiveInteger,
      });
      return typeof months === "number" ? [{ kind: "set-scale", horizonMonths: months }] : [];
    }
    case "back":
      return [];
    default:
      field satisfies never;
      return [];
  }
}

async function editEntities(prompter: Prompter, workload: DraftWorkload): Promise<readonly Change[]> {
  const action = await chooseAction(prompter, "entity", workload.entities.length > 0);
  if (action === "add") return runForm(prompter, { form: "entity", preset: {} }, workload);
  if (action === "back") return [];
  const name = await prompter.choose(
    "Which entity?",
    workload.entities.map((e) => ({ value: e.name, name: e.name })),
  );
  if (action === "remove") {
    const patterns = workload.accessPatterns.filter((p) => p.entity === name).map((p) => p.id);
    const sure = await prompter.yes(
      `Remove ${name}${patterns.length === 0 ? "" : ` and its access patterns ${patterns.join(", ")}`}?`,
      false,
    );
    return sure ? [{ kind: "remove-entity", name }] : [];
  }
  return editEntity(
    prompter,
    name,
    workload.entities.find((e) => e.name === name),
  );
}

/** The entity's numbers with their units and ranges, as the edit menu asks them. */
const ENTITY_QUANTITIES = {
  count: { unit: "count", range: RANGES.positive },
  avgBytes: { unit: "bytes", range: RANGES.positive },
  maxBytes: { unit: "bytes", range: RANGES.positive },
  growthPerMonth: { unit: "count", range: RANGES.nonNegative },
  ttlSeconds: { unit: "seconds", range: RANGES.ttlSeconds },
} as const satisfies Record<string, { unit: QuantityUnit; range: NumberRange }>;

/** One field of an entity changed: a number, its key or name, or its attributes. */
async function editEntity(
  prompter: Prompter,
  name: string,
  entity: DraftEntity | undefined,
): Promise<readonly Change[]> {
  const field = await prompter.choose(`Change ${name}`, [
    { value: "count", name: `Item count (${entity?.count ?? "unknown"})` },
    { value: "avgBytes", name: `Average item size (${entity?.avgBytes ?? "unknown"} bytes)` },
    { value: "maxBytes", name: `Largest item size (${entity?.maxBytes ?? "4 x average"})` },
    { value: "growthPerMonth", name: `New items per month (${entity?.growthPerMonth ?? "unknown"})` },
    { value: "ttlSeconds", name: `Expiry after the last write (${entity?.ttlSeconds ?? "never"})` },
    { value: "key", name: `Key attribute (${entity?.key?.join(", ") ?? "unknown"})` },
    { value: "rename", name: "Rename" },
    { value: "attributes", name: "Add attributes" },
    { value: "attribute", name: "Edit an attribute (distinct values, unique, how often it changes)" },
    {
      value: "attribute-type",
      name: "Change an attribute's type (e.g. a vector to search by nearest neighbours, a text by full text)",
    },
    { value: "remove-attribute", name: "Remove an attribute" },
    { value: "back", name: "Back" },
  ] as const);
  switch (field) {
    case "count":
    case "avgBytes":
    case "maxBytes":
    case "growthPerMonth":
    case "ttlSeconds": {
      const { unit, range } = ENTITY_QUANTITIES[field];
      const value = await prompter.quantity(`New value`, unit, { range });
      return typeof value === "number" ? [{ kind: "update-entity", name, [field]: value }] : [];
    }
    case "key":
    case "rename": {
      const value = await prompter.text(
        field === "key" ? "Key attribute (several separated by commas for a composite key)" : "New name",
        {
          validate: (text) =>
            field === "key" ? namesProblem(text) : isValidEntityName(text.trim()) ? true : "not a valid name",
        },
      );
      return [
        {
          kind: "update-entity",
          name,
          ...(field === "key" ? { key: namesAnswer(value) } : { rename: value.trim() }),
        },
      ];
    }
    case "attributes": {
      const attributes = await attributeList(prompter);
      return Object.entries(attributes ?? {}).map(([attribute, typed]) => ({
        kind: "set-attribute",
        entity: name,
        name: attribute,
        ...typed,
      }));
    }
    case "attribute":
    case "remove-attribute":
      return editAttribute(prompter, name, entity, field === "remove-attribute");
    case "attribute-type":
      return editAttributeType(prompter, name, entity);
    case "back":
      return [];
    default:
      field satisfies never;
      return [];
  }
}

/** One attribute of the entity chosen from a list, or undefined (said) when it has none. */
async function chooseAttribute(
  prompter: Prompter,
  name: string,
  entity: DraftEntity | undefined,
): Promise<{ readonly entity: DraftEntity; readonly attribute: string } | undefined> {
  if (entity === undefined || entity.attributes.length === 0) {
    prompter.print(`${name} lists no attributes yet.`);
    return undefined;
  }
  const attribute = await prompter.choose(
    "Which attribute?",
    entity.attributes.map((a) => ({ value: a.name, name: `${a.name} (${a.type})` })),
  );
  return { entity, attribute };
}

/** An attribute of the entity removed, or its distinct values, uniqueness and change rate set. */
async function editAttribute(
  prompter: Prompter,
  name: string,
  entity: DraftEntity | undefined,
  remove: boolean,
): Promise<readonly Change[]> {
  const chosen = await chooseAttribute(prompter, name, entity);
  if (chosen === undefined) return [];
  const { attribute } = chosen;
  const attributes = chosen.entity.attributes;
  if (remove) return [{ kind: "remove-attribute", entity: name, name: attribute }];
  const current = attributes.find((a) => a.name === attribute);
  // a vector has no distinct values to count: its settings are what can change
  if (current?.vector !== undefined)
    return [
      {
        kind: "set-attribute",
        entity: name,
        name: attribute,
        ...(await vectorForm(prompter, `${name}.${attribute}`, current.vector)),
      },
    ];
  const language =
    current?.fullText === undefined
      ? undefined
      : await fullTextForm(prompter, `${name}.${attribute}`, current.fullText.language);
  const distinct = await prompter.quantity("Distinct values (blank to keep)", "count", {
    allowBlank: true,
    range: RANGES.positiveInteger,
  });
  const unique = await prompter.yes("Unique across all items?", current?.unique ?? false);
  const changes = await prompter.choose(
    "How often do writes change it?",
    CHANGE_FREQUENCIES.map((f) => ({ value: f, name: f })),
  );
  return [
    {
      kind: "set-attribute",
      entity: name,
      name: attribute,
      unique,
      changes,
      ...(typeof distinct === "number" ? { distinct } : {}),
      ...(language?.fullText === undefined ? {} : { fullText: language.fullText }),
    },
  ];
}

/** An attribute's type chosen step by step (a vector with its settings, a text with its language). */
async function editAttributeType(
  prompter: Prompter,
  name: string,
  entity: DraftEntity | undefined,
): Promise<readonly Change[]> {
  const chosen = await chooseAttribute(prompter, name, entity);
  if (chosen === undefined) return [];
  const { attribute } = chosen;
  const attributes = chosen.entity.attributes;
  const typed = await attributeTypeForm(
    prompter,
    `${name}.${attribute}`,
    attributes.find((a) => a.name === attribute),
  );
  return [{ kind: "set-attribute", entity: name, name: attribute, ...typed }];
}

async function editRelationships(prompter: Prompter, workload: DraftWorkload): Promise<readonly Change[]> {
  const action = await chooseAction(prompter, "relationship", workload.relationships.length > 0);
  if (action === "add") return runForm(prompter, { form: "relationship", preset: {} }, workload);
  if (action === "back") return [];
  const index = Number(
    await prompter.choose(
      "Which relationship?",
      workload.relationships.map((r, i) => ({ value: String(i), name: describeRelationship(r) })),
    ),
  );
  const relationship = workload.relationships[index];
  if (relationship === undefined) return [];
  const { parent, child } = relationship;
  if (action === "remove") return [{ kind: "remove-relationship", parent, child }];
  const avg = await prompter.quantity(`${child} items per ${parent} on average (blank to keep)`, "count", {
    allowBlank: true,
    range: RANGES.positive,
  });
  const max = await prompter.quantity(`...at most (a number, "unbounded", blank to keep)`, "count", {
    allowBlank: true,
    words: ["unbounded"],
    range: RANGES.positive,
  });
  const owned = await prompter.yes(
    `Does a ${child} belong to its ${parent} (cannot exist without it)?`,
    relationship.owned ?? true,
  );
  return [
    {
      kind: "update-relationship",
      parent,
      child,
      owned,
      ...(typeof avg === "number" ? { avg } : {}),
      ...(max === "unbounded" ? { max: null } : typeof max === "number" ? { max } : {}),
    },
  ];
}

async function editPatterns(prompter: Prompter, workload: DraftWorkload): Promise<readonly Change[]> {
  const action = await chooseAction(prompter, "access pattern", workload.accessPatterns.length > 0);
  if (action === "add") return runForm(prompter, { form: "access-pattern", preset: {} }, workload);
  if (action === "back") return [];
  const id = await prompter.choose(
    "Which access pattern?",
    workload.accessPatterns.map((p) => ({ value: p.id, name: `${p.id} ${p.name}` })),
  );
  if (action === "remove")
    return (await prompter.yes(`Remove ${id}?`, false)) ? [{ kind: "remove-access-pattern", id }] : [];
  const pattern = workload.accessPatterns.find((p) => p.id === id);
  const field = await prompter.choose(`Change ${id}`, [
    { value: "rate", name: `Rate (avg ${pattern?.rps?.avg ?? "?"}/s, peak ${pattern?.rps?.peak ?? "?"}/s)` },
    { value: "name", name: "Description" },
    { value: "latencyMs", name: `Latency target (${pattern?.latencyMs ?? "none"} ms)` },
    {
      value: "standalone",
      name: `Standalone, no matching read/write needed (${String(pattern?.standalone ?? false)})`,
    },
    // a search's k is its limit; its recall (a vector) and terms (full text) can change too
    ...(pattern?.search === undefined
      ? []
      : ([
          { value: "k", name: `Results per search, k (${pattern.search.k ?? "not set"})` },
          ...(pattern.search.nearest === undefined
            ? []
            : [{ value: "recall", name: `Recall (${pattern.search.recall ?? "not set"})` } as const]),
          ...(pattern.search.fullText === undefined
            ? []
            : [
                {
                  value: "terms",
                  name: `Terms sent at most (${pattern.search.terms ?? "default"})`,
                } as const,
              ]),
        ] as const)),
    ...(pattern?.type === "read"
      ? ([
          ...(pattern.search === undefined
            ? [{ value: "limit", name: `Limit (${pattern.limit ?? "all matches"})` } as const]
            : []),
          {
            value: "consistency",
            name: `Consistency override (${pattern.consistency ?? "account default"})`,
          },
        ] as const)
      : ([{ value: "batch", name: `Items per request (${pattern?.batch ?? 1})` }] as const)),
    { value: "back", name: "Back" },
  ]);
  switch (field) {
    case "rate": {
      const avg = await prompter.quantity("Average requests/s", "requests/s", { range: RANGES.nonNegative });
      const peak = await prompter.quantity("Peak requests/s", "requests/s", { range: RANGES.positive });
      return typeof avg === "number" && typeof peak === "number"
        ? [{ kind: "set-rate", pattern: id, avg, peak }]
        : [];
    }
    case "name":
      return [
        { kind: "update-access-pattern", id, name: await nonEmpty(prompter, "Description", pattern?.name) },
      ];
    case "latencyMs":
    case "limit":
    case "batch": {
      const value = await prompter.quantity(
        `New ${field}`,
        field === "latencyMs" ? "milliseconds" : "count",
        { range: field === "latencyMs" ? RANGES.positive : RANGES.positiveInteger },
      );
      return typeof value === "number" ? [{ kind: "update-access-pattern", id, [field]: value }] : [];
    }
    case "k":
    case "recall":
    case "terms": {
      const text = await prompter.text(`New ${field}`, {
        ...(pattern?.search?.[field] === undefined ? {} : { default: String(pattern.search[field]) }),
        validate: (value) => {
          const edited = searchSettingEdit(workload, id, field, value);
          return edited.ok ? true : edited.problems.join("; ");
        },
      });
      const edited = searchSettingEdit(workload, id, field, text);
      return edited.ok ? [edited.value] : [];
    }
    case "standalone":
      return [
        {
          kind: "update-access-pattern",
          id,
          standalone: await prompter.yes("Standalone?", !(pattern?.standalone ?? false)),
        },
      ];
    case "consistency": {
      const consistency = await prompter.choose(
        "Consistency for this read",
        CONSISTENCY_LEVELS.map((level) => ({ value: level, name: level })),
      );
      return [{ kind: "update-access-pattern", id, consistency }];
    }
    case "back":
      return [];
    default:
      field satisfies never;
      return [];
  }
}

async function chooseAction(
  prompter: Prompter,
  what: string,
  any: boolean,
): Promise<"add" | "edit" | "remove" | "back"> {
  const plural = what.endsWith("y") ? `${what.slice(0, -1)}ies` : `${what}s`;
  return prompter.choose(`${plural[0]?.toUpperCase() ?? ""}${plural.slice(1)}`, [
    { value: "add", name: `Add an ${what}`.replace(/^Add an ([^aeiou])/, "Add a $1") },
    ...(any
      ? ([
          { value: "edit", name: `Edit an ${what}`.replace(/^Edit an ([^aeiou])/, "Edit a $1") },
          { value: "remove", name: `Remove an ${what}`.replace(/^Remove an ([^aeiou])/, "Remove a $1") },
        ] as const)
      : []),
    { value: "back", name: "Back" },
  ]);
}

async function nonEmpty(prompter: Prompter, message: string, current?: string): Promise<string> {
  const text = await prompter.text(message, {
    ...(current === undefined ? {} : { default: current }),
    validate: (value) => (value.trim() === "" ? "cannot be empty" : true),
  });
  return text.trim();
}
