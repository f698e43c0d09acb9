/**
 * One run of the differential bench (src/bench/differential.ts): workloads drawn from the
 * sources, designed and judged; mutations of the designs that pass verify, spread over the kinds
 * and the designs, judged; the tallies and the report. The endpoint is the caller's (one for the
 * whole run, so memory stays bounded).
 */
import { formatIssue } from "../common/issues.js";
import { designModel } from "../design/design-model.js";
import { loadModel } from "../model/load-model.js";
import { serializeModel } from "../model/serialize-model.js";
import type { CosmosEndpoint } from "../verify/endpoint.js";
import type { VerificationOptions } from "../verify/verification-plan.js";
import { loadWorkload } from "../workload/load-workload.js";
import {
  failureTitle,
  judgeModel,
  type Judgement,
  type ModelVerdict,
  type VerifyFailure,
} from "./differential.js";
import {
  MUTATION_KINDS,
  mutationsOf,
  spreadMutations,
  type Mutation,
  type MutationKind,
  type MutationSubject,
} from "./model-mutations.js";
import type { WorkloadSource } from "./workload-sources.js";

export interface DifferentialOptions {
  readonly workloads: number;
  readonly mutations: number;
  /** Silent failures printed in full. */
  readonly shown: number;
  readonly verify?: VerificationOptions;
  readonly onProgress?: (line: string) => void;
}

/** A silent failure with what reproduces it. */
export interface SilentFailure {
  /** `arbitrary seed 17`. */
  readonly workload: string;
  readonly mutation?: { readonly kind: MutationKind; readonly description: string };
  readonly failure: string;
  /** `read`, `write`, `probe concurrentCounter`, `load`, `crash`: how the report groups them. */
  readonly category: string;
  readonly detail: string;
  /** Capacity errors on the failure's scope (not counted as catching it). */
  readonly capacityInScope: readonly string[];
}

type Counts = Record<ModelVerdict, number>;

export interface DifferentialTallies {
  readonly workloads: number;
  readonly workloadsNotLoading: readonly string[];
  readonly designs: Counts;
  /** Designs that threw, did not load back, or failed verify, each with what failed. */
  readonly designsFailing: readonly string[];
  readonly mutations: Readonly<Record<MutationKind, Counts>>;
  readonly failures: {
    readonly caught: number;
    readonly silent: number;
    readonly silentWithCapacity: number;
    /** Models (designs and mutations) with at least one silent failure. */
    readonly silentModels: number;
  };
  readonly silent: readonly SilentFailure[];
  /** Models flagged with a correctness error that verify passed, with the codes. */
  readonly falseAlarms: readonly string[];
  /** Mutated models whose evaluation threw (counted as rejected). */
  readonly evaluateThrew: readonly string[];
  readonly seconds: { readonly total: number; readonly judged: readonly number[] };
}

/** Runs the bench's two steps and reports. */
export async function runDifferential(
  endpoint: CosmosEndpoint,
  sources: readonly WorkloadSource[],
  options: DifferentialOptions,
): Promise<{ passed: boolean; report: string; tallies: DifferentialTallies }> {
  const started = performance.now();
  const tallies = emptyTallies();
  const subjects: { label: string; subject: MutationSubject }[] = [];
  const judge = async (
    label: string,
    workload: Parameters<typeof judgeModel>[1],
    modelText: string,
    mutation?: Mutation,
  ): Promise<Judgement> => {
    const judgement = await judgeModel(endpoint, workload, modelText, {
      ...(options.verify === undefined ? {} : { verify: options.verify }),
    });
    record(tallies, label, judgement, mutation);
    return judgement;
  };
  for (let index = 0; index < options.workloads && sources.length > 0; index++) {
    const source = sources[index % sources.length];
    if (source === undefined) continue;
    const seed = Math.floor(index / sources.length) + 1;
    const label = `${source.name} seed ${seed}`;
    const drawn = source.draw(seed);
    const loaded = loadWorkload(drawn.text, { file: "workload.yaml" });
    tallies.workloads++;
    if (!loaded.ok) {
      tallies.workloadsNotLoading.push(`${label}: ${loaded.issues.slice(0, 2).map(formatIssue).join("; ")}`);
      continue;
    }
    let modelText: string;
    try {
      modelText = serializeModel(designModel(loaded.value).model);
    } catch (error) {
      tallies.designsFailing.push(`${label}: design threw ${String(error)}`);
      continue;
    }
    const judgement = await judge(label, loaded.value, modelText);
    tallies.designs[judgement.verdict]++;
    if (judgement.verdict === "rejected")
      tallies.designsFailing.push(`${label}: the design does not load back: ${judgement.rejection?.detail}`);
    else if (judgement.verdicts.length > 0)
      tallies.designsFailing.push(
        `${label}: ${judgement.verdicts.map((v) => `${failureTitle(v.failure)} (${v.status})`).join(", ")}`,
      );
    else {
      const model = loadModel(modelText, { workload: loaded.value });
      if (model.ok)
        subjects.push({
          label,
          subject: {
            workloadDocument: drawn.document,
            workload: loaded.value,
            modelText,
            model: model.value,
          },
        });
    }
    if ((index + 1) % 10 === 0) options.onProgress?.(`differential: ${index + 1} workloads judged`);
  }
  const picked = spreadMutations(
    subjects.map(({ subject }) => mutationsOf(subject)),
    options.mutations,
  );
  for (const [done, { subject, mutation }] of picked.entries()) {
    const design = subjects[subject];
    if (design === undefined) continue;
    const judgement = await judge(
      design.label,
      mutation.workloadText ?? design.subject.workload,
      mutation.modelText,
      mutation,
    );
    tallies.mutations[mutation.kind][judgement.verdict]++;
    if (judgement.rejection?.stage === "evaluate")
      tallies.evaluateThrew.push(`${design.label}, ${mutation.kind}: ${judgement.rejection.detail}`);
    if ((done + 1) % 10 === 0) options.onProgress?.(`differential: ${done + 1} mutations judged`);
  }
  const { judged, ...counted } = tallies;
  const final: DifferentialTallies = {
    ...counted,
    seconds: { total: (performance.now() - started) / 1000, judged },
  };
  const passed = final.failures.silent === 0 && final.designsFailing.length === 0;
  return { passed, report: formatDifferentialReport(final, options.shown, passed), tallies: final };
}

interface MutableTallies {
  workloads: number;
  workloadsNotLoading: string[];
  designs: Counts;
  designsFailing: string[];
  mutations: Record<MutationKind, Counts>;
  failures: { caught: number; silent: number; silentWithCapacity: number; silentModels: number };
  silent: SilentFailure[];
  falseAlarms: string[];
  evaluateThrew: string[];
  judged: number[];
}

function emptyCounts(): Counts {
  return { rejected: 0, passed: 0, falseAlarm: 0, caught: 0, silent: 0 };
}

function emptyTallies(): MutableTallies {
  return {
    workloads: 0,
    workloadsNotLoading: [],
    designs: emptyCounts(),
    designsFailing: [],
    mutations: Object.fromEntries(MUTATION_KINDS.map((kind) => [kind, emptyCounts()])) as Record<
      MutationKind,
      Counts
    >,
    failures: { caught: 0, silent: 0, silentWithCapacity: 0, silentModels: 0 },
    silent: [],
    falseAlarms: [],
    evaluateThrew: [],
    judged: [],
  };
}

function record(tallies: MutableTallies, label: string, judgement: Judgement, mutation?: Mutation): void {
  if (judgement.verdict !== "rejected")
    tallies.judged.push((judgement.elapsedMs.evaluate + judgement.elapsedMs.verify) / 1000);
  const what =
    mutation === undefined ? `${label} (design)` : `${label}, ${mutation.kind}: ${mutation.description}`;
  if (judgement.verdict === "falseAlarm")
    tallies.falseAlarms.push(`${what}: ${[...new Set(judgement.falseAlarms.map((i) => i.code))].join(", ")}`);
  if (judgement.verdict === "silent") tallies.failures.silentModels++;
  for (const verdict of judgement.verdicts) {
    if (verdict.status === "caught") {
      tallies.failures.caught++;
      continue;
    }
    tallies.failures.silent++;
    if (verdict.capacityInScope.length > 0) tallies.failures.silentWithCapacity++;
    tallies.silent.push({
      workload: label,
      ...(mutation === undefined
        ? {}
        : { mutation: { kind: mutation.kind, description: mutation.description } }),
      failure: failureTitle(verdict.failure),
      category: failureCategory(verdict.failure),
      detail: verdict.failure.detail,
      capacityInScope: [...new Set(verdict.capacityInScope.map((i) => i.code))],
    });
  }
}

/** The bench's report (see src/bench/differential.ts). */
export function formatDifferentialReport(
  tallies: DifferentialTallies,
  shown: number,
  passed: boolean,
): string {
  const verdicts = (counts: Counts): string =>
    `${counts.rejected} rejected, ${counts.passed} passed, ${counts.falseAlarm} false alarm, ${counts.caught} caught, ${counts.silent} silent`;
  const mutationTotal = MUTATION_KINDS.reduce((sum, kind) => sum + total(tallies.mutations[kind]), 0);
  const judged = [...tallies.seconds.judged].sort((a, b) => a - b);
  const mean = judged.reduce((sum, s) => sum + s, 0) / Math.max(1, judged.length);
  const lines = [
    `workloads drawn: ${tallies.workloads} (${tallies.workloadsNotLoading.length} do not load); designs judged: ${total(tallies.designs)} (${verdicts(tallies.designs)})`,
    `designs failing verify (or not designed, or not loading back): ${tallies.designsFailing.length}`,
    ...tallies.designsFailing.map((line) => `  ${line}`),
    ...tallies.workloadsNotLoading.map((line) => `  workload does not load: ${line}`),
    `mutations judged: ${mutationTotal}`,
    ...MUTATION_KINDS.map(
      (kind) => `  ${kind}: ${total(tallies.mutations[kind])} (${verdicts(tallies.mutations[kind])})`,
    ),
    `verify failures: ${tallies.failures.caught + tallies.failures.silent}: ${tallies.failures.caught} caught, ${tallies.failures.silent} SILENT in ${tallies.failures.silentModels} models (${tallies.failures.silentWithCapacity} of them with a capacity error in scope, which does not count)`,
    `false alarms (a correctness error on a pattern verify checked and passed; verify passed everything): ${tallies.falseAlarms.length}`,
    ...tallies.falseAlarms.slice(0, shown).map((line) => `  ${line}`),
    ...(tallies.evaluateThrew.length === 0
      ? []
      : [
          `evaluate threw (counted as rejected): ${tallies.evaluateThrew.length}`,
          ...tallies.evaluateThrew.map((l) => `  ${l}`),
        ]),
    `time: ${tallies.seconds.total.toFixed(0)} s in all; per judged model (evaluate + verify) mean ${mean.toFixed(1)} s, median ${quantile(judged, 0.5).toFixed(1)} s, max ${quantile(judged, 1).toFixed(1)} s over ${judged.length}`,
    ...silentLines(tallies.silent, shown),
    passed ? "targets met" : "targets MISSED (silent failures or designs failing verify)",
  ];
  return lines.join("\n");
}

function silentLines(silent: readonly SilentFailure[], shown: number): string[] {
  if (silent.length === 0) return ["silent failures: none"];
  const groups = new Map<string, number>();
  for (const s of silent) {
    const key = `${s.mutation?.kind ?? "design"} / ${s.category}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return [
    `silent failures (${silent.length}; reproduce: the source's seed, the design, then the mutation):`,
    ...silent
      .slice(0, shown)
      .flatMap((s, i) => [
        `${i + 1}. ${s.workload}${s.mutation === undefined ? " (the design)" : `, ${s.mutation.kind}: ${s.mutation.description}`}`,
        `   ${s.failure}: ${s.detail}`,
        ...(s.capacityInScope.length === 0
          ? []
          : [`   (capacity errors in scope: ${s.capacityInScope.join(", ")})`]),
      ]),
    ...(silent.length > shown ? [`... and ${silent.length - shown} more`] : []),
    "silent failures by mutation kind / failure:",
    ...[...groups].sort((a, b) => b[1] - a[1]).map(([key, count]) => `  ${key}: ${count}`),
  ];
}

function failureCategory(failure: VerifyFailure): string {
  switch (failure.kind) {
    case "pattern":
      return failure.type;
    case "probe":
      return `probe ${failure.outcome.probe}`;
    case "load":
    case "crash":
      return failure.kind;
    default:
      return failure satisfies never;
  }
}

function total(counts: Counts): number {
  return counts.rejected + counts.passed + counts.falseAlarm + counts.caught + counts.silent;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}
