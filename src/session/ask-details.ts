/**
 * The details that change a design once the entities, patterns, sizes and relationships are
 * known: how many items a read returns when its filter does not say (range, prefix or no
 * filter), the latency the reads must meet, which attributes most records lack (sparse), and
 * which writes must commit together (atomic). Each is asked once; all are optional.
 */
import type { DraftAccessPattern, DraftWorkload } from "./draft.js";
import type { Question, QuestionGroup } from "./questions.js";
import type { SessionState } from "./state.js";
import { RANGES } from "./value-ranges.js";

/** Question ids of the one-off details. */
export const DETAIL_QUESTIONS = {
  latency: "design:latency",
  sparse: "design:sparse-attributes",
  atomic: "design:atomic-writes",
} as const;

/** Result sizes of the reads that need one, then latency, sparse attributes and atomic writes. */
export function askDesignDetails(state: SessionState): readonly Question[] {
  const workload = state.workload;
  const open = (id: string): boolean => !state.declined.includes(id);
  return [
    ...readsWithoutResultSize(workload)
      .filter((read) => open(`result-size:${read.id}`))
      .flatMap(resultSizeQuestions),
    ...(open(DETAIL_QUESTIONS.latency) && !workload.accessPatterns.some((p) => p.latencyMs !== undefined)
      ? [latencyQuestion(workload)].filter((q) => q !== undefined)
      : []),
    ...(open(DETAIL_QUESTIONS.sparse) &&
    !workload.entities.some((e) => e.attributes.some((a) => a.presence !== undefined))
      ? [sparseQuestion(workload)].filter((q) => q !== undefined)
      : []),
    ...(open(DETAIL_QUESTIONS.atomic) && !workload.accessPatterns.some((p) => p.atomicWith !== undefined)
      ? [atomicQuestion(workload)].filter((q) => q !== undefined)
      : []),
  ];
}

/**
 * Reads whose number of results the tool can only guess: no limit and no `returns`, and not a
 * lookup of one item (an equality on every key attribute of the entity, or on a unique attribute),
 * nor all the children of one parent where the relationship gives their average and bound.
 * Equality filters on other attributes are guessed from their distinct values (a clinic's unpaid
 * invoices: clinicId and status), and that guess moves the cost most: issue 27's vet clinic
 * cost 35 times more at the guessed 112,946 invoices per request than with a page of 100.
 */
export function readsWithoutResultSize(workload: DraftWorkload): readonly DraftAccessPattern[] {
  return workload.accessPatterns.filter((pattern) => {
    if (pattern.type !== "read" || pattern.limit !== undefined || pattern.returns !== undefined) return false;
    // a search returns its k results
    if (pattern.search !== undefined) return false;
    const equalities = Object.entries(pattern.where ?? {})
      .filter(([, op]) => op === "eq")
      .map(([attribute]) => attribute);
    const entity = workload.entities.find((e) => e.name === pattern.entity);
    if (entity === undefined) return equalities.length === 0;
    const key = entity.key ?? [];
    const byKey = key.length > 0 && key.every((attribute) => equalities.includes(attribute));
    const byUnique = entity.attributes.some((a) => a.unique === true && equalities.includes(a.name));
    // A parent's children, all of them: their number per parent is the relationship's, when
    // the user gave its average and a bound.
    const children = workload.relationships.some(
      (r) =>
        r.child === pattern.entity &&
        r.avg !== undefined &&
        typeof r.max === "number" &&
        (r.via ?? []).length > 0 &&
        equalities.length === (r.via ?? []).length &&
        (r.via ?? []).every((attribute) => equalities.includes(attribute)),
    );
    return !byKey && !byUnique && !children;
  });
}

function resultSizeQuestions(read: DraftAccessPattern): Question[] {
  const filter = Object.entries(read.where ?? {})
    .map(([attribute, op]) => `${attribute} ${op}`)
    .join(", ");
  const group: QuestionGroup = {
    id: `result-size:${read.id}`,
    text: `${read.id} (${read.name}) ${filter === "" ? "has no filter" : `filters with ${filter}`} and no limit: how many ${read.entity} items does one request return, or does the application page?`,
  };
  const change = { kind: "update-access-pattern", id: read.id };
  return [
    {
      id: `result-size:${read.id}`,
      topic: "design-details",
      text: `How many ${read.entity} items does one ${read.id} request return on average?`,
      why: "Without it the tool guesses from the filtered attributes' distinct values (1% of the items per range or prefix filter, every item without a filter): the RU of the read, and so the design and the cost, scale with what it returns.",
      answer: { kind: "number", unit: "count", range: RANGES.nonNegative },
      fills: { change, field: "returns.avg" },
      optional: true,
      group,
    },
    {
      id: `result-size:${read.id}:limit`,
      topic: "design-details",
      text: `Does ${read.id} return at most a fixed number of items (a page, e.g. 20)? Skip if it returns every match.`,
      why: "A limit (with a sort order) lets the query stop early instead of reading every match.",
      answer: { kind: "number", unit: "count", range: RANGES.positiveInteger },
      fills: { change, field: "limit" },
      optional: true,
      group,
    },
  ];
}

function latencyQuestion(workload: DraftWorkload): Question | undefined {
  const reads = workload.accessPatterns.filter((p) => p.type === "read");
  if (reads.length === 0) return undefined;
  return {
    id: DETAIL_QUESTIONS.latency,
    topic: "design-details",
    text: `What latency must the reads (${reads.map((p) => p.id).join(", ")}) meet, as a p99 in milliseconds (e.g. 50 ms)? Skip if there is no target.`,
    why: "A latency target rules out designs whose reads need several round trips or a cross-partition fan-out for the data a user waits on.",
    answer: { kind: "number", unit: "milliseconds", range: RANGES.positive },
    fills: { change: { kind: "set-latency-target" }, field: "latencyMs" },
    optional: true,
    suggested: { answer: { kind: "skip", said: "none" }, label: "no latency target" },
  };
}

/** The attributes whose sparseness changes a design: those reads filter or sort on (not keys or booleans). */
export function sparseCandidates(workload: DraftWorkload): readonly string[] {
  const owned = new Set(
    workload.relationships
      .filter((r) => r.owned === true && r.via !== undefined)
      .flatMap((r) => (r.via ?? []).map((via) => `${r.child}.${via}`)),
  );
  const found = new Set<string>();
  for (const pattern of workload.accessPatterns) {
    if (pattern.type !== "read") continue;
    const entity = workload.entities.find((e) => e.name === pattern.entity);
    if (entity === undefined) continue;
    for (const name of [...Object.keys(pattern.where ?? {}), ...Object.keys(pattern.orderBy ?? {})]) {
      const attribute = entity.attributes.find((a) => a.name === name);
      if (attribute === undefined || entity.key?.includes(name) === true || attribute.type === "boolean")
        continue;
      if (!owned.has(`${entity.name}.${name}`)) found.add(`${entity.name}.${name}`);
    }
  }
  return [...found];
}

function sparseQuestion(workload: DraftWorkload): Question | undefined {
  const candidates = sparseCandidates(workload);
  if (candidates.length === 0) return undefined;
  return {
    id: DETAIL_QUESTIONS.sparse,
    topic: "design-details",
    text: `Do many records lack a value for any of ${candidates.join(", ")} (e.g. an order without a courier yet, an optional promo code)?`,
    why: "An index, a copy or a container keyed by a sparse attribute holds only the records that have it: smaller and cheaper than the entity.",
    answer: {
      kind: "choice",
      choices: [
        {
          value: "none",
          label: "No: every record has a value for each of them",
          changes: [
            {
              kind: "decline-question",
              question: DETAIL_QUESTIONS.sparse,
              answer: "every record has a value for each filtered attribute",
            },
          ],
        },
        {
          value: "some",
          label: "Yes: say which and what share of the records have a value",
          changes: [],
          form: { form: "attribute-presence", preset: { attributes: candidates } },
        },
      ],
    },
    optional: true,
    suggested: { answer: { kind: "choice", value: "none" }, label: "no sparse attributes" },
  };
}

function atomicQuestion(workload: DraftWorkload): Question | undefined {
  const writes = workload.accessPatterns.filter((p) => p.type === "write");
  if (writes.length < 2) return undefined;
  return {
    id: DETAIL_QUESTIONS.atomic,
    topic: "design-details",
    text: `Must any of the writes (${writes.map((p) => `${p.id} ${p.name}`).join("; ")}) commit together, all or nothing (e.g. an order and the stock it takes)?`,
    why: "Writes that must succeed or fail together need their items in one logical partition (a transactional batch): that constrains the partition keys.",
    answer: {
      kind: "choice",
      choices: [
        {
          value: "none",
          label: "No: each write stands alone",
          changes: [
            {
              kind: "decline-question",
              question: DETAIL_QUESTIONS.atomic,
              answer: "each write stands alone",
            },
          ],
        },
        {
          value: "some",
          label: "Yes: say which writes commit together",
          changes: [],
          form: { form: "atomic-writes", preset: { writes: writes.map((p) => p.id) } },
        },
      ],
    },
    optional: true,
    suggested: { answer: { kind: "choice", value: "none" }, label: "no writes that commit together" },
  };
}
