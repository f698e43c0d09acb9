/**
 * The state of a modeling session: the workload being built, the estimates waiting for the
 * user's approval, the questions the user declined, and what the user confirmed. Plain
 * immutable data, serialisable as JSON (the session file); `applyChanges` is the only way to
 * move it forward.
 */
import { z } from "zod";
import {
  EMPTY_DRAFT,
  draftDocumentSchema,
  draftToDocument,
  parseDraftDocument,
  type DraftWorkload,
} from "./draft.js";
import { createIssueSink, type Result } from "../common/issues.js";
import { parseWithSchema, type SchemaCheckOptions } from "../source/schema-issues.js";
import { importRecordSchema, type ImportRecord } from "./import-record.js";

/**
 * A request rate estimated from business figures. It stays out of the workload until the user
 * accepts it: the tool never fills a rate in silently.
 */
export interface RateEstimate {
  readonly pattern: string;
  readonly dailyActiveUsers: number;
  readonly actionsPerUserPerDay: number;
  /** Peak-hour rate divided by the day's average rate. */
  readonly peakFactor: number;
  readonly avg: number;
  readonly peak: number;
  /** The arithmetic, one step a line, as shown to the user. */
  readonly arithmetic: readonly string[];
}

/** The user's answers to the three massive-scale questions of the expert prompt. */
export interface MassiveScaleAnswers {
  readonly binning?: string;
  readonly writeReduction?: string;
  readonly dataSizeFanOut?: string;
}

export interface SessionState {
  readonly version: 1;
  readonly workload: DraftWorkload;
  /** Patterns whose rate the user does not know yet (business figures will be asked). */
  readonly unknownRates: readonly string[];
  /** Estimates waiting for the user's acceptance, by pattern. */
  readonly estimates: readonly RateEstimate[];
  readonly massiveScale: MassiveScaleAnswers;
  /** Ids of questions the user chose not to answer; they are not asked again. */
  readonly declined: readonly string[];
  /** Business context in the user's words. */
  readonly notes: readonly string[];
  readonly confirmed: {
    /** The user said every read and write pattern is captured. */
    readonly accessPatternsComplete: boolean;
    /** The user confirmed consistency, regions and multi-region writes. */
    readonly distribution: boolean;
  };
  /** Answers applied so far (turns of the conversation). */
  readonly turn: number;
  /** Where the imported values came from, when the session started from `cosmos-modeler import`. */
  readonly imported?: ImportRecord;
}

/** A new session, optionally starting from an existing (possibly incomplete) workload. */
export function createSession(workload: DraftWorkload = EMPTY_DRAFT): SessionState {
  return {
    version: 1,
    workload,
    unknownRates: [],
    estimates: [],
    massiveScale: {},
    declined: [],
    notes: [],
    confirmed: { accessPatternsComplete: false, distribution: false },
    turn: 0,
  };
}

const estimateSchema = z.object({
  pattern: z.string(),
  dailyActiveUsers: z.number().positive(),
  actionsPerUserPerDay: z.number().positive(),
  peakFactor: z.number().min(1),
  avg: z.number().nonnegative(),
  peak: z.number().nonnegative(),
  arithmetic: z.array(z.string()),
});

const sessionFileSchema = z.object({
  version: z.literal(1),
  workload: draftDocumentSchema,
  unknownRates: z.array(z.string()),
  estimates: z.array(estimateSchema),
  massiveScale: z.object({
    binning: z.string().optional(),
    writeReduction: z.string().optional(),
    dataSizeFanOut: z.string().optional(),
  }),
  declined: z.array(z.string()),
  notes: z.array(z.string()),
  confirmed: z.object({ accessPatternsComplete: z.boolean(), distribution: z.boolean() }),
  turn: z.number().int().nonnegative(),
  imported: importRecordSchema.optional(),
});

/** The session as JSON-compatible data (the workload in the workload file's structure). */
export function sessionToJson(state: SessionState): Record<string, unknown> {
  return { ...state, workload: draftToDocument(state.workload, { exact: true }) };
}

/** A session file's schema problems, all under one code. */
const SESSION_FILE_SCHEMA: SchemaCheckOptions = {
  codes: {
    unknownField: "session.invalidSessionFile",
    missingField: "session.invalidSessionFile",
    invalidValue: "session.invalidSessionFile",
  },
};

/** Reads a session back from `sessionToJson` output; every problem is reported. */
export function sessionFromJson(value: unknown, file?: string): Result<SessionState> {
  const sink = createIssueSink(file === undefined ? {} : { file });
  const data = parseWithSchema(sessionFileSchema, value, [], sink, SESSION_FILE_SCHEMA);
  if (data === undefined) return { ok: false, issues: sink.issues() };
  const workload = parseDraftDocument(data.workload, file, { exact: true });
  if (!workload.ok) return workload;
  const state: SessionState = {
    version: 1,
    workload: workload.value,
    unknownRates: data.unknownRates,
    estimates: data.estimates,
    massiveScale: Object.fromEntries(
      Object.entries(data.massiveScale).filter(([, v]) => v !== undefined),
    ) as MassiveScaleAnswers,
    declined: data.declined,
    notes: data.notes,
    confirmed: data.confirmed,
    turn: data.turn,
    ...(data.imported === undefined ? {} : { imported: data.imported }),
  };
  return { ok: true, value: state, issues: [] };
}
