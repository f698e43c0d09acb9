/**
 * The consistency check of issue 18: render `cosmosdb_requirements.md` and
 * `cosmosdb_data_model.md`, read them back (tables, lists and status lines, through a Markdown
 * lexer) and compare every statement with the fact it must come from: each relationship's
 * classification (the aggregate analysis, the design's decisions), each limit status and figure
 * (the evaluation's limit checks), each index claim (decided again here, independently, from the
 * indexes the document lists), each number to its displayed precision, and no decision twice.
 * Returns the contradictions found, in words; an empty list is a consistent pair of documents.
 */
import { analyzeAccessCorrelation, type PairAnalysis } from "../analysis/aggregate-analysis.js";
import { hotPartitionRisks } from "../analysis/design-considerations.js";
import type { LimitStatus } from "../cosmos/limits.js";
import type { ContainerEvaluation, Evaluation, LimitCheck } from "../cost/evaluation-types.js";
import type { Decision } from "../design/search.js";
import type { Model } from "../model/types.js";
import type { QueryStep } from "../planner/types.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import {
  FIGURE,
  figureMatches,
  listItems,
  percentMatches,
  plain,
  section,
  sectionsOf,
  tableRows,
  usdMatches,
  type Section,
} from "./document-numbers.js";

export interface ConsistencyInput {
  readonly workload: Workload;
  readonly model: Model;
  readonly evaluation: Evaluation;
  readonly decisions: readonly Decision[];
  readonly requirements: string;
  readonly dataModel: string;
}

/** The marks a document prints for a status, and the status each stands for. */
const MARKS: readonly (readonly [string, LimitStatus])[] = [
  ["✅", "ok"],
  ["⚠️ near the limit", "near"],
  ["❌ over the limit", "over"],
];
const MARK = String.raw`(✅|⚠️ near the limit|❌ over the limit)`;

function statusOfMark(mark: string | undefined): LimitStatus | undefined {
  return MARKS.find(([text]) => text === mark)?.[1];
}

/** Every contradiction between the two documents and the facts they are rendered from. */
export function documentContradictions(input: ConsistencyInput): string[] {
  const pairs = analyzeAccessCorrelation(input.workload);
  const requirements = sectionsOf(input.requirements);
  const dataModel = sectionsOf(input.dataModel);
  return [
    ...textProblems("cosmosdb_requirements.md", input.requirements),
    ...textProblems("cosmosdb_data_model.md", input.dataModel),
    ...requirementsClassifications(requirements, pairs),
    ...requirementsFigures(requirements, input.workload),
    ...dataModelClassifications(dataModel, pairs, input),
    ...hotPartitionStatuses(dataModel, input.evaluation),
    ...validationStatuses(dataModel, input.evaluation),
    ...patternFigures(dataModel, input),
    ...indexClaims(dataModel, input),
    ...costFigures(dataModel, input.evaluation),
    ...printedTotals(dataModel, input.evaluation),
    ...decisionsOnce(dataModel, input.decisions),
    ...decisionsAgainstAlternatives(input.decisions),
  ];
}

// ---------------------------------------------------------------------------------------------
// Whole documents

/**
 * No HTML entity in Markdown text, no dollar amount without thousands separators, and no internal
 * code or 0-based index path (`evaluate.fanOutCannotScale at accessPatterns[9]`) in prose: a
 * reader knows patterns by their ids. The findings table's Code column (`` `evaluate.fanOut` ``,
 * in backticks) names codes on purpose.
 */
function textProblems(file: string, markdown: string): string[] {
  const problems: string[] = [];
  const prose = markdown.replace(/`[^`\n]*`/g, "");
  const internal = /\bevaluate\.[a-z][A-Za-z]+|\baccessPatterns\\?\[\d+/.exec(prose);
  if (internal !== null) problems.push(`${file}: internal code or index path in prose: ${internal[0]}`);
  const entity = /&(quot|amp|lt|gt|#39|#\d+);/.exec(markdown);
  if (entity !== null) problems.push(`${file}: HTML entity ${entity[0]} in Markdown text`);
  const amount = /\$\d{4,}/.exec(markdown);
  if (amount !== null) problems.push(`${file}: dollar amount without thousands separators: ${amount[0]}`);
  return problems;
}

const yesNo = (value: boolean): string => (value ? "Yes" : "No");

// ---------------------------------------------------------------------------------------------
// Requirements: relationships

function requirementsClassifications(sections: readonly Section[], pairs: readonly PairAnalysis[]): string[] {
  const problems: string[] = [];
  const where = "cosmosdb_requirements.md";
  // Relationship bullets: the classification after the ownership.
  const bullets =
    pairs.length === 0 ? [] : listItems(section(sections, "Entity Relationships Deep Dive").tokens);
  pairs.forEach((pair, index) => {
    const text = plain(bullets[index]?.text ?? "");
    const says = text.endsWith("; identifying relationship")
      ? true
      : text.endsWith("; not an identifying relationship")
        ? false
        : undefined;
    if (says !== pair.identifying.useIdentifyingRelationship)
      problems.push(
        `${where} relationships: ${pair.parent} → ${pair.child} says ${says === undefined ? "nothing" : says ? "identifying" : "not identifying"}, the check says ${yesNo(pair.identifying.useIdentifyingRelationship)}`,
      );
  });
  // Per pair: the check's reason and the decision.
  for (const pair of pairs) {
    const found = sections.find(
      (s) => s.heading === `${pair.parent} + ${pair.child} Container Item Analysis`,
    );
    const items = found === undefined ? [] : listItems(found.tokens).map((i) => plain(i.text));
    const why = items.find((t) => t.startsWith("Identifying Relationship: "));
    if (why !== `Identifying Relationship: ${pair.identifying.why}`)
      problems.push(
        `${where} ${pair.parent} + ${pair.child}: identifying reason "${why}" is not the check's`,
      );
  }
  // The identifying relationship check table.
  if (pairs.length > 0) {
    const rows = tableRows(section(sections, "Identifying Relationship Check").tokens);
    pairs.forEach((pair, index) => {
      const cells = (rows[index]?.cells ?? []).map(plain);
      const check = pair.identifying;
      const expected = [
        `${pair.parent} → ${pair.child}`,
        yesNo(check.childIndependent),
        yesNo(check.alwaysQueriedWithParentKey),
        yesNo(check.crossPartitionIfSeparate),
        check.useIdentifyingRelationship ? "✅ Yes" : "No",
      ];
      if (expected.some((cell, i) => cells[i] !== cell))
        problems.push(
          `${where} identifying check row ${index + 1}: ${JSON.stringify(cells.slice(0, 5))}, expected ${JSON.stringify(expected)}`,
        );
    });
    // The consolidation table: the decision, its reasons and the overlap.
    const review = tableRows(section(sections, "Consolidation Candidates Review").tokens);
    const symbols = {
      consolidate: "✅ Consolidate",
      separate: "❌ Separate",
      "compare-costs": "⚖️ Compare costs",
    };
    pairs.forEach((pair, index) => {
      const cells = (review[index]?.cells ?? []).map(plain);
      const label = `${where} consolidation ${pair.parent} + ${pair.child}`;
      if (cells[4] !== symbols[pair.recommendation.decision])
        problems.push(`${label}: "${cells[4]}" for ${pair.recommendation.decision}`);
      const reasons = (cells[5] ?? "").split("; ");
      if (reasons.includes("identifying relationship") && !pair.identifying.useIdentifyingRelationship)
        problems.push(`${label}: a reason says "identifying relationship", the check says No`);
      if (pair.recommendation.decision === "consolidate" && !pair.identifying.useIdentifyingRelationship)
        problems.push(`${label}: consolidated although the relationship is not identifying`);
      const overlap = /^(\S+) \(peak (\S+)\)$/.exec(cells[3] ?? "");
      if (
        overlap === null ||
        !percentMatches(overlap[1] ?? "", pair.byAverage.both) ||
        !percentMatches(overlap[2] ?? "", pair.byPeak.both)
      )
        problems.push(
          `${label}: overlap "${cells[3]}" is not ${pair.byAverage.both} (peak ${pair.byPeak.both})`,
        );
    });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Requirements: rates and hot key candidates

function requirementsFigures(sections: readonly Section[], workload: Workload): string[] {
  const problems: string[] = [];
  const where = "cosmosdb_requirements.md";
  const rows = tableRows(section(sections, "Access Patterns Analysis").tokens);
  workload.accessPatterns.forEach((pattern, index) => {
    const cell = plain(rows[index]?.cells[2] ?? "");
    const rates = new RegExp(`^(${FIGURE}) avg / (${FIGURE}) peak$`).exec(cell);
    if (
      rates === null ||
      !figureMatches(rates[1] ?? "", pattern.rps.avg) ||
      !figureMatches(rates[2] ?? "", pattern.rps.peak)
    )
      problems.push(
        `${where} ${pattern.id}: rates "${cell}" are not ${pattern.rps.avg} / ${pattern.rps.peak}`,
      );
  });
  const risks = hotPartitionRisks(workload);
  const riskRows =
    risks.length === 0
      ? []
      : tableRows(section(sections, "Design Considerations (Subject to Change)").tokens);
  const candidates = riskRows.filter((row) => row.header[0] === "Candidate key");
  risks.forEach((risk, index) => {
    const cells = candidates[index]?.cells.map(plain) ?? [];
    const concern = cells[7] ?? "";
    const label = `${where} hot key candidate ${risk.entity}.${risk.attribute}`;
    if (!figureMatches(cells[6] ?? "", risk.minRus))
      problems.push(`${label}: least RU/s "${cells[6]}" is not ${risk.minRus}`);
    const shown: LimitStatus = concern.includes("❌ over the limit")
      ? "over"
      : concern.includes("⚠️ near the limit")
        ? "near"
        : "ok";
    if (shown !== risk.partitionRusStatus)
      problems.push(`${label}: shows ${shown}, the analysis says ${risk.partitionRusStatus}`);
    if (concern === "✅" && (risk.lowCardinality || risk.partitionRusStatus !== "ok"))
      problems.push(`${label}: ✅ with a concern`);
  });
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Data model: relationships

function dataModelClassifications(
  sections: readonly Section[],
  pairs: readonly PairAnalysis[],
  input: ConsistencyInput,
): string[] {
  const problems: string[] = [];
  const where = "cosmosdb_data_model.md";
  const rows = pairs.length === 0 ? [] : tableRows(section(sections, "Aggregate Design Decisions").tokens);
  pairs.forEach((pair, index) => {
    const cells = (rows[index]?.cells ?? []).map(plain);
    const label = `${where} aggregate table ${pair.parent} + ${pair.child}`;
    if (cells[0] !== `${pair.parent} + ${pair.child}`)
      problems.push(`${label}: row ${index + 1} is "${cells[0]}"`);
    if (!percentMatches(cells[2] ?? "", pair.correlation))
      problems.push(`${label}: correlation "${cells[2]}" is not ${pair.correlation}`);
    if (cells[3] !== (pair.identifying.useIdentifyingRelationship ? "yes" : "no"))
      problems.push(
        `${label}: identifying "${cells[3]}", the check says ${yesNo(pair.identifying.useIdentifyingRelationship)}`,
      );
    const recommendation = `${pair.recommendation.decision}${pair.recommendation.aggregate === undefined ? "" : ` (${pair.recommendation.aggregate})`}`;
    if (cells[4] !== recommendation)
      problems.push(`${label}: recommendation "${cells[4]}" is not ${recommendation}`);
    // What the model did, decided here from the containers (issue 29: "separate" beside a pair
    // held in one container): the Design cell says it, and says when it differs from the rule.
    const together = input.model.containers.some(
      (c) =>
        c.items.some(
          (i) =>
            i.source === undefined &&
            (i.entity === pair.parent || i.embeds.some((e) => e.entity === pair.parent)),
        ) &&
        c.items.some(
          (i) =>
            i.source === undefined &&
            (i.entity === pair.child || i.embeds.some((e) => e.entity === pair.child)),
        ),
    );
    const design = cells[7] ?? "";
    if (together === design.startsWith("separate containers"))
      problems.push(
        `${label}: design "${design}", but the pair is ${together ? "" : "not "}held in one container`,
      );
    const differs =
      (pair.recommendation.decision === "separate" && together) ||
      (pair.recommendation.decision === "consolidate" && !together);
    if (differs !== design.includes("differs from the rule"))
      problems.push(
        `${label}: design "${design}" ${differs ? "does not say it differs from" : "says it differs from"} the rule's ${pair.recommendation.decision}`,
      );
  });
  // The design's aggregate decisions: the same classification, in the subject and the reason.
  for (const decision of input.decisions) {
    if (decision.subject.kind !== "aggregate") continue;
    const { parent, child, identifying } = decision.subject;
    const pair = pairs.find((p) => p.parent === parent && p.child === child);
    if (pair === undefined) continue;
    if (identifying !== pair.identifying.useIdentifyingRelationship)
      problems.push(
        `decision ${decision.id}: identifying ${identifying}, the check says ${yesNo(pair.identifying.useIdentifyingRelationship)}`,
      );
    if (
      decision.why.includes(", an identifying relationship") !== pair.identifying.useIdentifyingRelationship
    )
      problems.push(`decision ${decision.id}: its reason and the identifying check disagree`);
  }
  // Partition key lines: each item type's figures and the relationship it is keyed by.
  for (const container of input.model.containers) {
    const found = sections.find((s) => s.heading === `${container.name} Container`);
    const line = plain(
      listItems(found?.tokens ?? []).find((i) => plain(i.text).startsWith("Partition Key: "))?.text ?? "",
    );
    const evaluated = input.evaluation.containers.find((c) => c.name === container.name);
    for (const item of container.items) {
      const figures = evaluated?.itemTypes.find((i) => i.type === item.type);
      const label = `${where} partition key of ${container.name}/${item.type}`;
      const match = new RegExp(
        `; ${escapeRegExp(item.type)}: (${FIGURE}) distinct key values for (${FIGURE}) items( \\((identifying relationship|partitioned by)[^;]*?\\))?`,
      ).exec(line);
      if (match === null || figures === undefined) {
        problems.push(`${label}: no figures`);
        continue;
      }
      if (!figureMatches(match[1] ?? "", figures.keyValues) || !figureMatches(match[2] ?? "", figures.items))
        problems.push(
          `${label}: "${match[0]}" is not ${figures.keyValues} key values, ${figures.items} items`,
        );
      const claim = match[4];
      const keyedBy = pairs.find(
        (p) =>
          p.child === item.entity &&
          p.relationship.via !== undefined &&
          p.relationship.via.every((via) =>
            item.partitionKey.some((t) => templateAttributesOf(t).includes(via)),
          ),
      );
      const expected =
        keyedBy === undefined
          ? undefined
          : keyedBy.identifying.useIdentifyingRelationship
            ? "identifying relationship"
            : "partitioned by";
      if (claim !== expected)
        problems.push(
          `${label}: says "${claim ?? "nothing"}" of its relationship, the check gives "${expected ?? "nothing"}"`,
        );
      if (claim === "partitioned by" && !(match[3] ?? "").includes("not an identifying relationship"))
        problems.push(`${label}: keyed by its parent without saying it is not identifying`);
    }
    if (evaluated !== undefined)
      problems.push(...statusClauses(`${where} partition key of ${container.name}`, line, evaluated));
  }
  return problems;
}

function templateAttributesOf(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? "");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// ---------------------------------------------------------------------------------------------
// Data model: limit statuses

/** `V unit (P% of L unit) MARK` against a limit check: figures to precision, the same status. */
function checkMatches(label: string, text: string | undefined, check: LimitCheck, unit: string): string[] {
  const match = new RegExp(`^(${FIGURE}) ${unit} \\((${FIGURE})% of (${FIGURE}) ${unit}\\) ${MARK}$`).exec(
    text ?? "",
  );
  if (match === null) return [`${label}: "${text}" is not a figure against its limit with a status`];
  const problems: string[] = [];
  if (!figureMatches(match[1] ?? "", check.value))
    problems.push(`${label}: "${match[1]}" is not ${check.value}`);
  if (!percentMatches(match[2] ?? "", check.share))
    problems.push(`${label}: "${match[2]}%" is not ${check.share}`);
  if (!figureMatches(match[3] ?? "", check.limit))
    problems.push(`${label}: limit "${match[3]}" is not ${check.limit}`);
  const shown = statusOfMark(match[4]);
  if (shown !== check.status) problems.push(`${label}: marked ${shown}, the evaluation says ${check.status}`);
  return problems;
}

/** The hottest/largest clauses of a partition key line or a hot partition line. */
function statusClauses(label: string, line: string, c: ContainerEvaluation): string[] {
  const hottest = new RegExp(
    `hottest logical partition .*? at (${FIGURE} RU/s \\(.+?\\) ${MARK}) at peak`,
  ).exec(line);
  const largest = new RegExp(
    `largest logical partition (${FIGURE} GB \\(.+?\\) ${MARK}) at the horizon`,
  ).exec(line);
  return [
    ...checkMatches(
      `${label}: hottest logical partition`,
      hottest?.[1],
      c.limits.hottestLogicalPartitionRus,
      "RU/s",
    ),
    ...checkMatches(
      `${label}: largest logical partition`,
      largest?.[1],
      c.limits.largestLogicalPartitionGB,
      "GB",
    ),
  ];
}

function hotPartitionStatuses(sections: readonly Section[], evaluation: Evaluation): string[] {
  const problems: string[] = [];
  const where = "cosmosdb_data_model.md hot partitions";
  const items = listItems(section(sections, "Hot Partition Analysis").tokens).map((i) => plain(i.text));
  for (const c of evaluation.containers) {
    const line = items.find((t) => t.startsWith(`${c.name}: `));
    if (line === undefined) {
      problems.push(`${where}: no line for ${c.name}`);
      continue;
    }
    problems.push(...statusClauses(`${where} ${c.name}`, line, c));
    const busiest = new RegExp(
      `busiest of (${FIGURE}) physical partition\\(s\\) at (${FIGURE} RU/s \\(.+?\\) ${MARK}) at peak`,
    ).exec(line);
    if (!figureMatches(busiest?.[1] ?? "", c.physicalPartitions))
      problems.push(
        `${where} ${c.name}: physical partitions "${busiest?.[1]}" is not ${c.physicalPartitions}`,
      );
    problems.push(
      ...checkMatches(
        `${where} ${c.name}: busiest physical partition`,
        busiest?.[2],
        c.limits.busiestPhysicalPartitionRus,
        "RU/s",
      ),
    );
    // A finding listed on the line is never next to ✅ for the limit it is about.
    const findings = evaluation.issues.filter((i) => "container" in i && i.container === c.name);
    const storage = c.limits.largestLogicalPartitionGB;
    if (findings.some((i) => i.code === "evaluate.logicalPartitionGrowth") && storage.status === "ok")
      problems.push(`${where} ${c.name}: a growth warning next to an ok storage status`);
    const growth = storage.growth;
    const soon = growth !== undefined && growth.hoursToLimit < growth.withinHours;
    const said = new RegExp(`would reach (${FIGURE}) GB after (${FIGURE}) hours of peak;`).exec(line);
    if (soon !== (said !== null))
      problems.push(`${where} ${c.name}: growth to 20 GB ${soon ? "not stated" : "stated without the fact"}`);
    if (soon && said !== null && !figureMatches(said[2] ?? "", growth.hoursToLimit))
      problems.push(`${where} ${c.name}: "${said[2]} hours" is not ${growth.hoursToLimit}`);
  }
  return problems;
}

/** The validation lines of the three partition limits: the worst status of the containers. */
function validationStatuses(sections: readonly Section[], evaluation: Evaluation): string[] {
  const problems: string[] = [];
  const items = listItems(section(sections, "Validation Results 🔴").tokens);
  const lines: readonly (readonly [string, (c: ContainerEvaluation) => LimitCheck])[] = [
    ["No logical partition over 10,000 RU/s", (c) => c.limits.hottestLogicalPartitionRus],
    ["No physical partition over 10,000 RU/s", (c) => c.limits.busiestPhysicalPartitionRus],
    ["No logical partition over 20 GB", (c) => c.limits.largestLogicalPartitionGB],
  ];
  for (const [start, pick] of lines) {
    const item = items.find((i) => plain(i.text).replace(/^\S+ /, "").startsWith(start));
    const statuses = evaluation.containers.map((c) => pick(c).status);
    const worst: LimitStatus = statuses.includes("over") ? "over" : statuses.includes("near") ? "near" : "ok";
    const expected = { ok: [true, "✅"], near: [true, "⚠️"], over: [false, "❌"] } as const;
    const [checked, mark] = expected[worst];
    if (item === undefined || item.checked !== checked || !item.text.startsWith(`${mark} `))
      problems.push(
        `cosmosdb_data_model.md validation "${start}": "${item?.checked === true ? "[x]" : "[ ]"} ${item?.text.slice(0, 40)}" for ${worst}`,
      );
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Data model: patterns, indexes, cost

function patternFigures(sections: readonly Section[], input: ConsistencyInput): string[] {
  const problems: string[] = [];
  const rows = tableRows(section(sections, "Solved Patterns").tokens);
  for (const pattern of input.workload.accessPatterns) {
    const row = rows.find((r) => plain(r.cells[0] ?? "") === pattern.id)?.cells.map(plain);
    const evaluated = input.evaluation.patterns.find((p) => p.id === pattern.id);
    const label = `cosmosdb_data_model.md mapping ${pattern.id}`;
    if (row === undefined || evaluated === undefined) {
      problems.push(`${label}: no row`);
      continue;
    }
    const rate = new RegExp(`^\\w+, (${FIGURE})/s avg, (${FIGURE})/s peak$`).exec(row[2] ?? "");
    if (
      rate === null ||
      !figureMatches(rate[1] ?? "", pattern.rps.avg) ||
      !figureMatches(rate[2] ?? "", pattern.rps.peak)
    )
      problems.push(`${label}: rate "${row[2]}" is not ${pattern.rps.avg}/${pattern.rps.peak}`);
    const ru = new RegExp(`^(${FIGURE}) RU \\((${FIGURE})-(${FIGURE})\\)`).exec(row[5] ?? "");
    if (
      ru === null ||
      !figureMatches(ru[1] ?? "", evaluated.ru.estimate) ||
      !figureMatches(ru[2] ?? "", evaluated.ru.low) ||
      !figureMatches(ru[3] ?? "", evaluated.ru.high)
    )
      problems.push(
        `${label}: RU "${row[5]}" is not ${evaluated.ru.estimate} (${evaluated.ru.low}-${evaluated.ru.high})`,
      );
    const rus = new RegExp(`^(${FIGURE}) RU/s avg, (${FIGURE}) RU/s peak`).exec(row[6] ?? "");
    if (
      rus === null ||
      !figureMatches(rus[1] ?? "", evaluated.rus.avg) ||
      !figureMatches(rus[2] ?? "", evaluated.rus.peak)
    )
      problems.push(`${label}: RU/s "${row[6]}" is not ${evaluated.rus.avg} / ${evaluated.rus.peak}`);
  }
  return problems;
}

/** The indexes a container's section lists: included paths and composite indexes. */
function listedIndexes(sections: readonly Section[], container: string) {
  const found = sections.find((s) => s.heading === `Indexing Strategy of ${container}`);
  const items = listItems(found?.tokens ?? []).map((i) => plain(i.text));
  const included = (items.find((t) => t.startsWith("Included Paths: ")) ?? "")
    .replace("Included Paths: ", "")
    .split(", ");
  const excluded = (items.find((t) => t.startsWith("Excluded Paths: ")) ?? "")
    .replace("Excluded Paths: ", "")
    .split(", ");
  const compositeText = (items.find((t) => t.startsWith("Composite Indexes: ")) ?? "").replace(
    "Composite Indexes: ",
    "",
  );
  const composite =
    compositeText === "none" || compositeText === ""
      ? []
      : compositeText.split("; ").map((c) =>
          c.split(" + ").map((p) => {
            const [path = "", order = ""] = p.split(" ");
            return { path, ascending: order === "ascending" };
          }),
        );
  return { included, excluded, composite };
}

/**
 * Whether the listed indexes serve a query's ORDER BY, decided here without the planner: one sort
 * path needs its path indexed; several, or equality filters besides the partition key's, a
 * composite index of equality-filtered paths (the item type's among them) then the sort paths in
 * order, all in the ORDER BY's directions or all inverted.
 */
function servedByListed(
  indexes: ReturnType<typeof listedIndexes>,
  pattern: ReadPattern,
  keyAttributes: readonly string[],
): boolean {
  const filtered = pattern.where.filter((p) => p.op === "eq").map((p) => p.attribute);
  const sorted = pattern.orderBy.map((o) => o.attribute);
  const required = filtered.filter((a) => !keyAttributes.includes(a) && !sorted.includes(a));
  // The generated query filters its item type by equality too: a composite may lead with /type.
  const equal = [...filtered, "type"];
  if (sorted.length === 1 && required.length === 0) {
    const path = `/${sorted[0] ?? ""}/?`;
    return (
      indexes.included.includes(path) || (indexes.included.includes("/*") && !indexes.excluded.includes(path))
    );
  }
  return indexes.composite.some((composite) => {
    const head = composite.slice(0, composite.length - sorted.length);
    const tail = composite.slice(composite.length - sorted.length);
    if (tail.length !== sorted.length || head.some((p) => !equal.includes(p.path.slice(1)))) return false;
    if (required.some((a) => !head.some((p) => p.path === `/${a}`))) return false;
    if (tail.some((p, i) => p.path !== `/${sorted[i] ?? ""}`)) return false;
    const same = tail.map((p, i) => p.ascending === (pattern.orderBy[i]?.direction === "asc"));
    return same.every(Boolean) || same.every((s) => !s);
  });
}

function indexClaims(sections: readonly Section[], input: ConsistencyInput): string[] {
  const problems: string[] = [];
  const rows = tableRows(section(sections, "Solved Patterns").tokens);
  for (const pattern of input.workload.accessPatterns) {
    if (pattern.type !== "read" || pattern.orderBy.length === 0) continue;
    const evaluated = input.evaluation.patterns.find((p) => p.id === pattern.id);
    const query = evaluated?.plan.operations[0];
    if (query?.kind !== "query") continue;
    const step: QueryStep = query;
    const item = input.model.containers
      .find((c) => c.name === step.container)
      ?.items.find((i) => i.type === step.itemType);
    if (item === undefined || item.bucket !== undefined || item.keepLatest !== undefined) continue;
    const keyAttributes = item.partitionKey.flatMap(templateAttributesOf);
    const served = servedByListed(listedIndexes(sections, step.container), pattern, keyAttributes);
    const label = `cosmosdb_data_model.md ${pattern.id} on ${step.container}`;
    if (served !== step.orderServedByIndex)
      problems.push(
        `${label}: the listed indexes ${served ? "serve" : "do not serve"} its ORDER BY, the plan says ${step.orderServedByIndex ? "served" : "not served"}`,
      );
    const notes = plain(rows.find((r) => plain(r.cells[0] ?? "") === pattern.id)?.cells[7] ?? "");
    const claimsNotServed = /ORDER BY .* is not served by an index/.test(notes);
    if (claimsNotServed && served)
      problems.push(`${label}: says its ORDER BY is not served next to an index that serves it`);
  }
  return problems;
}

function costFigures(sections: readonly Section[], evaluation: Evaluation): string[] {
  const problems: string[] = [];
  const rows = tableRows(section(sections, "Cost").tokens).filter((r) => r.header[1] === "Mode");
  for (const c of evaluation.containers) {
    const cells = rows.find((r) => plain(r.cells[0] ?? "") === c.name)?.cells.map(plain) ?? [];
    const label = `cosmosdb_data_model.md cost of ${c.name}`;
    if (!usdMatches(cells[5] ?? "", c.costBreakdown.throughputUSD))
      problems.push(`${label}: throughput "${cells[5]}"`);
    if (!usdMatches(cells[6] ?? "", c.costBreakdown.storageUSD))
      problems.push(`${label}: storage "${cells[6]}"`);
    if (!usdMatches(cells[7] ?? "", c.monthlyCostUSD))
      problems.push(`${label}: total "${cells[7]}" is not ${c.monthlyCostUSD}`);
    if (!figureMatches((cells[4] ?? "").replace(/ GB$/, ""), c.storageGB))
      problems.push(`${label}: storage "${cells[4]}" is not ${c.storageGB}`);
  }
  const total = rows.find((r) => plain(r.cells[0] ?? "") === "Total")?.cells.map(plain) ?? [];
  if (!usdMatches(total[7] ?? "", evaluation.totals.monthlyCostUSD))
    problems.push(
      `cosmosdb_data_model.md cost total "${total[7]}" is not ${evaluation.totals.monthlyCostUSD}`,
    );
  return problems;
}

/** Half a unit of a printed figure's last digit (`12.3` -> 0.05). */
function halfUnit(shown: string): number {
  const decimals = /\.(\d+)/.exec(shown)?.[1]?.length ?? 0;
  return 0.5 * 10 ** -decimals;
}

/** The printed figures of `pattern` (a regexp with one group) in each text, as numbers. */
function printed(texts: readonly string[], pattern: RegExp): { values: number[]; slack: number } {
  const shown = texts.map((t) => pattern.exec(t)?.[1] ?? "NaN");
  // `<0.0001` stands for a value between 0 and its bound.
  const bound = (v: string): number => Number(v.replace(/^</, "").replace(/,/g, ""));
  return {
    values: shown.map((v) => (v.startsWith("<") ? 0 : bound(v))),
    slack: shown.reduce((sum, v) => sum + (v.startsWith("<") ? bound(v) : halfUnit(v)), 0),
  };
}

/**
 * The printed totals add up as printed: the patterns' RU/s at peak to the cost table's load (the
 * patterns' figures are net of the change-feed updates summed per parent, which their rows
 * show), the containers' throughput and storage to the total row, the comparison table's account
 * row to the throughput billed, and the total's range to the evaluation's.
 */
function printedTotals(sections: readonly Section[], evaluation: Evaluation): string[] {
  const problems: string[] = [];
  const label = "cosmosdb_data_model.md totals";
  const cost = section(sections, "Cost");
  const costRows = tableRows(cost.tokens).filter((r) => r.header[1] === "Mode");
  const gatewayLabel = "Dedicated gateway (integrated cache)";
  const rows = costRows
    .filter((r) => plain(r.cells[0] ?? "") !== "Total" && plain(r.cells[0] ?? "") !== gatewayLabel)
    .map((r) => r.cells.map(plain));
  const gateway = costRows.find((r) => plain(r.cells[0] ?? "") === gatewayLabel)?.cells.map(plain);
  if ((gateway === undefined) !== (evaluation.integratedCache === undefined))
    problems.push(`${label}: the dedicated gateway's row and the evaluation's integrated cache disagree`);
  const total = costRows.find((r) => plain(r.cells[0] ?? "") === "Total")?.cells.map(plain) ?? [];
  const adds = (what: string, parts: { values: number[]; slack: number }, shown: string): void => {
    const sum = parts.values.reduce((a, b) => a + b, 0);
    const whole = Number(shown.replace(/[$,*]/g, "").replace(/ RU\/s$/, ""));
    if (!(Math.abs(sum - whole) <= parts.slack + halfUnit(shown) + 1e-9))
      problems.push(`${label}: ${what} add up to ${sum}, the document prints ${shown}`);
  };
  adds(
    "the containers' throughput",
    printed(
      rows.map((r) => r[5] ?? ""),
      /^\$([\d,.]+)$/,
    ),
    total[5] ?? "",
  );
  adds(
    "the containers' storage cost",
    printed(
      rows.map((r) => r[6] ?? ""),
      /^\$([\d,.]+)$/,
    ),
    total[6] ?? "",
  );
  adds(
    gateway === undefined ? "throughput and storage" : "throughput, storage and the dedicated gateway",
    printed(
      [total[5] ?? "", total[6] ?? "", ...(gateway === undefined ? [] : [gateway[7] ?? ""])],
      /^\$([\d,.]+)$/,
    ),
    total[7] ?? "",
  );
  const peakOf = /\/ (<?[\d,.]+) RU\/s$/;
  adds(
    "the containers' peak RU/s",
    printed(
      rows.map((r) => r[3] ?? ""),
      peakOf,
    ),
    peakOf.exec(total[3] ?? "")?.[1] ?? "",
  );
  const patternRows = tableRows(section(sections, "Solved Patterns").tokens).map((r) =>
    plain(r.cells[6] ?? ""),
  );
  adds(
    "the patterns' peak RU/s",
    printed(patternRows, /RU\/s avg, (<?[\d,.]+) RU\/s peak/),
    peakOf.exec(total[3] ?? "")?.[1] ?? "",
  );
  const account = tableRows(cost.tokens)
    .filter((r) => r.header[0] === "Container" && r.header[1] === "Manual")
    .find((r) => plain(r.cells[0] ?? "") === "Account")
    ?.cells.map(plain);
  if (account === undefined) problems.push(`${label}: no account row in the comparison of modes`);
  else adds("the throughput billed", printed([total[5] ?? ""], /^\$([\d,.]+)$/), account[5] ?? "");
  const { lowUSD, highUSD } = evaluation.totals.monthlyCostRange;
  const text = cost.tokens.map((t) => plain(t.raw)).join("");
  const range =
    /ranges from \$([\d,.]+) \(autoscale average-billed[^)]*\) to \$([\d,.]+) \(autoscale peak-billed/.exec(
      text,
    );
  if (
    highUSD - lowUSD > 0.005 &&
    (range === null || !usdMatches(range[1] ?? "", lowUSD) || !usdMatches(range[2] ?? "", highUSD))
  )
    problems.push(`${label}: the total's range is not printed as ${lowUSD} to ${highUSD}`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Decisions

/** No decision twice: in the design's list, or among the document's decision sections. */
function decisionsOnce(sections: readonly Section[], decisions: readonly Decision[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const decision of decisions) {
    const key = `${decision.subject.kind}|${decision.title}`;
    if (seen.has(key)) problems.push(`decision "${decision.title}" appears twice`);
    seen.add(key);
  }
  const ids = decisions.map((d) => d.id);
  if (new Set(ids).size !== ids.length) problems.push("two decisions share an id");
  for (const decision of decisions) {
    const headings = sections.filter((s) => s.depth === 3 && s.heading === decision.title).length;
    if (headings > 1)
      problems.push(`cosmosdb_data_model.md: "${decision.title}" is listed ${headings} times`);
  }
  return problems;
}

/**
 * A decision that calls its choice "the cheapest" has no cheaper alternative that works as well
 * (as many errors of a model that does not work, as many hard-limit errors), and one that chose a
 * dearer model says why ("is cheaper, but ...": issue 29, "the cheapest model that respects every
 * hard limit" beside a decision picking $91,612 over $90,808).
 */
function decisionsAgainstAlternatives(decisions: readonly Decision[]): string[] {
  const problems: string[] = [];
  for (const decision of decisions) {
    // The horizon decision lists scenarios of the same model (more data, more traffic), not options.
    if (decision.subject.kind === "horizon") continue;
    const chosen = decision.alternatives.find((a) => a.name === decision.chosen);
    if (chosen === undefined) continue;
    const cheaper = decision.alternatives.find(
      (a) =>
        a !== chosen &&
        a.unsound <= chosen.unsound &&
        a.errors <= chosen.errors &&
        a.monthlyCostUSD < chosen.monthlyCostUSD - 0.005,
    );
    if (cheaper === undefined) continue;
    if (decision.why.includes("is the cheapest"))
      problems.push(
        `decision "${decision.title}": says it is the cheapest, but ${cheaper.name} costs ${cheaper.monthlyCostUSD} against ${chosen.monthlyCostUSD}`,
      );
    // Searches compare whole searches and budgeted decisions say they stopped: both say why.
    const explained = ["is cheaper, but", "were not scored", "better search"].some((words) =>
      decision.why.includes(words),
    );
    if (!explained)
      problems.push(
        `decision "${decision.title}": chose ${decision.chosen} although ${cheaper.name} is cheaper with no more errors, and does not say why`,
      );
  }
  return problems;
}
