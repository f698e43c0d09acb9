/**
 * TypeScript for one read access pattern: its input type and an async function that runs the
 * plan's steps with `@azure/cosmos` (point reads, the plan's parameterized queries, follow-up
 * reads per returned item), summing the request charges.
 */
import type { PlanStep, PointReadStep, QueryParameter, QueryStep, ReadPlan } from "../../planner/types.js";
import type { AttributeType, ReadPattern, Workload } from "../../workload/types.js";
import {
  codeLiteral,
  commentText,
  propertyAccess,
  propertyKey,
  stringLiteral,
  valueLiteral,
} from "./identifiers.js";
import { entityNamed, shapeKey, type ItemTypeShapeData } from "./model-data.js";

/** TypeScript type of an attribute value. */
export function attributeTsType(type: AttributeType | undefined): string {
  switch (type) {
    case "string":
    case "datetime":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "object":
      return "Readonly<Record<string, unknown>>";
    case "array":
      return "readonly unknown[]";
    case undefined:
      return "KeyValue";
    default:
      return type satisfies never;
  }
}

/** The input type of a read pattern: one property per `where` predicate. */
export function readInputType(workload: Workload, pattern: ReadPattern): string {
  const entity = entityNamed(workload, pattern.entity);
  const members = pattern.where.map((predicate) => {
    const type = attributeTsType(entity?.attributes.find((a) => a.name === predicate.attribute)?.type);
    const valueType =
      predicate.op === "in"
        ? `readonly ${type.includes(" ") ? `(${type})` : type}[]`
        : predicate.op === "range"
          ? `{ readonly from: ${type}; readonly to: ${type} }`
          : predicate.op === "prefix"
            ? "string"
            : type;
    return `readonly ${propertyKey(predicate.attribute)}: ${valueType};`;
  });
  // A search takes the query vector (under the vector attribute's name) and the terms.
  const search = pattern.search;
  if (search !== undefined && search.kind !== "fullText")
    members.push(`readonly ${propertyKey(search.vector)}: readonly number[];`);
  if (search !== undefined && search.kind !== "vector") members.push("readonly terms: readonly string[];");
  return members.length === 0 ? "Readonly<Record<string, never>>" : `{ ${members.join(" ")} }`;
}

interface StepScope {
  /** Variable holding the template values of this step. */
  readonly values: string;
  /** Variable holding the shape of this step's item type. */
  readonly shape: string;
  /** Variable holding the attributes the step's values come from (`input` or `result`). */
  readonly attributes: string;
  /** For a batched follow-up: the items whose values are gathered. */
  readonly gatherFrom?: string;
  /** One query per write shard: the variable `shard` holds the shard (its keys name that shard only). */
  readonly perShard?: boolean;
}

function parameterExpression(step: QueryStep, parameter: QueryParameter, scope: StepScope): string {
  const source = parameter.source;
  switch (source.kind) {
    case "input": {
      const value = propertyAccess(scope.attributes, source.attribute);
      if (source.bound === undefined) return value;
      // A bucket holds its window's start: the bucket holding `from` starts before it.
      if (source.alignToWindowSeconds !== undefined) {
        return `bucketOf({ kind: "window", by: "value", windowSeconds: ${source.alignToWindowSeconds} }, { value: ${value}.${source.bound} })`;
      }
      return `${value}.${source.bound}`;
    }
    case "literal":
      return valueLiteral(source.value);
    case "fromResult":
      return scope.gatherFrom === undefined
        ? `${scope.attributes}[${stringLiteral(source.attribute)}]`
        : `distinctValues(${scope.gatherFrom}, ${stringLiteral(source.attribute)})`;
    case "template": {
      // ARRAY_CONTAINS(@p, c.key): every write shard of the key.
      const many = step.sql.includes(`ARRAY_CONTAINS(${parameter.name},`);
      // One query per shard: the shard's own key value.
      if (many && scope.perShard === true)
        return `[renderKeyValue(${stringLiteral(source.template)}, { ...${scope.values}, shard })]`;
      if (many) return `shardValues(${scope.shape}, ${stringLiteral(source.template)}, ${scope.attributes})`;
      if (scope.gatherFrom !== undefined) {
        return `${scope.gatherFrom}.map((item) => renderKeyValue(${stringLiteral(source.template)}, readValues(runtime, ${scope.shape}, item)))`;
      }
      return `renderKeyValue(${stringLiteral(source.template)}, ${scope.values})`;
    }
    case "random":
      return `Math.floor(runtime.random() * ${source.count})`;
    case "limit":
      return String(source.value);
    case "item":
      return "null";
    case "searchTerm":
      // bound by withSearchTerms (placeholder until then)
      return `${propertyAccess(scope.attributes, "terms")}[${source.index - 1}] ?? null`;
    default:
      return source satisfies never;
  }
}

function keysExpression(templates: readonly string[], values: string): string {
  return `[${templates.map((t) => `renderKeyValue(${stringLiteral(t)}, ${values})`).join(", ")}]`;
}

function queryParameters(step: QueryStep, scope: StepScope, indent: string): string {
  return step.parameters
    .map(
      (p) => `${indent}  { name: ${stringLiteral(p.name)}, value: ${parameterExpression(step, p, scope)} },`,
    )
    .join("\n");
}

function routedKeys(step: QueryStep, values: string): string | undefined {
  const routed = step.partitionKey !== undefined && step.scope !== "shards" && step.scope !== "fanOut";
  return routed ? keysExpression(step.partitionKey ?? [], values) : undefined;
}

function queryCall(step: QueryStep, scope: StepScope, indent: string): string {
  const keys = routedKeys(step, scope.values);
  return [
    `queryItems(`,
    `${indent}runtime.container(${stringLiteral(step.container)}),`,
    `${indent}${stringLiteral(step.sql)},`,
    `${indent}[\n${queryParameters(step, scope, indent)}\n${indent}]${keys === undefined ? "" : `,\n${indent}${keys}`},`,
    `${indent.slice(2)})`,
  ].join("\n");
}

/**
 * One page of the first query (`readPage`): one query, or one per write shard routed to that
 * shard's partition and merged in the ORDER BY; the caller's page size (default the pattern's
 * limit) whatever the number of shards.
 */
function readPageCall(step: QueryStep, scope: StepScope, indent: string): string {
  const size = step.pageSize === undefined ? "page.pageSize" : `page.pageSize ?? ${step.pageSize}`;
  const options = [`orderBy: ${codeLiteral(step.orderValues ?? [], indent)}`, `pageSize: ${size}`];
  let streams: string;
  if (step.scope === "shards") {
    const sharded: StepScope = { ...scope, perShard: true };
    const keys = keysExpression(step.partitionKey ?? [], `{ ...${scope.values}, shard }`);
    streams = [
      `perShard(${scope.shape}, (shard) => ({`,
      `${indent}  parameters: [\n${queryParameters(step, sharded, `${indent}  `)}\n${indent}  ],`,
      ...(step.partitionKey === undefined ? [] : [`${indent}  keys: ${keys},`]),
      `${indent}}))`,
    ].join("\n");
  } else {
    const keys = routedKeys(step, scope.values);
    streams = [
      `[{`,
      `${indent}  parameters: [\n${queryParameters(step, scope, `${indent}  `)}\n${indent}  ],`,
      ...(keys === undefined ? [] : [`${indent}  keys: ${keys},`]),
      `${indent}}]`,
    ].join("\n");
  }
  // A full-text search binds the caller's terms (fewer than the query takes: the rest left out).
  const text = step.search?.text;
  const queryAndStreams =
    text === undefined
      ? [`${indent}${stringLiteral(step.sql)},`, `${indent}${streams},`]
      : [
          `${indent}...withSearchTerms(${stringLiteral(step.sql)}, ${streams}, ${propertyAccess(scope.attributes, "terms")}, ${text.terms}),`,
        ];
  return [
    `readPage(`,
    `${indent}runtime.container(${stringLiteral(step.container)}),`,
    ...queryAndStreams,
    `${indent}{ ${options.join(", ")} },`,
    `${indent}cursor1,`,
    `${indent}${scope.values}.replica,`,
    `${indent.slice(2)})`,
  ].join("\n");
}

function identityCall(step: PointReadStep, values: string): string {
  return `{ id: renderTemplate(${stringLiteral(step.id)}, ${values}), keys: ${keysExpression(step.partitionKey, values)} }`;
}

function pointReadCall(step: PointReadStep, shape: string, values: string, indent: string): string {
  return [
    `liveRead(${shape}, await readItem(`,
    `${indent}runtime.container(${stringLiteral(step.container)}),`,
    `${indent}renderTemplate(${stringLiteral(step.id)}, ${values}),`,
    `${indent}${keysExpression(step.partitionKey, values)},`,
    `${indent.slice(2)}))`,
  ].join("\n");
}

/** The first step's statements; true when it is a query that pages (its continuation is returned). */
function firstStep(pattern: ReadPattern, step: PlanStep, itemType: string, lines: string[]): boolean {
  const shapeLine = `const shape1 = runtime.shape(${stringLiteral(step.container)}, ${stringLiteral(step.itemType)});`;
  lines.push(`// ${commentText(step.note)}`, shapeLine);
  if (step.kind === "pointRead") {
    const templates = [step.id, ...step.partitionKey].join(" ");
    const listed = [
      ...new Set(
        pattern.where
          .filter((p) => p.op === "in" && templates.includes(`{${p.attribute}}`))
          .map((p) => p.attribute),
      ),
    ];
    if (listed.length === 0) {
      lines.push(
        "const values1 = readValues(runtime, shape1, input);",
        `const step1 = ${pointReadCall(step, "shape1", "values1", "  ")};`,
        "requestCharge += step1.requestCharge;",
        `const items = itemsAs<${itemType}>(step1.item === undefined ? [] : [step1.item]);`,
      );
    } else {
      // `in` on addressing attributes: every combination's item in one read of many (ReadMany).
      lines.push(
        `const step1 = await readMany(runtime.container(${stringLiteral(step.container)}), combinationsOf(input, [${listed.map(stringLiteral).join(", ")}]).map((combination) => {`,
        "  const values1 = readValues(runtime, shape1, { ...input, ...combination });",
        `  return ${identityCall(step, "values1")};`,
        "}));",
        "requestCharge += step1.requestCharge;",
        pattern.limit === undefined && pattern.orderBy.length === 0
          ? `const items = itemsAs<${itemType}>(step1.items.filter((item) => liveItem(shape1, item) !== undefined));`
          : // The pattern's ORDER BY and limit over the items read (a query would apply them).
            `const items = itemsAs<${itemType}>(firstInOrder(step1.items.filter((item) => liveItem(shape1, item) !== undefined), ${JSON.stringify(pattern.orderBy)}, ${String(pattern.limit)}));`,
      );
    }
    return false;
  }
  if (step.kind !== "query") {
    lines.push(`throw new Error(${stringLiteral(`a read cannot start with a ${step.kind} step`)});`);
    return false;
  }
  // A replicated item type: every page of a read from the replica of its first page.
  lines.push(
    "const cursor1 = openPages(shape1, page);",
    "const values1 = readValues(runtime, shape1, input, shape1.id, cursor1.replica);",
    `const step1 = await ${readPageCall(step, { values: "values1", shape: "shape1", attributes: "input" }, "  ")};`,
    "requestCharge += step1.requestCharge;",
    "const continuationToken = step1.continuationToken;",
    `const items = itemsAs<${itemType}>(step1.items);`,
  );
  return true;
}

/**
 * The lines of a follow-up step, run for the items in `items` (the variable holding the answer's
 * items: the first step's, or the complete records a lookup item led to).
 */
function followUpStep(step: PlanStep, index: number, lines: string[], items = "items"): void {
  const n = index + 1;
  const shape = `shape${n}`;
  const values = `values${n}`;
  const ref = `container: ${stringLiteral(step.container)}, itemType: ${stringLiteral(step.itemType)}`;
  lines.push(`// ${commentText(step.note)}`, "{");
  lines.push(
    `  const ${shape} = runtime.shape(${stringLiteral(step.container)}, ${stringLiteral(step.itemType)});`,
  );
  if (step.kind !== "pointRead" && step.kind !== "query") {
    lines.push(`  throw new Error(${stringLiteral(`a read cannot have a ${step.kind} step`)});`, "}");
    return;
  }
  if (step.kind === "pointRead") {
    // One read of many for every returned item's related item (ReadMany), matched back by id and key.
    lines.push(
      `  const identities = ${items}.map((result) => {`,
      `    const ${values} = readValues(runtime, ${shape}, result, ${stringLiteral(step.id)});`,
      `    return ${identityCall(step, values)};`,
      "  });",
      `  const read = await readMany(runtime.container(${stringLiteral(step.container)}), identities);`,
      "  requestCharge += read.requestCharge;",
      `  const found = read.items.filter((item) => liveItem(${shape}, item) !== undefined);`,
    );
    if (step.perResult === true) {
      lines.push(
        '  const byId = new Map(found.map((item) => [JSON.stringify([item["id"], partitionKeyOfItem(' +
          shape +
          ", item)]), item]));",
        "  const byResult: unknown[][] = identities.map((identity) => {",
        "    const item = byId.get(JSON.stringify([identity.id, identity.keys]));",
        "    return item === undefined ? [] : [item];",
        "  });",
        `  followUps.push({ ${ref}, perResult: true, items: byResult.flat(), byResult });`,
        "}",
      );
    } else {
      lines.push(`  followUps.push({ ${ref}, perResult: false, items: found, byResult: [] });`, "}");
    }
    return;
  }
  if (step.perResult === true) {
    lines.push(
      "  const byResult: unknown[][] = [];",
      `  for (const result of ${items}) {`,
      `    const ${values} = readValues(runtime, ${shape}, result);`,
      `    const found = await ${queryCall(step, { values, shape, attributes: "result" }, "      ")};`,
      "    requestCharge += found.requestCharge;",
      "    byResult.push(found.items);",
      "  }",
      `  followUps.push({ ${ref}, perResult: true, items: byResult.flat(), byResult });`,
      "}",
    );
    return;
  }
  const call = queryCall(
    step,
    { values, shape, attributes: `${items}[0] ?? {}`, gatherFrom: items },
    "      ",
  );
  lines.push(
    `  const ${values} = readValues(runtime, ${shape}, ${items}[0] ?? {});`,
    "  const found =",
    `    ${items}.length === 0`,
    "      ? { items: [], requestCharge: 0 }",
    `      : await ${call};`,
    "  requestCharge += found.requestCharge;",
    `  followUps.push({ ${ref}, perResult: false, items: found.items, byResult: [] });`,
    "}",
  );
}

/**
 * The body of a read pattern's function (statements, without the braces).
 * @example emitReadBody(pattern, plan, shapes) // "let requestCharge = 0; ... return { items, ... };"
 */
export function emitReadBody(
  pattern: ReadPattern,
  plan: ReadPlan,
  shapes: ReadonlyMap<string, ItemTypeShapeData>,
  typeOf: (container: string, itemType: string) => string = () => "StoredItem",
): string[] {
  const [first, ...rest] = plan.operations;
  if (first === undefined) {
    return [
      `throw new Error(${stringLiteral(`${pattern.id} cannot be answered by this model: ${plan.notes.join("; ")}`)});`,
    ];
  }
  const lines = ["let requestCharge = 0;", "const followUps: FollowUpResult[] = [];"];
  const pages = firstStep(pattern, first, typeOf(first.container, first.itemType), lines);
  const done = pages ? ", ...(continuationToken === undefined ? {} : { continuationToken })" : "";
  const answer = readAnswer(plan, shapes);
  const type = typeOf(answer.container, answer.itemType);
  // A lookup item (e.g. category -> itemId) is followed by a read of the complete record; the
  // other follow-ups run for the complete records (the lookup item lacks the attributes they
  // follow), aligned with the items the function returns.
  const lookup = answer === first ? undefined : rest[0];
  const others = lookup === undefined ? rest : rest.slice(1);
  if (lookup !== undefined) {
    followUpStep(lookup, 1, lines);
    lines.push(`const complete = itemsAs<${type}>(followUps[0]?.items ?? []);`);
  }
  const offset = lookup === undefined ? 1 : 2;
  others.forEach((step, index) =>
    followUpStep(step, index + offset, lines, lookup === undefined ? "items" : "complete"),
  );
  const source = answer === first ? "items" : "complete";
  const shape = plan.returnedShape;
  if (shape === undefined && answer === first) {
    lines.push(`return { items, item: items[0], requestCharge, followUps${done} };`);
  } else if (shape === undefined) {
    lines.push(`return { items: complete, item: complete[0], requestCharge, followUps${done} };`);
  } else {
    // select / truncate: the caller gets only what the pattern returns (queries already project).
    lines.push(
      `const returned = itemsAs<${type}>(shapeItems(asItems(${source}), ${codeLiteral(shape, "")}));`,
      `return { items: returned, item: returned[0], requestCharge, followUps${done} };`,
    );
  }
  return withoutUnusedValues(lines);
}

/**
 * The lines without the `const valuesN = readValues(...)` and `const shapeN = runtime.shape(...)`
 * declarations nothing else uses (a query whose parameters all come from the input), so the
 * module is lint clean. Repeated until none is left (a removed values line may use its shape).
 */
function withoutUnusedValues(lines: readonly string[]): string[] {
  const text = lines.join("\n");
  const kept = lines.filter((line) => {
    const declared = /^\s*const ((?:values|shape)\d+) = (?:readValues|runtime\.shape)\(/.exec(line)?.[1];
    if (declared === undefined) return true;
    return (text.match(new RegExp(`\\b${declared}\\b`, "g")) ?? []).length > 1;
  });
  return kept.length === lines.length ? kept : withoutUnusedValues(kept);
}

/** True when a read pattern's function takes page options (its first step is a query). */
export function readPages(plan: ReadPlan | undefined): boolean {
  return plan?.operations[0]?.kind === "query";
}

/** The step whose items a read returns: the first, or the complete record a lookup item leads to. */
export function readAnswer(plan: ReadPlan, shapes: ReadonlyMap<string, ItemTypeShapeData>): PlanStep {
  const [first, second] = plan.operations;
  if (first === undefined) throw new RangeError(`${plan.patternId} has no step`);
  const firstShape = shapes.get(shapeKey(first.container, first.itemType));
  const lookup =
    firstShape?.select !== undefined &&
    second !== undefined &&
    second.perResult === true &&
    // A follow-up answering a `with` entry on the same entity (a self-relationship's children) is
    // not the lookup's complete record.
    second.withEntry === undefined &&
    shapes.get(shapeKey(second.container, second.itemType))?.entity === firstShape.entity;
  return lookup && second !== undefined ? second : first;
}
