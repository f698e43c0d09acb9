/**
 * The terminal side of the interview: typed prompts for the engine's questions (numbers with
 * units, choices, lists, text) and the forms that add, edit and remove entities, relationships
 * and access patterns. Every answer becomes structured changes; nothing here decides what to ask.
 */
import type { Change } from "../../session/changes.js";
import type { ATTRIBUTE_TYPES } from "../../session/draft.js";
import {
  CONSISTENCY_LEVELS,
  PREDICATE_OPERATORS,
  WRITE_OPERATIONS,
  isValidEntityName,
  isValidName,
  type DraftWorkload,
} from "../../session/draft.js";
import { questionChoices, type Answer, type FormRequest, type Question } from "../../session/questions.js";
import {
  PATTERN_LINE_EXAMPLE,
  parseEntityLine,
  parseNumberLine,
  parsePatternLine,
  type NumberPart,
  splitTopLevel,
} from "./interview-lines.js";
import {
  ATTRIBUTE_TYPE_FORMS,
  attributeTypeText,
  parseAttributeType,
  searchProblems,
  type TypedAttribute,
} from "./interview-search-lines.js";
import type { Prompter } from "./interview-prompter.js";
import { RANGES } from "../../session/value-ranges.js";
import { atomicWritesForm, presenceForm } from "./interview-detail-forms.js";
import { SEARCH_CHOICE, askSearchKind, searchForm } from "./interview-search-form.js";

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
  if (question.impact !== undefined) prompter.print(`  ${question.impact}`);
  const spec = question.answer;
  const suggested = question.suggested?.answer;
  switch (spec.kind) {
    case "number": {
      const words = [
        ...(question.whenUnknown === undefined ? [] : ["?"]),
        ...questionChoices(question).map((choice) => choice.value),
      ];
      const hint = words.length === 0 ? "" : ` [${words.join(" | ")}]`;
      const shown = suggested?.kind === "value" ? String(suggested.value) : undefined;
      const keep = suggested?.kind === "skip" ? ` (Enter keeps ${question.suggested?.label ?? "it"})` : "";
      const value = await prompter.quantity(
        `${question.text}${hint}${keep === "" && question.optional ? " (blank to skip)" : keep}`,
        spec.unit,
        {
          range: spec.range,
          allowBlank: question.optional,
          words,
          ...(shown === undefined ? {} : { default: shown }),
        },
      );
      if (value === undefined) return { answer: { kind: "skip" }, formChanges: [] };
      if (value === "?") return { answer: { kind: "unknown" }, formChanges: [] };
      if (typeof value === "string") return { answer: { kind: "choice", value }, formChanges: [] };
      return { answer: { kind: "value", value }, formChanges: [] };
    }
    case "text":
    case "list": {
      if (spec.kind === "list" && question.fills?.change.kind === "add-entity")
        return entityListAnswer(prompter, question);
      const value = await prompter.text(
        `${question.text}${spec.kind === "list" ? " (comma-separated)" : ""}${question.optional ? " (blank to skip)" : ""}`,
        {
          ...(suggested?.kind === "value" ? { default: String(suggested.value) } : {}),
          validate: (text) => (text.trim() === "" && !question.optional ? "an answer is needed" : true),
        },
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
        suggested?.kind === "choice" ? suggested.value : undefined,
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

/**
 * The entities typed on one line, each with its key in parentheses when known (`Member
 * (memberId), Book (bookId), Loan (memberId, bookId)`): the names answer the question, the keys
 * are set with them (no key question follows for those entities).
 */
async function entityListAnswer(prompter: Prompter, question: Question): Promise<AskedAnswer> {
  const text = await prompter.text(`${question.text} (e.g. Member (memberId), Book (bookId))`, {
    validate: (value) => {
      const parsed = parseEntityLine(value);
      return parsed.ok ? true : parsed.problems.join("; ");
    },
  });
  const parsed = parseEntityLine(text);
  if (!parsed.ok) return { formChanges: [] };
  return {
    answer: { kind: "value", value: parsed.value.map((entity) => entity.name) },
    formChanges: parsed.value.flatMap((entity): Change[] =>
      entity.key === undefined
        ? []
        : [
            {
              kind: "update-entity",
              name: entity.name,
              key: entity.key.length === 1 ? (entity.key[0] as string) : [...entity.key],
            },
          ],
    ),
  };
}

/**
 * Several number questions of one group asked on one line (an entity's count, size, growth and
 * retention; a pattern's average and peak): each part checked as it is typed, against its unit
 * and range. A question that offers "?" (don't know) takes it as its part.
 */
export async function askNumberLine(
  prompter: Prompter,
  questions: readonly Question[],
): Promise<readonly Answer[]> {
  const parts: NumberPart[] = questions.map((question) => {
    const spec = question.answer;
    if (spec.kind !== "number") throw new Error(`${question.id} is no number question`);
    return {
      label: partLabel(question),
      unit: spec.unit,
      range: spec.range,
      optional: question.optional,
      words: [
        ...(question.whenUnknown === undefined ? [] : ["?"]),
        ...questionChoices(question).map((choice) => choice.value),
      ],
    };
  });
  for (const impact of new Set(questions.map((question) => question.impact)))
    if (impact !== undefined) prompter.print(`  ${impact}`);
  questions.forEach((question, index) => {
    const words = parts[index]?.words ?? [];
    const extra = [
      ...(question.optional ? ["blank to skip"] : []),
      ...(words.length > 0 ? [`or ${words.map((w) => `"${w}"`).join(" / ")}`] : []),
    ];
    prompter.print(`  ${index + 1}. ${question.text}${extra.length === 0 ? "" : ` (${extra.join("; ")})`}`);
  });
  const text = await prompter.text(
    `Answers 1-${questions.length}, separated by ", " (e.g. ${exampleLine(parts)})`,
    {
      validate: (value) => {
        const parsed = parseNumberLine(value, parts);
        return parsed.ok ? true : parsed.problems.join("; ");
      },
    },
  );
  const parsed = parseNumberLine(text, parts);
  const values = parsed.ok ? parsed.value : [];
  return questions.map((_, index): Answer => {
    const value = values[index];
    if (value === undefined) return { kind: "skip" };
    if (value === "?") return { kind: "unknown" };
    return typeof value === "string" ? { kind: "choice", value } : { kind: "value", value };
  });
}

/** A short name of a number question, for a line's error messages ("average size"). */
function partLabel(question: Question): string {
  const field = question.fills?.field ?? question.id.split(":").at(-1) ?? "";
  const labels: Readonly<Record<string, string>> = {
    count: "items",
    avgBytes: "average size",
    maxBytes: "largest size",
    growthPerMonth: "new per month",
    ttlSeconds: "kept for",
    "rps.avg": "average",
    "rps.peak": "peak",
    avg: "average",
    max: "at most",
    regions: "regions",
    horizonMonths: "months",
  };
  return labels[field] ?? field;
}

function exampleLine(parts: readonly NumberPart[]): string {
  const byLabel: Readonly<Record<string, string>> = {
    items: "2.5M",
    "average size": "800 B",
    "largest size": "8 KB",
    "new per month": "10k",
    "kept for": "90 d",
    peak: "40",
    "at most": "unbounded",
    regions: "1",
    months: "12",
  };
  const byUnit: Readonly<Record<string, string>> = {
    "requests/s": "12",
    seconds: "90 d",
    milliseconds: "50 ms",
  };
  return parts.map((part) => byLabel[part.label] ?? byUnit[part.unit] ?? "5").join(", ");
}

/** Runs a form for a new entity, relationship or access pattern. */
export async function runForm(
  prompter: Prompter,
  request: FormRequest,
  workload: DraftWorkload,
  options: { readonly repeat?: boolean } = {},
): Promise<readonly Change[]> {
  if (
    request.form === "access-pattern" &&
    request.preset.entity === undefined &&
    request.preset.type === undefined
  )
    // every pattern of the application, one line each (the first pattern alone when not repeated)
    return patternLines(prompter, workload, options.repeat === true);
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
    ...(attributes === undefined
      ? {}
      : {
          attributes: Object.fromEntries(
            Object.entries(attributes).map(([attribute, typed]) => [attribute, attributeChangeForm(typed)]),
          ),
        }),
  };
}

/** "email:string, status:string, embedding:vector(1536)" -> attributes; blank -> none. */
export async function attributeList(prompter: Prompter): Promise<Record<string, TypedAttribute> | undefined> {
  const parse = (text: string): Record<string, TypedAttribute> | string => {
    const result: Record<string, TypedAttribute> = {};
    for (const part of splitTopLevel(text)) {
      const [name = "", type = "string"] = splitNameType(part);
      if (!isValidName(name)) return `"${name}" is not a valid attribute name`;
      const typed = parseAttributeType(type);
      if (!typed.ok) return typed.problems.join("; ");
      result[name] = typed.value;
    }
    return result;
  };
  const text = await prompter.text(
    `Other attributes as name:type, comma-separated (${ATTRIBUTE_TYPE_FORMS}; blank for none yet)`,
    {
      validate: (value) => {
        const parsed = parse(value);
        return typeof parsed === "string" ? parsed : true;
      },
    },
  );
  const parsed = parse(text);
  return typeof parsed === "string" || Object.keys(parsed).length === 0 ? undefined : parsed;
}

/** `name:type` split at its first colon (a type has none). */
function splitNameType(part: string): readonly string[] {
  const colon = part.indexOf(":");
  return colon < 0 ? [part.trim()] : [part.slice(0, colon).trim(), part.slice(colon + 1).trim()];
}

/** An attribute as `add-entity` takes it: the type alone, or with its vector or full-text search. */
export function attributeChangeForm(attribute: TypedAttribute): TypedAttribute | TypedAttribute["type"] {
  return attribute.vector === undefined && attribute.fullText === undefined ? attribute.type : attribute;
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
  // a read asked for (a write's items that nothing reads) may be a search too
  const chosen =
    preset.type === "write"
      ? preset.type
      : preset.type === "read"
        ? await prompter.choose(
            "A query or a search?",
            [
              { value: "read", name: "a query (get, list by filters and a sort order)" },
              SEARCH_CHOICE,
            ] as const,
            "read",
          )
        : await prompter.choose("Read or write?", [
            { value: "read", name: "read (get, list, query)" },
            SEARCH_CHOICE,
            { value: "write", name: "write (create, update, delete)" },
          ] as const);
  const type = chosen === "write" ? "write" : "read";
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
  const searched = workload.entities.find((e) => e.name === entity);
  const searchAnswer =
    chosen === SEARCH_CHOICE.value && searched !== undefined
      ? await searchForm(prompter, searched, await askSearchKind(prompter))
      : undefined;
  if (searchAnswer !== undefined) {
    // a search returns its k best by distance or rank: filters, but no sort order and no limit
    fields.search = searchAnswer.search;
    const where = await keyValueList(
      prompter,
      `Filters the search is scoped by, as attribute:operator (${PREDICATE_OPERATORS.join(", ")}), e.g. tenantId:eq (blank for none)`,
      PREDICATE_OPERATORS,
      "eq",
    );
    if (where !== undefined) fields.where = where;
  } else if (type === "write") {
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
    // a point read (the whole key, by equality) returns one item: no sort order, no limit
    const key = workload.entities.find((e) => e.name === entity)?.key ?? [];
    const pointRead = key.length > 0 && key.every((attribute) => where?.[attribute] === "eq");
    const orderBy = pointRead
      ? undefined
      : await keyValueList(
          prompter,
          "Sort as attribute:asc|desc, e.g. createdAt:desc (blank for none)",
          ["asc", "desc"],
          "asc",
        );
    if (orderBy !== undefined) fields.orderBy = orderBy;
    const limit = pointRead
      ? undefined
      : await prompter.quantity("At most how many items returned? (blank for all matches)", "count", {
          allowBlank: true,
          range: RANGES.positiveInteger,
        });
    if (typeof limit === "number") fields.limit = limit;
  }
  const [avg, peak] = await rateLine(prompter);
  if (typeof avg === "number" || typeof peak === "number")
    fields.rps = {
      ...(typeof avg === "number" ? { avg } : {}),
      ...(typeof peak === "number" ? { peak } : {}),
    };
  const change: Change = { kind: "add-access-pattern", type, entity, name: name.trim(), ...fields } as Change;
  const declared = searchAnswer?.attributes ?? [];
  const attributeChanges = await declareNewAttributes(
    prompter,
    withDeclaredAttributes(workload, declared),
    entity,
    change,
  );
  return [...declared, ...attributeChanges, change];
}

/** The average and peak rate on one line (`12, 40`; blank when not known yet). */
async function rateLine(prompter: Prompter): Promise<readonly (number | undefined)[]> {
  const parts: readonly NumberPart[] = [
    { label: "average", unit: "requests/s", range: RANGES.nonNegative, optional: true },
    { label: "peak", unit: "requests/s", range: RANGES.positive, optional: true },
  ];
  const check = (text: string): string | true => {
    const parsed = parseNumberLine(text, parts);
    if (!parsed.ok) return parsed.problems.join("; ");
    const [avg, peak] = parsed.value;
    return typeof avg === "number" && typeof peak === "number" && peak < avg
      ? `the peak is at least the average (${avg}/s)`
      : true;
  };
  const text = await prompter.text(
    "Average and peak requests per second, e.g. 12, 40 (blank if not known yet)",
    {
      validate: check,
    },
  );
  const parsed = parseNumberLine(text, parts);
  return parsed.ok ? parsed.value.map((value) => (typeof value === "number" ? value : undefined)) : [];
}

/**
 * The access patterns typed one per line (`A member's loans: list Loan by memberId, sorted by
 * dueAt desc, limit 20, 12/s peak 40/s`) until a blank line; `?` opens the step-by-step form. The
 * attributes a line names that its entity lacks get their types in one prompt, with a guess to
 * accept with Enter (an attribute named like another entity's key has its type, without asking).
 */
async function patternLines(
  prompter: Prompter,
  workload: DraftWorkload,
  repeat: boolean,
): Promise<readonly Change[]> {
  prompter.print(
    `  One access pattern per line: [description:] read or write, the entity, then ", "-separated clauses: by A and B (filters: eq, range, in, contains, prefix), sorted by A desc, limit N, returns N, with X; for a write (create, update, replace, upsert, delete), changes A and B; a search: search Chunk nearest embedding (or text content; both joined by and = hybrid), k 10, recall 0.9; the rate as 12/s peak 40/s. "?" opens a step-by-step form.`,
  );
  const changes: Change[] = [];
  let current = workload;
  for (let count = 0; ;) {
    const first = count === 0;
    const text = await prompter.text(
      `Access pattern ${count + 1}${first ? ` (e.g. ${PATTERN_LINE_EXAMPLE})` : " (blank when done)"}`,
      {
        validate: (value) => {
          const trimmed = value.trim();
          if (trimmed === "") return first ? "an access pattern is needed (? for a step-by-step form)" : true;
          if (trimmed === "?") return true;
          const parsed = parsePatternLine(trimmed, current);
          return parsed.ok ? true : parsed.problems.join("; ");
        },
      },
    );
    const trimmed = text.trim();
    if (trimmed === "") break;
    const made =
      trimmed === "?"
        ? await accessPatternForm(prompter, current, {})
        : await typedPattern(prompter, current, trimmed);
    changes.push(...made);
    current = withDeclaredAttributes(current, made);
    count += 1;
    if (!repeat) break;
  }
  return changes;
}

/** A typed pattern line's changes: its new attributes' types (asked in one prompt), then the pattern. */
async function typedPattern(
  prompter: Prompter,
  workload: DraftWorkload,
  line: string,
): Promise<readonly Change[]> {
  const parsed = parsePatternLine(line, workload);
  if (!parsed.ok) return [];
  const { change, newAttributes } = parsed.value;
  const known = new Map<string, (typeof ATTRIBUTE_TYPES)[number]>();
  for (const attribute of newAttributes) {
    const type = keyTypeElsewhere(workload, change.entity, attribute);
    if (type !== undefined) known.set(attribute, type);
  }
  const asked = newAttributes.filter((attribute) => !known.has(attribute));
  const changes: Change[] = [...known].map(([name, type]) => ({
    kind: "set-attribute",
    entity: change.entity,
    name,
    type,
  }));
  for (const [name, type] of known)
    prompter.print(`  ${change.entity}.${name}: ${type}, like the key of the entity it names`);
  if (asked.length > 0) {
    const guess = asked
      .map((attribute) => `${attribute}:${searchTypeGuess(change, attribute) ?? guessType(attribute)}`)
      .join(", ");
    // a searched attribute's type must be a vector (or a text): checked as the line's search is
    const searchedBy = (typed: Record<string, TypedAttribute>): string | undefined => {
      const entity = workload.entities.find((e) => e.name === change.entity);
      if (entity === undefined || change.search === undefined) return undefined;
      const declared = Object.entries(typed).map(([name, attribute]) => ({ name, ...attribute }));
      const problems = searchProblems({ ...entity, attributes: [...entity.attributes, ...declared] }, change);
      return problems.length === 0 ? undefined : problems.join("; ");
    };
    const typed = await attributeTypes(prompter, change.entity, asked, guess, searchedBy);
    for (const [name, attribute] of Object.entries(typed))
      changes.push({ kind: "set-attribute", entity: change.entity, name, ...attribute });
  }
  return [...changes, change];
}

/**
 * The type suggested for an attribute a search names: an embedding of 1,536 float32 dimensions
 * compared by cosine (OpenAI's text-embedding-3-small), or English text; both editable.
 */
function searchTypeGuess(
  change: Extract<Change, { kind: "add-access-pattern" }>,
  attribute: string,
): string | undefined {
  if (change.search?.nearest === attribute)
    return attributeTypeText({
      type: "array",
      vector: { dimensions: 1536, dataType: "float32", distance: "cosine" },
    });
  if (change.search?.fullText === attribute)
    return attributeTypeText({ type: "string", fullText: { language: "en-US" } });
  return undefined;
}

/** The type of `attribute` when it is the key of another entity (an order's customerId). */
function keyTypeElsewhere(
  workload: DraftWorkload,
  entity: string,
  attribute: string,
): (typeof ATTRIBUTE_TYPES)[number] | undefined {
  for (const other of workload.entities) {
    if (other.name === entity || other.key?.includes(attribute) !== true) continue;
    return other.attributes.find((a) => a.name === attribute)?.type ?? "string";
  }
  return undefined;
}

/** A first guess of an attribute's type from how it is written, for the user to accept or correct. */
function guessType(attribute: string): (typeof ATTRIBUTE_TYPES)[number] {
  if (/(At|Date|Time|On|_at|_date|_time)$/.test(attribute) || /^(date|time|timestamp)/i.test(attribute))
    return "datetime";
  if (/^(is|has|can)[A-Z_]/.test(attribute)) return "boolean";
  if (
    /(Count|Total|Amount|Price|Quantity|Qty|Score|Rank|Age|Number|count|total|amount|price|quantity|score)$/.test(
      attribute,
    )
  )
    return "number";
  return "string";
}

/** The types of `names` in one prompt (`dueAt:datetime, status:string`), the guess taken on Enter. */
async function attributeTypes(
  prompter: Prompter,
  entity: string,
  names: readonly string[],
  guess: string,
  check: (typed: Record<string, TypedAttribute>) => string | undefined = () => undefined,
): Promise<Record<string, TypedAttribute>> {
  const parse = (text: string): Record<string, TypedAttribute> | string => {
    const result: Record<string, TypedAttribute> = {};
    for (const part of splitTopLevel(text)) {
      const [name = "", type = ""] = splitNameType(part);
      if (!names.includes(name)) return `"${name}" is not one of ${names.join(", ")}`;
      const typed = parseAttributeType(type);
      if (!typed.ok) return typed.problems.join("; ");
      result[name] = typed.value;
    }
    const missing = names.filter((name) => result[name] === undefined);
    return missing.length > 0 ? `the type of ${missing.join(", ")} is needed` : (check(result) ?? result);
  };
  const text = await prompter.text(
    `${entity}: ${names.join(", ")} ${names.length === 1 ? "is" : "are"} new: the type${names.length === 1 ? "" : "s"} as name:type (${ATTRIBUTE_TYPE_FORMS})`,
    {
      default: guess,
      validate: (value) => {
        const parsed = parse(value);
        return typeof parsed === "string" ? parsed : true;
      },
    },
  );
  const parsed = parse(text);
  return typeof parsed === "string" ? {} : parsed;
}

/** The workload with the attributes `changes` declare, so the next line does not ask them again. */
function withDeclaredAttributes(workload: DraftWorkload, changes: readonly Change[]): DraftWorkload {
  const declared = changes.filter((change) => change.kind === "set-attribute");
  if (declared.length === 0) return workload;
  return {
    ...workload,
    entities: workload.entities.map((entity) => {
      const added = declared
        .filter(
          (change) => change.entity === entity.name && !entity.attributes.some((a) => a.name === change.name),
        )
        .map((change) => ({
          name: change.name,
          type: change.type ?? "string",
          ...(change.vector === undefined ? {} : { vector: change.vector }),
          ...(change.fullText === undefined ? {} : { fullText: change.fullText }),
        }));
      return added.length === 0 ? entity : { ...entity, attributes: [...entity.attributes, ...added] };
    }),
  } as DraftWorkload;
}

/** New attributes named by a pattern need a type: all of them in one prompt, with a guess. */
async function declareNewAttributes(
  prompter: Prompter,
  workload: DraftWorkload,
  entityName: string,
  change: Change,
): Promise<readonly Change[]> {
  const entity = workload.entities.find((e) => e.name === entityName);
  if (entity === undefined || change.kind !== "add-access-pattern") return [];
  const named = [...Object.keys(change.where ?? {}), ...Object.keys(change.orderBy ?? {})];
  const missing = [...new Set(named)].filter((name) => !entity.attributes.some((a) => a.name === name));
  if (missing.length === 0) return [];
  const typed = await attributeTypes(
    prompter,
    entityName,
    missing,
    missing
      .map((name) => `${name}:${keyTypeElsewhere(workload, entityName, name) ?? guessType(name)}`)
      .join(", "),
  );
  return Object.entries(typed).map(([name, attribute]): Change => ({
    kind: "set-attribute",
    entity: entityName,
    name,
    ...attribute,
  }));
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
