/**
 * `cosmosdb_requirements.md` during an interview. Once the draft is a valid workload, the full
 * requirements document of `render/requirements.ts` is used; before that, a partial document in
 * the same template shows what is known and marks what is not. Both end with the interview's
 * status: estimates awaiting the user's answer (with their arithmetic), the massive-scale answers,
 * the session checklist and the next questions. User text is escaped everywhere.
 */
import {
  bulletList,
  escapeMarkdownText as e,
  escapeTableCell as cell,
  formatBytes,
  formatNumber,
  table,
} from "../render/markdown.js";
import { formatPath } from "../common/issues.js";
import { renderRequirements, SEARCH_READ_COLUMNS } from "../render/requirements.js";
import { DEFAULT_SEARCH_TERMS } from "../workload/load-workload.js";
import { describeRelationship, formatNames } from "./describe-changes.js";
import { checkReadiness, requirementsState, type Readiness } from "./checklist.js";
import type { DraftAccessPattern, DraftWorkload } from "./draft.js";
import { massiveScaleReason, massiveWrites } from "./gaps.js";
import { nextQuestions } from "./next-questions.js";
import { groupQuestions } from "./questions.js";
import { currentValue, formatFieldPath } from "./import-record.js";
import type { SessionState } from "./state.js";

/** The requirements document for the session's current state. */
export function renderSessionRequirements(
  state: SessionState,
  readiness: Readiness = checkReadiness(state),
): string {
  const body =
    readiness.workload === undefined
      ? renderDraftRequirements(state.workload)
      : renderRequirements(readiness.workload, requirementsState(state)).trimEnd();
  // A ready workload's requirements have their search section (render/requirements.ts).
  const search = readiness.workload === undefined ? renderSearch(state.workload) : undefined;
  return `${body}\n\n${search === undefined ? "" : `${search}\n\n`}${renderInterviewStatus(state, readiness)}\n`;
}

/**
 * The vector and full-text attributes and the search reads (issue 31), with what is still to be
 * asked; undefined when the workload searches nothing.
 */
export function renderSearch(draft: DraftWorkload): string | undefined {
  const attributes = draft.entities.flatMap((entity) =>
    entity.attributes.flatMap((attribute) => {
      const name = cell(`${entity.name}.${attribute.name}`);
      if (attribute.vector !== undefined) {
        const { dimensions, dataType, distance } = attribute.vector;
        return [
          [
            name,
            "vector",
            cell(
              `${formatNumber(dimensions)} dimensions, ${dataType ?? "float32"}, ${distance ?? "cosine"} distance`,
            ),
          ],
        ];
      }
      if (attribute.fullText !== undefined)
        return [[name, "full text", cell(`language ${attribute.fullText.language ?? "en-US"}`)]];
      return [];
    }),
  );
  const searches = draft.accessPatterns.filter((p) => p.type === "read" && p.search !== undefined);
  if (attributes.length === 0 && searches.length === 0) return undefined;
  const rows = searches.map((pattern) => {
    const search = pattern.search ?? {};
    const kind =
      search.nearest !== undefined && search.fullText !== undefined
        ? "hybrid (RRF)"
        : search.nearest !== undefined
          ? "vector"
          : "full text";
    const over = [search.nearest, search.fullText].filter((a) => a !== undefined).join(" + ");
    const filters = Object.entries(pattern.where ?? {}).map(([name, op]) => `${name} ${op}`);
    return [
      cell(pattern.id),
      cell(pattern.name),
      kind,
      cell(`${pattern.entity}.${over}`),
      search.k === undefined ? "_unknown_" : formatNumber(search.k),
      search.nearest === undefined
        ? "n/a"
        : search.recall === undefined
          ? "_unknown_"
          : String(search.recall),
      search.fullText === undefined ? "n/a" : String(search.terms ?? DEFAULT_SEARCH_TERMS),
      filters.length === 0 ? "none (every item)" : cell(filters.join(", ")),
      rateCell(pattern),
    ];
  });
  return [
    "## Vector and Full-Text Search",
    attributes.length === 0
      ? "No vector or full-text attributes yet."
      : table(["Attribute", "Search", "Settings"], attributes),
    rows.length === 0 ? "No search reads yet." : table(SEARCH_READ_COLUMNS, rows),
  ].join("\n\n");
}

function renderDraftRequirements(draft: DraftWorkload): string {
  const unknown = "_unknown_";
  const entities = draft.entities.map((entity) => {
    const facts = [
      entity.key === undefined ? `key ${unknown}` : `key ${e(formatNames(entity.key))}`,
      entity.count === undefined ? `count ${unknown}` : `${formatNumber(entity.count)} items`,
      entity.avgBytes === undefined ? `size ${unknown}` : `${formatBytes(entity.avgBytes)} on average`,
      entity.growthPerMonth === undefined ? undefined : `+${formatNumber(entity.growthPerMonth)}/month`,
    ].filter((fact) => fact !== undefined);
    return `${e(entity.name)} (${facts.join(", ")})`;
  });
  const scale = draft.scale;
  const overview = bulletList([
    `**Domain**: ${draft.domain === undefined ? unknown : e(draft.domain)}`,
    `**Key Entities**: ${entities.length === 0 ? unknown : entities.join("; ")}`,
    `**Business Context**: ${draft.description === undefined ? unknown : e(draft.description)}`,
    `**Geographic Distribution**: ${scale.regions === undefined ? "regions not confirmed" : `${scale.regions} region(s)`}${
      scale.regionNames === undefined ? "" : ` (${scale.regionNames.map(e).join(", ")})`
    }; ${scale.multiRegionWrites === true ? "multi-region writes" : scale.multiRegionWrites === false ? "single write region" : "write regions not confirmed"}; consistency ${scale.consistency === undefined ? "not confirmed" : e(scale.consistency)}`,
  ]);
  const rows = draft.accessPatterns.map((pattern) => [
    cell(pattern.id),
    cell(pattern.name),
    rateCell(pattern),
    pattern.type === "read" ? "Read" : `Write (${cell(pattern.operation ?? "?")})`,
    cell(`${pattern.entity}${attributesNeeded(pattern)}`),
    cell(keyRequirements(pattern)),
    pattern.rps?.avg !== undefined && pattern.rps.peak !== undefined ? "✅" : "⏳",
  ]);
  const relationships = draft.relationships.map((r) => e(describeRelationship(r)));
  return [
    `# Azure Cosmos DB NoSQL Modeling Session: ${e(draft.name ?? "(unnamed application)")}`,
    "> Generated by cosmos-modeler during the interview. The workload is still incomplete: values marked unknown are asked next, never guessed.",
    "## Application Overview",
    overview,
    "## Access Patterns Analysis",
    rows.length === 0
      ? "No access patterns yet."
      : table(
          [
            "Pattern #",
            "Description",
            "RPS (Peak and Average)",
            "Type",
            "Attributes Needed",
            "Key Requirements",
            "Status",
          ],
          rows,
        ),
    "## Entity Relationships Deep Dive",
    relationships.length === 0 ? "No relationships yet." : bulletList(relationships),
  ].join("\n\n");
}

function rateCell(pattern: DraftAccessPattern): string {
  const { avg, peak } = pattern.rps ?? {};
  const part = (value: number | undefined): string => (value === undefined ? "?" : formatNumber(value, 2));
  if (avg === undefined && peak === undefined) return "unknown";
  return `peak ${part(peak)}, avg ${part(avg)} RPS`;
}

function attributesNeeded(pattern: DraftAccessPattern): string {
  const where = Object.entries(pattern.where ?? {}).map(([name, op]) => `${name} ${op}`);
  return where.length === 0 ? "" : ` where ${where.join(", ")}`;
}

function keyRequirements(pattern: DraftAccessPattern): string {
  return [
    pattern.latencyMs === undefined ? undefined : `<${pattern.latencyMs} ms`,
    pattern.consistency === undefined ? undefined : `${pattern.consistency} consistency`,
    pattern.limit === undefined ? undefined : `at most ${pattern.limit} items`,
    pattern.search === undefined
      ? undefined
      : `search ${[pattern.search.nearest, pattern.search.fullText].filter((a) => a !== undefined).join(" + ")}, k ${pattern.search.k ?? "?"}`,
  ]
    .filter((part) => part !== undefined)
    .join(", ");
}

function renderInterviewStatus(state: SessionState, readiness: Readiness): string {
  const sections: string[] = ["## Interview Status"];
  if (state.estimates.length > 0) {
    sections.push(
      "### Rate Estimates Awaiting Your Confirmation",
      "These rates are estimated from your business figures and are not used until you accept them.",
      ...state.estimates.map(
        (estimate) => `- **${e(estimate.pattern)}**: ${estimate.arithmetic.map(e).join("; ")}`,
      ),
    );
  }
  if (state.unknownRates.length > 0) {
    sections.push(`Rates to estimate from business figures: ${state.unknownRates.map(e).join(", ")}.`);
  }
  const massive = massiveWrites(state.workload);
  const answers = state.massiveScale;
  if (massive.length > 0 || Object.keys(answers).length > 0) {
    sections.push("### Massive Scale", ...renderMassiveScale(state, massive));
  }
  if (state.notes.length > 0) sections.push("### Business Context Notes", bulletList(state.notes.map(e)));
  if (state.imported !== undefined) sections.push(...renderImported(state));
  sections.push(
    "### Session Checklist",
    readiness.session
      .map((item) => `- [${item.done ? "x" : " "}] ${e(item.label)}: ${e(item.why)}`)
      .join("\n"),
  );
  const errors = readiness.issues.filter((issue) => issue.severity === "error");
  if (errors.length > 0) {
    sections.push(
      "### Still Missing in workload.yaml",
      bulletList(
        errors
          .slice(0, 20)
          .map(
            (issue) =>
              `${e(issue.path.length === 0 ? "(file)" : formatPath(issue.path))}: ${e(issue.message)}`,
          ),
      ),
    );
  }
  const questions = nextQuestions(state);
  sections.push(
    "### Next Questions",
    questions.length === 0
      ? readiness.ready
        ? "None: the requirements are complete and confirmed. The data model can be designed."
        : `None from the interview; open items: ${readiness.reasons.map(e).join("; ")}.`
      : groupQuestions(questions)
          .map(({ group, questions: parts }, index) =>
            group === undefined
              ? `${index + 1}. ${e(parts[0]?.text ?? "")}`
              : [`${index + 1}. ${e(group.text)}`, ...parts.map((part) => `   - ${e(part.text)}`)].join("\n"),
          )
          .join("\n"),
  );
  return sections.join("\n\n");
}

/** The massive-scale answers, as the workload fields that hold them (and older free-text answers). */
function renderMassiveScale(state: SessionState, massive: readonly DraftAccessPattern[]): string[] {
  const reason = massiveScaleReason(state.workload);
  const lines: string[] = [];
  for (const write of massive) {
    const entity = state.workload.entities.find((candidate) => candidate.name === write.entity);
    const binning = entity?.binning;
    const staleness = state.workload.accessPatterns.filter(
      (read) =>
        read.type === "read" &&
        read.maxStalenessSeconds !== undefined &&
        (read.with ?? []).some((w) => w.includes(write.entity)),
    );
    lines.push(
      `**${e(write.id)}** (${e(write.name)}, ${e(write.entity)}):`,
      bulletList([
        `**Binning**: ${binning === undefined ? "_not answered_" : binning === false ? "never (every record stays its own item)" : binning.windowSeconds !== undefined ? `one item per key and ${binning.windowSeconds} s window` : `${binning.recordsPerItem ?? 0} records per item`}`,
        `**Records the writer sends at once**: ${write.bufferedRecords === undefined ? "_not answered_" : String(write.bufferedRecords)}`,
        ...staleness.map(
          (read) => `**${e(read.id)} may return data** up to ${read.maxStalenessSeconds ?? 0} s old`,
        ),
      ]),
    );
  }
  const answers = state.massiveScale;
  const older = [
    answers.binning === undefined ? undefined : `Binning: ${e(answers.binning)}`,
    answers.writeReduction === undefined ? undefined : `Write reduction: ${e(answers.writeReduction)}`,
    answers.dataSizeFanOut === undefined ? undefined : `Data size and fan-out: ${e(answers.dataSizeFanOut)}`,
  ].filter((line) => line !== undefined);
  return [
    reason === undefined ? "The workload is not at massive scale any more." : `Massive scale: ${e(reason)}.`,
    ...lines,
    ...(older.length === 0 ? [] : ["Earlier answers in your words:", bulletList(older)]),
  ];
}

/** Where the imported values came from (and which the user changed since), and what was not imported. */
function renderImported(state: SessionState): string[] {
  const imported = state.imported;
  if (imported === undefined) return [];
  const rows = imported.facts.map((fact) => {
    const now = currentValue(state.workload, fact.path);
    const status =
      now === undefined
        ? "removed"
        : JSON.stringify(now) === JSON.stringify(fact.value)
          ? "as imported"
          : `changed to ${String(typeof now === "object" ? JSON.stringify(now) : now)}`;
    return [cell(formatFieldPath(fact.path)), cell(String(fact.value)), cell(fact.source), cell(status)];
  });
  const sections = [
    `### Imported From ${e(imported.source)}`,
    bulletList(imported.notes.map(e)),
    rows.length === 0 ? "No values were imported." : table(["Value", "Imported", "Source", "Now"], rows),
  ];
  if (imported.unmapped.length > 0) {
    sections.push(
      "### Not Imported: For You To Review",
      "The import could not express these in the workload; decide what each becomes (an access pattern, application logic, a change feed handler) and add it in the interview.",
      table(
        ["Kind", "Name", "What", "Why"],
        imported.unmapped.map((item) => [
          cell(item.kind),
          cell(item.name),
          cell(item.detail),
          cell(item.reason),
        ]),
      ),
    );
  }
  return sections;
}
