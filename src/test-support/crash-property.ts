/**
 * The crash-schedule property (issue 25): derived data kept from the change feed equals the
 * oracle whatever the moment the change-feed processor dies. For each subject (a workload and a
 * model), verify runs once over a simulated feed without a crash (its maintenance steps counted:
 * every handler write, every lease checkpoint and every recorded intent), then once per crash
 * schedule: the processor is killed just before or just after chosen steps and restarted from its
 * leases; every read pattern, every write pattern and every probe must still pass (the reads
 * compare counters, copies, bounded sets, buckets and lookups with the oracle).
 *
 * Schedules: `points` single crashes spread evenly over the steps (alternately before and after
 * the step), and `doubles` schedules of two crashes (the second one in the restarted generation).
 * Two feed ranges, 7 changes a page, so batches are small and interleave across ranges.
 */
import type { CosmosEndpoint } from "../verify/endpoint.js";
import type { CrashPoint } from "../verify/crash-schedule.js";
import { verifyOnEndpoint, type VerificationReport } from "../verify/run-verification.js";
import type { Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";

/** A design to crash-test. */
export interface CrashSubject {
  readonly label: string;
  readonly workload: Workload;
  readonly model: Model;
}

export interface CrashPropertyOptions {
  /** Single-crash schedules per subject (default 6). */
  readonly points?: number;
  /** Two-crash schedules per subject (default 2). */
  readonly doubles?: number;
  /** Records per entity (default 30). */
  readonly maxItemsPerEntity?: number;
  readonly onProgress?: (line: string) => void;
}

/** One schedule's failure: the crashes injected and what failed. */
export interface CrashFailure {
  readonly subject: string;
  readonly crashes: readonly CrashPoint[];
  readonly injected: string;
  readonly failures: readonly string[];
}

export interface CrashPropertyOutcome {
  /** Subjects whose maintenance has change-feed steps (the others have nothing to crash). */
  readonly subjects: number;
  readonly withSteps: number;
  readonly steps: number;
  readonly schedules: number;
  /** Crashes injected (a schedule's point past the run's last step injects none). */
  readonly crashes: number;
  readonly before: number;
  readonly after: number;
  /** By kind of step crashed at: handler writes, checkpoints, intents. */
  readonly byStep: Readonly<Record<string, number>>;
  readonly failures: readonly CrashFailure[];
  /** Subjects whose run without a crash failed already (a verify failure, not a crash's). */
  readonly baselineFailures: readonly CrashFailure[];
}

/** What failed in a report: patterns and probes, one line each. */
export function failuresOf(report: VerificationReport): string[] {
  return [
    ...(report.load.status === "failed" ? [`load: ${report.load.detail ?? ""}`] : []),
    ...report.patterns
      .filter((p) => p.status === "failed")
      .map((p) => `${p.patternId}: ${(p.detail ?? "").slice(0, 400)}`),
    ...report.probes
      .filter((p) => p.status === "failed")
      .map((p) => `probe ${p.probe}: ${(p.detail ?? "").slice(0, 400)}`),
  ];
}

/** The schedules of a run of `steps` steps. */
export function crashSchedules(steps: number, points: number, doubles: number): CrashPoint[][] {
  if (steps === 0) return [];
  const schedules: CrashPoint[][] = [];
  const spread = (count: number, index: number): number =>
    Math.max(1, Math.min(steps, Math.round(((index + 0.5) * steps) / count)));
  for (let i = 0; i < points; i++)
    schedules.push([{ step: spread(points, i), when: i % 2 === 0 ? "after" : "before" }]);
  for (let i = 0; i < doubles; i++) {
    const first = spread(doubles * 2, i * 2);
    const second = Math.max(first + 1, spread(doubles * 2, i * 2 + 1));
    schedules.push([
      { step: first, when: "after" },
      { step: second, when: i % 2 === 0 ? "before" : "after" },
    ]);
  }
  return schedules;
}

/** Runs the property over `subjects` on one endpoint. */
export async function runCrashProperty(
  endpoint: CosmosEndpoint,
  subjects: readonly CrashSubject[],
  options: CrashPropertyOptions = {},
): Promise<CrashPropertyOutcome> {
  const verify = (subject: CrashSubject, crashes: readonly CrashPoint[]): Promise<VerificationReport> =>
    verifyOnEndpoint(endpoint, subject.workload, subject.model, {
      seed: 1,
      maxItemsPerEntity: options.maxItemsPerEntity ?? 30,
      maxItemsPerContainer: 300,
      requestsPerPattern: 2,
      simulatedFeed: { ranges: 2, maxItemCount: 7, crashes },
      changeFeedTimeoutMs: 30_000,
    });
  const failures: CrashFailure[] = [];
  const baselineFailures: CrashFailure[] = [];
  const byStep: Record<string, number> = {};
  let withSteps = 0;
  let steps = 0;
  let schedules = 0;
  let crashes = 0;
  let before = 0;
  let after = 0;
  for (const subject of subjects) {
    const baseline = await verify(subject, []);
    const total = baseline.simulatedFeed?.steps ?? 0;
    const failed = failuresOf(baseline);
    if (failed.length > 0) {
      baselineFailures.push({ subject: subject.label, crashes: [], injected: "none", failures: failed });
      options.onProgress?.(`${subject.label}: fails without a crash: ${failed[0] ?? ""}`);
      continue;
    }
    if (total === 0) continue;
    withSteps++;
    steps += total;
    for (const schedule of crashSchedules(total, options.points ?? 6, options.doubles ?? 2)) {
      schedules++;
      const report = await verify(subject, schedule);
      const injected = report.simulatedFeed?.crashes ?? [];
      crashes += injected.length;
      for (const crash of injected) {
        if (crash.when === "before") before++;
        else after++;
        const kind = crash.what.split(" ")[0] ?? "?";
        byStep[kind] = (byStep[kind] ?? 0) + 1;
      }
      const found = failuresOf(report);
      if (found.length > 0) {
        const description = injected.map((c) => `step ${c.step} ${c.when} ${c.what}`).join(", ");
        failures.push({ subject: subject.label, crashes: schedule, injected: description, failures: found });
        options.onProgress?.(`${subject.label}: crash ${description}: ${found[0] ?? ""}`);
      }
    }
    options.onProgress?.(`${subject.label}: ${total} steps, ${schedules} schedules so far`);
  }
  return {
    subjects: subjects.length,
    withSteps,
    steps,
    schedules,
    crashes,
    before,
    after,
    byStep,
    failures,
    baselineFailures,
  };
}

/** The outcome as text: the schedules tried, the faults injected, every failure. */
export function crashReport(outcome: CrashPropertyOutcome): string {
  const lines = [
    `subjects: ${outcome.subjects} (${outcome.withSteps} with change-feed maintenance, ${outcome.steps} steps in their runs without a crash)`,
    `schedules: ${outcome.schedules}; crashes injected: ${outcome.crashes} (${outcome.before} before a step, ${outcome.after} after it)`,
    `crashed at: ${
      Object.entries(outcome.byStep)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([kind, count]) => `${kind} ${count}`)
        .join(", ") || "nothing"
    }`,
    `schedules failing: ${outcome.failures.length}; subjects failing without a crash: ${outcome.baselineFailures.length}`,
  ];
  for (const failure of [...outcome.baselineFailures, ...outcome.failures].slice(0, 30))
    lines.push(`  ${failure.subject} [${failure.injected}]: ${failure.failures.join(" | ")}`);
  return lines.join("\n");
}
