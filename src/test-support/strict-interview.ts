/**
 * A strict interview (issue 27, "an interview that never ends in a dead end"): a hidden
 * application, a random valid workload document, is the user's knowledge; a strict answerer
 * answers each question the session asks from that workload's facts only, the way an assistant
 * over MCP is told to (a question's `fills`, its choices' `changes` and `sets`, `alsoChanges`,
 * or `decline-question`), never volunteering anything, and declining only where the hidden
 * workload has no such fact (no retention, no result size). The session is driven in-process
 * with the functions the MCP tools call (`nextQuestions`, `applyChanges`, `checkReadiness`, the
 * session file's JSON round trip), one `update-requirements` call per turn, so a session of 8
 * entities takes milliseconds.
 *
 * A question the answerer has no rule for (`unanswerable`) or changes the session refuses
 * (`refused`) end the run: the server asked something unexpected, or its instructions did not
 * work. A session without questions that is not ready is a `dead-end`.
 * @example runStrictInterview(fc.sample(hiddenApplicationArbitrary(), 1)[0])
 */
import type fc from "fast-check";
import { applyChanges } from "../session/apply-changes.js";
import { changesSchema, type Change } from "../session/changes.js";
import { checkReadiness, type Readiness } from "../session/checklist.js";
import {
  nameForm,
  parseDraftDocument,
  type DraftAccessPattern,
  type DraftEntity,
  type DraftRelationship,
  type DraftWorkload,
} from "../session/draft.js";
import { designModel } from "../design/design-model.js";
import { MAX_QUESTIONS_PER_TURN, nextQuestions } from "../session/next-questions.js";
import { questionChoices, setField, type Question } from "../session/questions.js";
import { createSession, sessionFromJson, sessionToJson, type SessionState } from "../session/state.js";
import type { Workload } from "../workload/types.js";
import { toWorkload, workloadDocumentArbitrary, type WorkloadDocument } from "./workload-arbitrary.js";

/**
 * Hidden applications of 6 to 8 entities: the workload arbitrary's documents with a domain and
 * a description (the interview asks for both; generated documents have neither).
 */
export function hiddenApplicationArbitrary(
  options: { readonly minEntities?: number; readonly maxEntities?: number } = {},
): fc.Arbitrary<WorkloadDocument> {
  return workloadDocumentArbitrary({
    minEntities: options.minEntities ?? 6,
    maxEntities: options.maxEntities ?? 8,
  }).map((document) => ({
    ...document,
    domain: "generated",
    description: "A generated application: its entities, relationships and access patterns are random.",
  }));
}

/** The hidden workload's facts: the document read as the interview's draft (file semantics). */
export function hiddenFacts(document: WorkloadDocument): DraftWorkload {
  const parsed = parseDraftDocument(document);
  if (!parsed.ok) throw new Error(`the hidden document does not parse: ${JSON.stringify(parsed.issues)}`);
  return parsed.value;
}

/** The answerer has no fact for a question: the server asked something unexpected. */
export class UnanswerableQuestion extends Error {
  constructor(
    readonly question: Question,
    why: string,
  ) {
    super(`no answer for ${question.id} (${why}): ${question.text}`);
  }
}

/** The answer to one question: a value for its `fills`, a choice (and a form's changes), changes, or a skip. */
type Fact =
  | { readonly kind: "value"; readonly value: unknown }
  | { readonly kind: "choice"; readonly value: string; readonly form?: readonly Change[] }
  | { readonly kind: "changes"; readonly changes: readonly Change[] }
  | { readonly kind: "decline" };

const value = (v: unknown): Fact => ({ kind: "value", value: v });
const choice = (v: string, form?: readonly Change[]): Fact =>
  form === undefined ? { kind: "choice", value: v } : { kind: "choice", value: v, form };
const decline: Fact = { kind: "decline" };
/** A value when the hidden workload has it, else a decline. */
const valueOrDecline = (v: unknown): Fact => (v === undefined ? decline : value(v));

function entityOf(facts: DraftWorkload, name: string | undefined, question: Question): DraftEntity {
  const entity = facts.entities.find((e) => e.name === name);
  if (entity === undefined) throw new UnanswerableQuestion(question, `the application has no entity ${name}`);
  return entity;
}

function patternOf(facts: DraftWorkload, id: string | undefined, question: Question): DraftAccessPattern {
  const pattern = facts.accessPatterns.find((p) => p.id === id);
  if (pattern === undefined)
    throw new UnanswerableQuestion(question, `the application has no access pattern ${id}`);
  return pattern;
}

/**
 * The entities as the user lists them: name, key and each attribute's type, and, when the
 * question asks for them ("item count"), the count, sizes, growth and retention the hidden
 * workload gives; nothing else.
 */
function entityChanges(facts: DraftWorkload, question: Question): Change[] {
  const sizes = /item count/.test(question.text);
  return facts.entities.map((entity) => {
    const named = nameForm(entity.key);
    const key = typeof named === "string" || named === undefined ? named : [...named];
    const sized = {
      count: entity.count,
      avgBytes: entity.avgBytes,
      maxBytes: entity.maxBytes,
      growthPerMonth: entity.growthPerMonth,
      ttlSeconds: entity.ttlSeconds,
    };
    return {
      kind: "add-entity",
      name: entity.name,
      ...(key === undefined ? {} : { key }),
      attributes: Object.fromEntries(entity.attributes.map((a) => [a.name, a.type])),
      ...(sizes ? Object.fromEntries(Object.entries(sized).filter(([, v]) => v !== undefined)) : {}),
    };
  });
}

/**
 * The access patterns as the user describes them: what each reads or writes and how, its rates,
 * and, when the question asks them, how many items a read returns ("how many items it returns")
 * and how old the related data it returns may be ("how old"). Latency, buffering, atomicity,
 * request skew and `standalone` are left for the questions that ask them.
 */
function patternChanges(facts: DraftWorkload, question: Question): Change[] {
  const staleness = /how old/.test(question.text);
  const returns = /how many items it returns/.test(question.text);
  return facts.accessPatterns.map((p) => {
    const fields = {
      id: p.id,
      type: p.type,
      name: p.name,
      entity: p.entity,
      operation: p.operation,
      where: p.where,
      orderBy: p.orderBy,
      limit: p.limit,
      select: p.select,
      truncate: p.truncate,
      with: p.with,
      changes: p.changes,
      batch: p.batch,
      consistency: p.consistency,
      rps: p.rps,
      maxStalenessSeconds: staleness ? p.maxStalenessSeconds : undefined,
      returns: returns ? p.returns : undefined,
    };
    return {
      kind: "add-access-pattern",
      ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
    } as Change;
  });
}

/** The relationship of `parent` and `child` (a many-to-many link in either direction). */
function relationshipOf(facts: DraftWorkload, parent: string, child: string): DraftRelationship | undefined {
  return (
    facts.relationships.find((r) => r.parent === parent && r.child === child) ??
    facts.relationships.find((r) => r.kind === "many-to-many" && r.parent === child && r.child === parent)
  );
}

/** The fact answering `question`, from the hidden workload only. */
export function factFor(facts: DraftWorkload, question: Question): Fact {
  const parts = question.id.split(":");
  const [subject, first, second, third] = parts;
  switch (subject) {
    case "application":
      if (first === "name") return value(facts.name);
      if (first === "domain") return value(facts.domain);
      if (first === "description") return valueOrDecline(facts.description);
      break;
    case "entities":
      return { kind: "changes", changes: entityChanges(facts, question) };
    case "entity":
      if (second === "key") return value(nameForm(entityOf(facts, first, question).key));
      break;
    case "access-patterns":
      return { kind: "changes", changes: patternChanges(facts, question) };
    case "rate": {
      const pattern = patternOf(facts, first, question);
      if (second === "avg") return value(pattern.rps?.avg);
      if (second === "peak") return value(pattern.rps?.peak);
      break;
    }
    case "attribute": {
      const attribute = entityOf(facts, first, question).attributes.find((a) => a.name === second);
      if (attribute !== undefined && third === "type") return choice(attribute.type);
      break;
    }
    case "size": {
      const entity = entityOf(facts, first, question);
      if (second === "count") return value(entity.count);
      if (second === "avgBytes") return value(entity.avgBytes);
      if (second === "maxBytes") return value(entity.maxBytes);
      if (second === "growth") return valueOrDecline(entity.growthPerMonth);
      if (second === "retention") return valueOrDecline(entity.ttlSeconds);
      break;
    }
    case "pairing":
      return pairingFact(facts, question, first, second);
    case "relationship":
      return relationshipFact(facts, question, first ?? "", second ?? "", third);
    case "skew":
      return valueOrDecline(attributeOf(facts, question, first, second).skew);
    case "cardinality": {
      const attribute = attributeOf(facts, question, first, second);
      if (attribute.unique === true) return value(entityOf(facts, first, question).count);
      return valueOrDecline(attribute.distinct);
    }
    case "massive-scale":
      return massiveScaleFact(facts, question, first, second);
    case "result-size": {
      const pattern = patternOf(facts, first, question);
      if (second === undefined) return valueOrDecline(pattern.returns?.avg);
      if (second === "limit") return valueOrDecline(pattern.limit);
      break;
    }
    case "design":
      return designFact(facts, question, first);
    case "distribution":
      return distributionFact(facts, first);
    case "confirmation":
      return choice("complete");
    default:
      break;
  }
  throw new UnanswerableQuestion(question, "no rule for this question");
}

function attributeOf(
  facts: DraftWorkload,
  question: Question,
  entityName: string | undefined,
  name: string | undefined,
): DraftEntity["attributes"][number] {
  const attribute = entityOf(facts, entityName, question).attributes.find((a) => a.name === name);
  if (attribute === undefined)
    throw new UnanswerableQuestion(question, `${entityName} has no attribute ${name}`);
  return attribute;
}

/**
 * Reads without a creating write, writes nobody reads, unused entities: the hidden workload
 * has none of those writes or reads, so the answer is "no" (standalone), and an unused entity
 * is neither read nor removed (declined).
 */
function pairingFact(
  facts: DraftWorkload,
  question: Question,
  entity: string | undefined,
  missing: string | undefined,
): Fact {
  entityOf(facts, entity, question);
  if (missing === "create" || missing === "read") return choice("standalone");
  return decline;
}

function relationshipFact(
  facts: DraftWorkload,
  question: Question,
  parent: string,
  child: string,
  field: string | undefined,
): Fact {
  const relationship = relationshipOf(facts, parent, child);
  const via = question.fills?.change.via;
  if (field === "exists") {
    // A relationship the session inferred from an attribute's name: it exists when the hidden
    // workload links the two through that attribute.
    const same =
      relationship !== undefined &&
      (via === undefined || JSON.stringify(relationship.via ?? []) === JSON.stringify([via]));
    if (!same || relationship.kind === "many-to-many") return choice("none");
    return choice(relationship.kind ?? "one-to-many");
  }
  if (field === "kind") return choice(relationship?.kind ?? "none");
  if (relationship === undefined)
    throw new UnanswerableQuestion(question, `the application has no relationship ${parent} -> ${child}`);
  if (field === "via") {
    const via = nameForm(relationship.via);
    return valueOrDecline(typeof via === "string" || via === undefined ? via : [...via]);
  }
  if (field === "avg") return value(relationship.avg);
  if (field === "max") return relationship.max === null ? choice("unbounded") : value(relationship.max);
  if (field === "owned") return choice(relationship.owned === true ? "owned" : "independent");
  throw new UnanswerableQuestion(question, "no rule for this relationship question");
}

function massiveScaleFact(
  facts: DraftWorkload,
  question: Question,
  subject: string | undefined,
  topic: string | undefined,
): Fact {
  if (topic === "binning") {
    const binning = entityOf(facts, subject, question).binning;
    if (binning === undefined) return decline;
    if (binning === false) return choice("never");
    if (binning.windowSeconds !== undefined) return value(binning.windowSeconds);
    // grouped by count: the question's why says how ({ "recordsPerItem": N })
    return {
      kind: "changes",
      changes: [{ kind: "update-entity", name: subject ?? "", binning }],
    };
  }
  const pattern = patternOf(facts, subject, question);
  if (topic === "buffering") return valueOrDecline(pattern.bufferedRecords);
  if (topic === "staleness") return valueOrDecline(pattern.maxStalenessSeconds);
  throw new UnanswerableQuestion(question, "no rule for this massive-scale question");
}

function designFact(facts: DraftWorkload, question: Question, topic: string | undefined): Fact {
  const patterns = facts.accessPatterns;
  if (topic === "latency") {
    const targets = [...new Set(patterns.flatMap((p) => (p.latencyMs === undefined ? [] : [p.latencyMs])))];
    if (targets.length === 0) return decline;
    return {
      kind: "changes",
      changes: targets.map((latencyMs) => ({
        kind: "set-latency-target",
        latencyMs,
        patterns: patterns.filter((p) => p.latencyMs === latencyMs).map((p) => p.id),
      })),
    };
  }
  if (topic === "sparse-attributes") {
    const preset = question.answer.kind === "choice" ? questionChoices(question) : [];
    const candidates = preset.flatMap((c) => {
      const attributes = c.form?.preset.attributes;
      return Array.isArray(attributes) ? (attributes as unknown[]).map(String) : [];
    });
    const sparse = facts.entities.flatMap((entity) =>
      entity.attributes
        .filter((a) => a.presence !== undefined && candidates.includes(`${entity.name}.${a.name}`))
        .map((a): Change => ({
          kind: "set-attribute",
          entity: entity.name,
          name: a.name,
          presence: a.presence,
        })),
    );
    return sparse.length === 0 ? choice("none") : choice("some", sparse);
  }
  if (topic === "atomic-writes") {
    const atomic = patterns.flatMap((p): Change[] =>
      p.atomicWith === undefined
        ? []
        : [{ kind: "update-access-pattern", id: p.id, atomicWith: [...p.atomicWith] }],
    );
    return atomic.length === 0 ? choice("none") : choice("some", atomic);
  }
  throw new UnanswerableQuestion(question, "no rule for this design question");
}

/** Consistency, regions and multi-region writes as the hidden workload loads them (its defaults included). */
function distributionFact(facts: DraftWorkload, topic: string | undefined): Fact {
  const scale = facts.scale;
  if (topic === "consistency") return choice(scale.consistency ?? "session");
  if (topic === "regions") return value(scale.regions ?? 1);
  if (topic === "horizon") return valueOrDecline(scale.horizonMonths);
  return choice(scale.multiRegionWrites === true ? "multi" : "single");
}

/** What one turn's answers were, beyond the changes: the required questions declined for lack of a fact. */
export interface AnsweredTurn {
  readonly changes: readonly Change[];
  /** Non-optional questions the hidden workload had no fact for (declined all the same). */
  readonly declinedRequired: readonly string[];
}

/**
 * The changes answering a turn's questions: every question answered from `facts`, the answers
 * that fill one change merged into it, a choice's changes and form, `alsoChanges` once, and
 * the parts a choice skips left out. Throws {@link UnanswerableQuestion}.
 */
export function answerQuestions(facts: DraftWorkload, questions: readonly Question[]): AnsweredTurn {
  const changes: Change[] = [];
  const declinedRequired: string[] = [];
  const merged = new Map<string, Record<string, unknown>>();
  const skipped = new Set<string>();
  const fill = (question: Question, values: Readonly<Record<string, unknown>>): void => {
    if (question.fills === undefined) throw new UnanswerableQuestion(question, "it fills no change");
    const key = JSON.stringify(question.fills.change);
    let change = merged.get(key);
    if (change === undefined) {
      change = structuredClone({ ...question.fills.change }) as Record<string, unknown>;
      merged.set(key, change);
      changes.push(change as Change);
    }
    for (const [field, v] of Object.entries(values)) setField(change, field, v);
  };
  const push = (change: Change): void => {
    if (!changes.some((c) => JSON.stringify(c) === JSON.stringify(change))) changes.push(change);
  };
  for (const question of questions) {
    if (skipped.has(question.id)) continue;
    const fact = factFor(facts, question);
    switch (fact.kind) {
      case "decline":
        if (!question.optional) declinedRequired.push(question.id);
        changes.push({ kind: "decline-question", question: question.id });
        continue;
      case "changes":
        changes.push(...fact.changes);
        break;
      case "value":
        fill(question, { [question.fills?.field ?? ""]: fact.value });
        break;
      case "choice": {
        const chosen = questionChoices(question).find((c) => c.value === fact.value);
        if (chosen === undefined)
          throw new UnanswerableQuestion(question, `it offers no choice ${fact.value}`);
        changes.push(...chosen.changes, ...(fact.form ?? []));
        if (chosen.sets !== undefined) fill(question, chosen.sets);
        for (const id of chosen.skips ?? []) skipped.add(id);
        break;
      }
      default:
        fact satisfies never;
    }
    for (const also of question.alsoChanges ?? []) push(also);
  }
  return { changes, declinedRequired };
}

/** One update-requirements call: the questions it answered and their groups. */
export interface InterviewTurn {
  readonly questions: readonly string[];
  /** Question groups of the turn (a question without a group is its own). */
  readonly groups: number;
  readonly changes: readonly Change[];
}

export type InterviewOutcome =
  | { readonly kind: "ready" }
  /** No open questions, but the data model cannot be written: the readiness reasons. */
  | { readonly kind: "dead-end"; readonly reasons: readonly string[] }
  /** The session refused the answerer's changes (the server's instructions did not work). */
  | { readonly kind: "refused"; readonly problems: readonly string[] }
  /** A question the hidden workload has no rule or fact for. */
  | { readonly kind: "unanswerable"; readonly question: string; readonly why: string }
  /** Still asking after `maxTurns` calls. */
  | { readonly kind: "too-long" };

export interface InterviewRun {
  readonly outcome: InterviewOutcome;
  /** Every update-requirements call, in order. */
  readonly turns: readonly InterviewTurn[];
  readonly state: SessionState;
  readonly readiness: Readiness;
  /** Non-optional questions declined because the hidden workload has no such fact. */
  readonly declinedRequired: readonly string[];
}

/** The session as the session file stores it and the next call reads it back. */
function roundTrip(state: SessionState): SessionState {
  const read = sessionFromJson(JSON.parse(JSON.stringify(sessionToJson(state))) as unknown);
  if (!read.ok) throw new Error(`the session file does not read back: ${JSON.stringify(read.issues)}`);
  return read.value;
}

/**
 * Runs the interview for a hidden application: asks, answers strictly, applies, until the
 * session has no questions (ready or a dead end), refuses an answer, asks something the
 * answerer cannot answer, or `maxTurns` calls are spent.
 */
export function runStrictInterview(
  document: WorkloadDocument,
  options: { readonly maxTurns?: number } = {},
): InterviewRun {
  const facts = hiddenFacts(document);
  const maxTurns = options.maxTurns ?? 40;
  const turns: InterviewTurn[] = [];
  const declinedRequired: string[] = [];
  let state = createSession();
  const finish = (outcome: InterviewOutcome): InterviewRun => ({
    outcome,
    turns,
    state,
    readiness: checkReadiness(state),
    declinedRequired,
  });
  for (;;) {
    const questions = nextQuestions(state);
    if (questions.length === 0) {
      const readiness = checkReadiness(state);
      return finish(readiness.ready ? { kind: "ready" } : { kind: "dead-end", reasons: readiness.reasons });
    }
    if (turns.length >= maxTurns) return finish({ kind: "too-long" });
    let answered: AnsweredTurn;
    try {
      answered = answerQuestions(facts, questions);
    } catch (error) {
      if (!(error instanceof UnanswerableQuestion)) throw error;
      return finish({ kind: "unanswerable", question: error.question.id, why: error.message });
    }
    declinedRequired.push(...answered.declinedRequired);
    turns.push({
      questions: questions.map((q) => q.id),
      groups: new Set(questions.map((q) => q.group?.id ?? q.id)).size,
      changes: answered.changes,
    });
    // update-requirements checks its input against the changes schema, then applies it
    const parsed = changesSchema.safeParse(answered.changes);
    if (!parsed.success)
      return finish({
        kind: "refused",
        problems: parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
      });
    const applied = applyChanges(state, parsed.data);
    if (!applied.ok)
      return finish({
        kind: "refused",
        problems: applied.issues.map((issue) => `${JSON.stringify(issue.path)}: ${issue.message}`),
      });
    state = roundTrip(applied.value.state);
  }
}

/** The most update-requirements calls an interview of 6 to 8 entities may take (issue 27). */
export const MAX_INTERVIEW_CALLS = 12;

/** The codes of a design's hard-limit errors (the evaluation's error issues), once each, sorted. */
export function hardLimitCodes(workload: Workload): readonly string[] {
  // The horizon decision (the model at 3x and 10x) is left out: it does not change which limits
  // the chosen model breaks, and it would triple the time of each design.
  const designed = designModel(workload, { horizon: false });
  return [
    ...new Set(designed.evaluation.issues.filter((issue) => issue.severity === "error").map((i) => i.code)),
  ].sort();
}

/**
 * What is wrong with the strict interview of `document`, in words (empty when nothing is): it
 * ends in a dead end or otherwise before the data model may be written, takes more than
 * `maxCalls` update-requirements calls, asks more than MAX_QUESTIONS_PER_TURN groups in a turn,
 * or (with `design`) its workload's design breaks a hard limit the hidden workload's design
 * does not (the interview lost a fact that matters).
 */
export function strictInterviewFailures(
  document: WorkloadDocument,
  options: { readonly design?: boolean; readonly maxCalls?: number } = {},
): string[] {
  const maxCalls = options.maxCalls ?? MAX_INTERVIEW_CALLS;
  const run = runStrictInterview(document, { maxTurns: Math.max(40, maxCalls + 1) });
  const failures: string[] = [];
  const outcome = run.outcome;
  switch (outcome.kind) {
    case "ready":
      break;
    case "dead-end":
      failures.push(
        `dead end: no open questions, but the data model cannot be written yet: ${outcome.reasons.join("; ")}`,
      );
      break;
    case "refused":
      failures.push(
        `the session refused the answers the questions asked for: ${outcome.problems.join("; ")}`,
      );
      break;
    case "unanswerable":
      failures.push(`unexpected question: ${outcome.why}`);
      break;
    case "too-long":
      failures.push(`still asking after ${run.turns.length} calls`);
      break;
    default:
      outcome satisfies never;
  }
  if (run.turns.length > maxCalls)
    failures.push(
      `${run.turns.length} update-requirements calls (at most ${maxCalls}): ${run.turns.map((t) => t.questions.join(",")).join(" | ")}`,
    );
  for (const [index, turn] of run.turns.entries())
    if (turn.groups > MAX_QUESTIONS_PER_TURN)
      failures.push(`call ${index + 1} asks ${turn.groups} question groups: ${turn.questions.join(", ")}`);
  if (options.design === true && run.readiness.workload !== undefined) {
    const interviewed = hardLimitCodes(run.readiness.workload);
    // the hidden workload is designed only when there is something to compare (a design each)
    const hidden = interviewed.length === 0 ? [] : hardLimitCodes(toWorkload(document));
    const lost = interviewed.filter((code) => !hidden.includes(code));
    if (lost.length > 0)
      failures.push(
        `the interviewed workload's design breaks ${lost.join(", ")}, the hidden workload's does not (it breaks ${hidden.join(", ") || "nothing"})`,
      );
  }
  return failures;
}
