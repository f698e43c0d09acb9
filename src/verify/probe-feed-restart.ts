/**
 * The change-feed probe of a verify run, on a real account only: a processor whose handler fails
 * once loses nothing, nor does one stopped and restarted from its checkpoints.
 */
import { memoryCheckpointStore } from "../runtime/checkpoints.js";
import type { ProbeOutcome } from "./probe-outcomes.js";
import { REAL_ACCOUNT_PROBES } from "./probe-outcomes.js";
import type { CounterSubject } from "./probe-plan.js";
import { counted, counterOf, type ProbeRun } from "./probe-support.js";
import { round } from "./run-patterns.js";

/** Longest wait of the feed probe for its counter (ms). */
const FEED_WAIT_MS = 60_000;

/** Waits until the counter reads `want` (or the time is up); the last value read. */
async function counterReaches(run: ProbeRun, subject: CounterSubject, want: number): Promise<number | null> {
  const deadline = performance.now() + FEED_WAIT_MS;
  let last: number | null = null;
  while (performance.now() < deadline) {
    last = (await counted(run, subject))[0] ?? null;
    if (last === want) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return last;
}

/**
 * A real account's change feed: processors (from now, checkpoints in memory) whose handler fails
 * once; a child counted; the processors stopped, a second child written, restarted from their
 * checkpoints: the counter reads 2. Stops the run's own feed maintenance first (run it last).
 */
export async function feedRestart(run: ProbeRun, subject: CounterSubject): Promise<ProbeOutcome> {
  const base = { probe: "feedRestart" as const, counter: counterOf(subject), expected: 2 };
  if (run.feed?.source !== undefined) {
    // A simulated feed: its crash schedules kill and restart the processors at every step.
    const detail = "the simulated change feed's crash schedules restart the processors instead";
    return { ...base, status: "notCheckable", detail, failuresInjected: 0, counted: null, elapsedMs: 0 };
  }
  if (!run.capabilities.changeFeed || run.feed === undefined) {
    const detail = REAL_ACCOUNT_PROBES.feedRestart ?? "";
    return { ...base, status: "notCheckable", detail, failuresInjected: 0, counted: null, elapsedMs: 0 };
  }
  const started = performance.now();
  await run.feed.settle();
  await run.feed.stop();
  const checkpoints = memoryCheckpointStore();
  const errors: unknown[] = [];
  let failures = 0;
  const start = (failOnce: boolean) =>
    run.access.startChangeFeedProcessors({
      checkpoints,
      startFrom: "now",
      pollIntervalMs: 250,
      leaseRenewMs: 1000,
      backoff: { initialDelayMs: 50 },
      onError: (error) => errors.push(error),
      applyFeed: async (container, entries, range, journal) => {
        if (failOnce && failures === 0 && entries.length > 0) {
          failures++;
          throw new Error("the probe's handler failed once");
        }
        return run.access.applyFeed(container, entries, range, journal);
      },
    });
  const [first, second] = subject.children;
  let processor = start(true);
  let before: number | null;
  let after: number | null;
  try {
    await processor.ready;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await run.access.pattern(subject.parentCreate)(subject.parent.record, {
      parents: subject.parent.parents,
    });
    if (first !== undefined)
      await run.access.pattern(subject.childCreate)(first.record, { parents: first.parents });
    before = await counterReaches(run, subject, 1);
    await processor.stop();
    // Written while no processor runs: read from the saved continuation after the restart.
    if (second !== undefined)
      await run.access.pattern(subject.childCreate)(second.record, { parents: second.parents });
    processor = start(false);
    await processor.ready;
    after = await counterReaches(run, subject, 2);
  } finally {
    await processor.stop();
  }
  const ok = failures === 1 && before === 1 && after === 2;
  return {
    ...base,
    status: ok ? "passed" : "failed",
    ...(ok
      ? {}
      : {
          detail: `${failures} failure injected; the counter read ${before ?? "-"} before the stop and ${after ?? "-"} after the restart (expected 1 and 2)`,
        }),
    failuresInjected: failures,
    counted: after,
    elapsedMs: round(performance.now() - started),
  };
}
