/**
 * The terminal side of the interview: typed prompts for the engine's questions (numbers with
 * units, choices, lists, text) and the forms that add, edit and remove entities, relationships
 * and access patterns. Every answer becomes structured changes; nothing here decides what to ask.
 */
import type { Change } from "../../session/changes.js";
import {
  ATTRIBUTE_TYPES,
  CONSISTENCY_LEVELS,
  PREDICATE_OPERATORS,
  WRITE_OPERATIONS,
  isValidEntityName,
  isValidName,
  type DraftWorkload,
} from "../../session/draft.js";
import { questionChoices, type Answer, type FormRequest, type Question } from "../../session/questions.js";
import type { Prompter } from "./interview-prompter.js";
import { RANGES } from "../../session/value-ranges.js";
import { atomicWritesForm, presenceForm } from "./interview-detail-forms.js";

/** An answer to a question, plus the changes of any form the answer opened. */
export interface AskedAnswer {
  readonly answer?: Answer;
  readonly formChanges: readonly Change[];
}

/** Asks one engine question with the prompt its answer kind needs. */
export async function askQuestion(
  prompter: Prompter,
  question: Question,
  workload: DraftWorkload,
): Promise<AskedAnswer> {
  const why = `  (${question.why})`;
  prompter.print(why);
  const spec = question.answer;
  switch (spec.kind) {
    case "number": {
      const words = [
        ...(question.whenUnknown === undefined ? [] : ["?"]),
        ...questionChoices(question).map((choice) => choice.value),
      ];
      const hint = words.length === 0 ? "" : ` [${words.join(" | ")}]`;
      const value = await prompter.quantity(
        `${question.text}${hint}${question.optional ? " (blank to skip)" : ""}`,
        spec.unit,
        {
          range: spec.range,
          allowBlank: question.optional,
          words,
        },
      );
      if (value === undefined) return { answer: { kind: "skip" }, formChanges: [] };
      if (value === "?") return { answer: { kind: "unknown" }, formChanges: [] };
      if (typeof value === "string") return { answer: { kind: "choice", value }, formChanges: [] };
      return { answer: { kind: "value", value }, formChanges: [] };
    }
    case "text":
    case "list": {
      const value = await prompter.text(
        `${question.text}${spec.kind === "list" ? " (comma-separated)" : ""}${question.optional ? " (blank to skip)" : ""}`,
        { validate: (text) => (text.trim() === "" && !question.optional ? "an answer is needed" : true) },
      );
      if (value.trim() === "") return { answer: { kind: "skip" }, formChanges: [] };
      if (spec.kind === "text") return { answer: { kind: "value", value: value.trim() }, formChanges: [] };
      const items = value
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item !== "");
      return { answer: { kind: "value", value: items }, formChanges: [] };
    }
    case "choice": {
      const choices = spec.choices.map((choice) => ({ value: choice.value, name: choice.label }));
      const value = await prompter.choose(
        question.text,
        question.optional ? [...choices, { value: "__skip", name: "Skip this question" }] : choices,
      );
      if (value === "__skip") return { answer: { kind: "skip" }, formChanges: [] };
      const chosen = spec.choices.find((choice) => choice.value === value);
      const formChanges = chosen?.form === undefined ? [] : await runForm(prompter, chosen.form, workload);
      return { answer: { kind: "choice", value }, formChanges };
    }
    case "form":
      prompter.print(question.text);
      return {
        formChanges: await runForm(prompter, spec.request, workload, {
          repeat: spec.request.form === "access-pattern",
        }),
      };
    default:
      spec satisfies never;
      return { formChanges: [] };
  }
}

/** Runs a form for a new entity, relationship or access pattern. */
export async function runForm(
  prompter: Prompter,
  request: FormRequest,
  workload: DraftWorkload,
  options: { readonly repeat?: boolean } = {},
): Promise<readonly Change[]> {
  if (options.repeat === true) {
    // every pattern of the application, one form after the other
    const changes = [...(await runForm(prompter, request, workload))];
    while (await prompter.yes("Add another access pattern?", true))
      changes.push(...(await runForm(prompter, request, workload)));
    return changes;
  }
  switch (request.form) {
    case "entity":
      return [await entityForm(prompter, workload)];
    case "relationship":
      return relationshipForm(prompter, workload);
    case "access-pattern":
      return accessPatternForm(prompter, workload, request.preset);
    case "attribute-presence":
      return presenceForm(prompter, workload, request.preset);
    case "atomic-writes":
      return atomicWritesForm(prompter, workload, request.preset);
    default:
      request.form satisfies never;
      return [];
  }
}

/**
 * A key or via answered as text: one attribute, or several separated by commas (a composite key,
 * `filmId, actorId`): the name alone, or the list.
 */
export function namesAnswer(text: string): string | string[] {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return names.length === 1 ? (names[0] ?? "") : names;
}

/** Validates a `namesAnswer` text: every name valid, at least one, none twice. */
export function namesProblem(text: string): string | true {
  const names = text.split(",").map((name) => name.trim());
  if (names.some((name) => !isValidName(name)))
    return "letters, digits, _ and $, not starting with a digit (several separated by commas)";
  return new Set(names).size === names.length ? true : "each attribute once";
}

async function entityForm(prompter: Prompter, workload: DraftWorkload): Promise<Change> {
  const name = await prompter.text("Entity name (e.g. Order)", {
    validate: (value) =>
      !isValidEntityName(value.trim())
        ? "letters, digits and _, not starting with a digit"
        : workload.entities.some((e) => e.name === value.trim())
          ? `${value.trim()} exists already`
          : true,
  });
  const key = await prompter.text(
    `Attribute that identifies one ${name.trim()} (several separated by commas when together they do)`,
    {
      default: `${name.trim().charAt(0).toLowerCase()}${name.trim().slice(1)}Id`,
      validate: namesProblem,
    },
  );
  const attributes = await attributeList(prompter);
  return {
    kind: "add-entity",
    name: name.trim(),
    key: namesAnswer(key),
    ...(attributes === undefined ? {} : { attributes }),
  };
}

/** "email:string, status:string" -> attributes; blank -> none. */
export async function attributeList(
  prompter: Prompter,
): Promise<Record<string, (typeof ATTRIBUTE_TYPES)[number]> | undefined> {
  const types: readonly string[] = ATTRIBUTE_TYPES;
  const parse = (text: string): Record<string, (typeof ATTRIBUTE_TYPES)[number]> | string => {
    const result: Record<string, (typeof ATTRIBUTE_TYPES)[number]> = {};
    for (const part of text
      .split(",")
      .map((p) => p.trim())
      .filter((p) => p !== "")) {
      const [name = "", type = "string"] = part.split(":").map((p) => p.trim());
      if (!isValidName(name)) return `"${name}" is not a valid attribute name`;
      if (!types.includes(type)) return `"${type}" is not a type (${ATTRIBUTE_TYPES.join(", ")})`;
      result[name] = type as (typeof ATTRIBUTE_TYPES)[number];
    }
    return result;
  };
  const text = await prompter.text("Other attributes as name:type, comma-separated (blank for none yet)", {
    validate: (value) => {
      const parsed = parse(value);
      return typeof parsed === "string" ? parsed : true;
    },
  });
  const parsed = parse(text);
  return typeof parsed === "string" || Object.keys(parsed).length === 0 ? undefined : parsed;
}

async function relationshipForm(prompter: Prompter, workload: DraftWorkload): Promise<readonly Change[]> {
  if (workload.entities.length < 2) {
    prompter.print("A relationship needs two entities: add them first.");
    return [];
  }
  const entities = workload.entities.map((e) => ({ value: e.name, name: e.name }));
  const parent = await prompter.choose("Parent entity (the one)", entities);
  const child = await prompter.choose(
    "Child entity (the many)",
    entities.filter((e) => e.value !== parent),
  );
  const parentKey = workload.entities.find((e) => e.name === parent)?.key;
  const kind = await prompter.choose("Kind", [
    { value: "one-to-many", name: `one-to-many: a ${parent} has many ${child} items` },
    { value: "one-to-one", name: `one-to-one: a ${parent} has at most one ${child}` },
    { value: "many-to-many", name: "many-to-many" },
  ] as const);
  const via = await prompter.text(
    `Attribute of ${child} that holds the ${parent}'s key (blank for none; one per key attribute, separated by commas, for a composite key)`,
    {
      ...(parentKey === undefined ? {} : { default: parentKey.join(", ") }),
      validate: (value) => (value.trim() === "" ? true : namesProblem(value)),
    },
  );
  const avg = await prompter.quantity(
    `${child} items per ${parent} on average (blank if not known yet)`,
    "count",
    { allowBlank: true, range: RANGES.positive },
  );
  const max = await prompter.quantity(
    `...and at most (a number, "unbounded", or blank if not known yet)`,
    "count",
    {
      allowBlank: true,
      words: ["unbounded"],
      range: RANGES.positive,
    },
  );
  const owned = await prompter.choose(`Can a ${child} exist without its ${parent}?`, [
    { value: "owned", name: `No, it belongs to its ${parent}` },
    { value: "independent", name: "Yes, it is independent" },
    { value: "unknown", name: "Not sure yet" },
  ] as const);
  return [
    {
      kind: "add-relationship",
      parent,
      child,
      relationshipKind: kind,
      ...(via.trim() === "" ? {} : { via: namesAnswer(via) }),
      ...(typeof avg === "number" ? { avg } : {}),
      ...(max === "unbounded" ? { max: null } : typeof max === "number" ? { max } : {}),
      ...(owned === "unknown" ? {} : { owned: owned === "owned" }),
    },
  ];
}

async function accessPatternForm(
  prompter: Prompter,
  workload: DraftWorkload,
  preset: Readonly<Record<string, unknown>>,
): Promise<readonly Change[]> {
  if (workload.entities.length === 0) {
    prompter.print("An access pattern works on an entity: add the entity first.");
    return [];
  }
  const type =
    preset.type === "read" || preset.type === "write"
      ? preset.type
      : await prompter.choose("Read or write?", [
          { value: "read", name: "read (get, list, search)" },
          { value: "write", name: "write (create, update, delete)" },
        ] as const);
  const entity =
    typeof preset.entity === "string"
      ? preset.entity
      : await prompter.choose(
          "Which entity?",
          workload.entities.map((e) => ({ value: e.name, name: e.name })),
        );
  const name = await prompter.text("Describe it in a few words (e.g. List a user's orders, newest first)", {
    validate: (value) => (value.trim() === "" ? "a description is needed" : true),
  });
  const fields: Record<string, unknown> = {};
  if (type === "write") {
    fields.operation =
      typeof preset.operation === "string"
        ? preset.operation
        : await prompter.choose(
            "Operation",
            WRITE_OPERATIONS.map((op) => ({ value: op, name: op })),
          );
  } else {
    const where = await keyValueList(
      prompter,
      `Filters as attribute:operator (${PREDICATE_OPERATORS.join(", ")}), e.g. userId:eq (blank for none)`,
      PREDICATE_OPERATORS,
      "eq",
    );
    if (where !== undefined) fields.where = where;
    const orderBy = await keyValueList(
      prompter,
      "Sort as attribute:asc|desc, e.g. createdAt:desc (blank for none)",
      ["asc", "desc"],
      "asc",
    );
    if (orderBy !== undefined) fields.orderBy = orderBy;
    const limit = await prompter.quantity(
      "At most how many items returned? (blank for all matches)",
      "count",
      { allowBlank: true, range: RANGES.positiveInteger },
    );
    if (typeof limit === "number") fields.limit = limit;
  }
  const avg = await prompter.quantity("Average requests per second (blank if not known yet)", "requests/s", {
    allowBlank: true,
    range: RANGES.nonNegative,
  });
  const peak =
    avg === undefined
      ? undefined
      : await prompter.quantity("Peak requests per second (blank if not known yet)", "requests/s", {
          allowBlank: true,
          range: RANGES.positive,
          check: (peak) =>
            typeof avg === "number" && peak < avg ? `the peak is at least the average (${avg}/s)` : undefined,
        });
  if (typeof avg === "number" || typeof peak === "number")
    fields.rps = {
      ...(typeof avg === "number" ? { avg } : {}),
      ...(typeof peak === "number" ? { peak } : {}),
    };
  const change: Change = { kind: "add-access-pattern", type, entity, name: name.trim(), ...fields } as Change;
  const attributeChanges = await declareNewAttributes(prompter, workload, entity, change);
  return [...attributeChanges, change];
}

/** New attributes named by a pattern need a type; ask once per attribute. */
async function declareNewAttributes(
  prompter: Prompter,
  workload: DraftWorkload,
  entityName: string,
  change: Change,
): Promise<readonly Change[]> {
  const entity = workload.entities.find((e) => e.name === entityName);
  if (entity === undefined || entity.attributes.length === 0 || change.kind !== "add-access-pattern")
    return [];
  const named = [...Object.keys(change.where ?? {}), ...Object.keys(change.orderBy ?? {})];
  const missing = [...new Set(named)].filter((name) => !entity.attributes.some((a) => a.name === name));
  const changes: Change[] = [];
  for (const name of missing) {
    const type = await prompter.choose(
      `${entityName}.${name} is new: what type is it?`,
      ATTRIBUTE_TYPES.map((t) => ({ value: t, name: t })),
    );
    changes.push({ kind: "set-attribute", entity: entityName, name, type });
  }
  return changes;
}

async function keyValueList<T extends string>(
  prompter: Prompter,
  message: string,
  values: readonly T[],
  fallback: T,
): Promise<Record<string, T> | undefined> {
  const parse = (text: string): Record<string, T> | string => {
    const result: Record<string, T> = {};
    for (const part of text
      .split(",")
      .map((p) => p.trim())
      .filter((p) => p !== "")) {
      const [name = "", value = fallback] = part.split(/[:\s]+/).map((p) => p.trim());
      if (!isValidName(name)) return `"${name}" is not a valid attribute name`;
      if (!(values as readonly string[]).includes(value))
        return `"${value}" is not one of ${values.join(", ")}`;
      result[name] = value as T;
    }
    return result;
  };
  const text = await prompter.text(message, {
    validate: (value) => {
      const parsed = parse(value);
      return typeof parsed === "string" ? parsed : true;
    },
  });
  const parsed = parse(text);
  return typeof parsed === "string" || Object.keys(parsed).length === 0 ? undefined : parsed;
}

/** The consistency levels, for the edit menu. */
export const CONSISTENCY_CHOICES = CONSISTENCY_LEVELS.map((level) => ({ value: level, name: level }));
