/**
 * Derived data applied exactly once by the generated module (issue 25): retried writes applied
 * in-process, and the change-feed processor killed at step boundaries over a simulated feed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderDataAccessFiles } from "../render/code/render-data-access.js";
import type { ChangeFeedProcessor, ChangeFeedProcessorOptions } from "../runtime/change-feed.js";
import { memoryCheckpointStore } from "../runtime/checkpoints.js";
import type { IntentEntry, Journal } from "../runtime/journal.js";
import {
  importGenerated,
  loadExampleModel,
  loadWriteFixture,
  type LoadedExample,
} from "../test-support/generated-module.js";
import { CrashSchedule, type CrashPoint } from "./crash-schedule.js";
import { deployModel, type Deployment } from "./deploy.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "./endpoint.js";
import { simulatedFeed, type SimulatedFeed } from "./simulated-feed.js";

type Result = { readonly item?: Record<string, unknown>; readonly changes: unknown[] };
type Access = Record<string, (input: unknown, related?: unknown) => Promise<Result>> & {
  applyChanges(changes: unknown[]): Promise<Result>;
  applyFeed(
    container: string,
    entries: readonly unknown[],
    range?: string,
    journal?: Journal,
  ): Promise<Result>;
  replayFeed(container: string, intent: readonly IntentEntry[]): Promise<Result>;
};
type StartProcessors = (database: unknown, access: Access, options: unknown) => ChangeFeedProcessor;

let endpoint: CosmosEndpoint | undefined;
const deployments: Deployment[] = [];

beforeAll(async () => {
  endpoint = await startEmbeddedEndpoint();
}, 30_000);

afterAll(async () => {
  for (const deployment of deployments) await deployment.remove();
  await endpoint?.close();
});

async function socialReactions(modelFile = "expert-model.yaml"): Promise<Access> {
  if (endpoint === undefined) throw new Error("no endpoint");
  const example = loadExampleModel("social-reactions", modelFile);
  const deployment = await deployModel(endpoint.client, example.model);
  deployments.push(deployment);
  const module = await importGenerated(
    `exactly-once-social-${modelFile.replace(/\W/g, "-")}`,
    renderDataAccessFiles(example.workload, example.model, example.plans),
  );
  const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
  return create(deployment.database, { transactionalBatch: false });
}

describe("in-process maintenance", () => {
  it.each(["expert-model.yaml", "design-2026-11-23.yaml"])(
    "%s: a reaction upserted 50 times (a retried request, a changed kind, its changes applied twice) is counted once",
    async (modelFile) => {
      const access = await socialReactions(modelFile);
      const run = async (fn: string, input: unknown): Promise<void> => {
        const call = access[fn];
        if (call === undefined) throw new Error(`no ${fn}`);
        const { changes } = await call(input);
        await access.applyChanges(changes);
        // A caller that retries the maintenance (it did not learn that it succeeded).
        await access.applyChanges(changes);
      };
      await run("c1CreateAUserOrEditTheirProfile", {
        userId: "u1",
        displayName: "U",
        avatarUrl: "a",
        bio: "b",
        createdAt: "2026-01-01T00:00:00Z",
      });
      await run("c2PublishAPost", {
        postId: "p1",
        authorId: "u1",
        text: "t",
        mediaUrls: [],
        visibility: "public",
        createdAt: "2026-01-01T00:00:00Z",
      });
      for (let i = 0; i < 50; i++) {
        await run("c3ReactToAPostAddAReactionOrChangeItsKind", {
          postId: "p1",
          userId: "u2",
          kind: i % 2 === 0 ? "like" : "wow",
          createdAt: "2026-01-02T00:00:00Z",
        });
      }
      const read = access["q1GetAPostWithItsReactionCountsAndItsAuthorsDisplayName"];
      const post = await read?.({ postId: "p1" });
      expect(post?.item?.["reactionCount"]).toBe(1);
    },
  );
});

const USER = { userId: "u1", displayName: "U", avatarUrl: "a", bio: "b", createdAt: "2026-01-01T00:00:00Z" };
const POST = {
  postId: "p1",
  authorId: "u1",
  text: "t",
  mediaUrls: [],
  visibility: "public",
  createdAt: "2026-01-01T00:00:00Z",
};
const reaction = (kind: string) => ({ postId: "p1", userId: "u2", kind, createdAt: "2026-01-02T00:00:00Z" });

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * social-reactions (the design: latest-version feed, soft deletes) maintained by its own
 * processors over a simulated feed, killed at `crashes`; `journal: false` hides the journal from
 * the handlers (what the code did before), to show the harness finds the drift.
 */
async function crashHarness(
  crashes: readonly CrashPoint[],
  journal = true,
  example: LoadedExample = loadExampleModel("social-reactions", "design-2026-11-23.yaml"),
  label = "social",
) {
  if (endpoint === undefined) throw new Error("no endpoint");
  const deployment = await deployModel(endpoint.client, example.model);
  deployments.push(deployment);
  const module = await importGenerated(
    `exactly-once-crash-${label}-${journal ? "journal" : "none"}`,
    renderDataAccessFiles(example.workload, example.model, example.plans),
  );
  const schedule = new CrashSchedule(crashes);
  const feed: SimulatedFeed = simulatedFeed(
    deployment.database,
    new Map(example.model.containers.map((c) => [c.name, c.partitionKey[0] ?? "/id"])),
    { ranges: 1 },
  );
  const database = feed.watch(schedule.database(deployment.database));
  const access = (module["createDataAccess"] as (database: unknown, options: unknown) => Access)(database, {
    transactionalBatch: false,
    // Replica reads always pick replica 0: a crash's outcome does not depend on a draw.
    random: () => 0,
  });
  const start = module["startChangeFeedProcessors"] as StartProcessors;
  const store = memoryCheckpointStore();
  let processor: ChangeFeedProcessor | undefined;
  const restart = async (): Promise<void> => {
    await processor?.stop();
    const generation = schedule.next();
    const options: ChangeFeedProcessorOptions & Record<string, unknown> = {
      checkpoints: schedule.checkpoints(store, generation),
      feed: feed.source,
      instanceName: "test",
      pollIntervalMs: 2,
      leaseRenewMs: 20,
      backoff: { initialDelayMs: 2, maxDelayMs: 20 },
      onError: (error: unknown) => {
        if (process.env["HARNESS_DEBUG"] !== undefined) console.error("onError", error);
      },
      applyFeed: (container: string, entries: readonly unknown[], range: string, batch: Journal) =>
        schedule.run(generation, () =>
          access.applyFeed(container, entries, range, journal ? batch : undefined),
        ),
      replay: (container: string, intent: readonly IntentEntry[]) =>
        schedule.run(generation, () => access.replayFeed(container, intent)),
    };
    // The module's processors call the access object's applyFeed and replayFeed: this generation's.
    processor = start(
      database,
      { ...access, applyFeed: options["applyFeed"], replayFeed: options["replay"] } as Access,
      options,
    );
    await processor.ready;
  };
  const settled = async (): Promise<void> => {
    await until(async () => {
      const leases = [...store.leases.values()];
      return (
        leases.length > 0 &&
        leases.every((l) => l.intent === undefined) &&
        (await feed.caughtUp(new Map(leases.map((l) => [`${l.container}|${l.range}`, l.continuation]))))
      );
    }, "the feed to be applied");
  };
  const call = async (fn: string, input: unknown): Promise<void> => {
    const found = access[fn];
    if (found === undefined) throw new Error(`no ${fn}`);
    await found(input);
  };
  const count = async (): Promise<unknown> =>
    (await access["q1GetAPostWithItsReactionCountsAndItsAuthorsDisplayName"]?.({ postId: "p1" }))?.item?.[
      "reactionCount"
    ];
  const items = async (container: string): Promise<Record<string, unknown>[]> =>
    (await deployment.database.container(container).items.query("SELECT * FROM c").fetchAll()).resources;
  const stop = async (): Promise<void> => {
    await processor?.stop();
  };
  /**
   * Dies right after the next step described as `what` that follows `write`, then restarts and
   * lets the feed settle: what a batch cut short by a crash leaves once it is delivered again.
   */
  const crashAfterNext = async (what: string, write: () => Promise<void>): Promise<void> => {
    schedule.add({ step: schedule.steps + 1, when: "after", what });
    await write();
    await restart();
    await until(() => !schedule.alive(), "the crash");
    await stop();
    expect(schedule.crashes.map((c) => c.what)).toEqual([what]);
    await restart();
    await settled();
    await stop();
  };
  return { schedule, restart, settled, call, count, items, stop, crashAfterNext };
}

describe("change-feed maintenance killed and restarted (simulated feed)", () => {
  for (const journal of [true, false]) {
    it(`${journal ? "with" : "without (control)"} the journal: a reaction counted, the process dying after the holder's update and before the reaction's flag, the reaction changed before the restart, counts ${journal ? "once" : "twice"}`, async () => {
      const harness = await crashHarness([{ step: 1, when: "after", what: "patch p1" }], journal);
      await harness.call("c1CreateAUserOrEditTheirProfile", USER);
      await harness.call("c2PublishAPost", POST);
      await harness.call("c3ReactToAPostAddAReactionOrChangeItsKind", reaction("like"));
      await harness.restart();
      await until(() => !harness.schedule.alive(), "the crash");
      await harness.stop();
      // Changed while no processor runs: the feed shows its newest version only.
      await harness.call("c3ReactToAPostAddAReactionOrChangeItsKind", reaction("wow"));
      await harness.restart();
      await harness.settled();
      await harness.stop();
      expect(harness.schedule.crashes.map((c) => c.what)).toEqual(["patch p1"]);
      expect(await harness.count()).toBe(journal ? 1 : 2);
    });
  }

  it("a reaction removed, the process dying after the holder's update, added again before the restart: counted once", async () => {
    const harness = await crashHarness([]);
    await harness.call("c1CreateAUserOrEditTheirProfile", USER);
    await harness.call("c2PublishAPost", POST);
    await harness.call("c3ReactToAPostAddAReactionOrChangeItsKind", reaction("like"));
    await harness.restart();
    await harness.settled();
    expect(await harness.count()).toBe(1);
    await harness.stop();
    harness.schedule.add({ step: harness.schedule.steps + 1, when: "after", what: "patch p1" });
    await harness.call("c4RemoveAReaction", reaction("like"));
    await harness.restart();
    await until(() => !harness.schedule.alive(), "the crash");
    await harness.stop();
    await harness.call("c3ReactToAPostAddAReactionOrChangeItsKind", reaction("love"));
    await harness.restart();
    await harness.settled();
    await harness.stop();
    expect(harness.schedule.crashes.map((c) => c.what)).toEqual(["patch p1"]);
    expect(await harness.count()).toBe(1);
  });

  for (const journal of [true, false]) {
    it(`${journal ? "with" : "without (control)"} the journal: a copy moved to a new key, the process dying after the new copy's upsert and before the old one's delete, ${journal ? "leaves no copy behind" : "leaves the old copy"}`, async () => {
      const harness = await crashHarness([], journal, loadWriteFixture("copymove"), "copymove");
      const reading = { readingId: "r1", deviceId: "d1", region: "north", value: 1 };
      await harness.call("c1RecordAReading", reading);
      await harness.restart();
      await harness.settled();
      await harness.stop();
      // Dies right after the next upsert: the copy's under the new region.
      await harness.crashAfterNext("upsert", () =>
        harness.call("w2MoveAReadingToAnotherRegion", { readingId: "r1", deviceId: "d1", region: "south" }),
      );
      const copies = (await harness.items("readings-by-region")).map((item) => item["region"]);
      expect(copies).toEqual(journal ? ["south"] : expect.arrayContaining(["north", "south"]));
    });
  }

  for (const journal of [true, false]) {
    it(`${journal ? "with" : "without (control)"} the journal: a newest-3 set, the process dying after a new member is written and before the oldest leaves, ${journal ? "holds 3 in each replica" : "holds 4"}`, async () => {
      const harness = await crashHarness([], journal, loadWriteFixture("newest"), "newest");
      const ticket = (n: number) => ({
        ticketId: `t${n}`,
        status: "open",
        openedAt: `2026-01-0${n}T00:00:00Z`,
        title: `ticket ${n}`,
      });
      for (const n of [1, 2, 3]) await harness.call("c1OpenTicket", ticket(n));
      await harness.restart();
      await harness.settled();
      await harness.stop();
      // Dies right after the next upsert: the newest ticket written in the set.
      await harness.crashAfterNext("upsert", () => harness.call("c1OpenTicket", ticket(4)));
      const members = await harness.items("tickets-newest");
      const held = [0, 1].map((replica) =>
        members
          .filter((item) => item["partition"] === `open-${replica}`)
          .map((item) => String(item["id"]))
          .sort(),
      );
      // The harness reads replica 0 (random: 0): it holds t4 after the crash, so without the
      // journal the redelivered change finds it there and evicts nothing.
      if (journal)
        expect(held).toEqual([
          ["t2", "t3", "t4"],
          ["t2", "t3", "t4"],
        ]);
      else expect(held[0]).toEqual(["t1", "t2", "t3", "t4"]);
    });
  }
});
