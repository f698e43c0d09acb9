/**
 * The differential judge (src/test-support/differential.ts): the attribution rules on hand-made
 * findings and failures, the mutations' determinism and spread, and real judgements on the
 * embedded endpoint of mutations whose outcome is known. The bench
 * (`npm run bench -- differential`) runs it at scale (300 designs, 300 mutations);
 * `DIFFERENTIAL_SAMPLE` is the sample checked
 * here for "no silent failure" (designs and mutations).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvaluationIssue } from "../../src/common/issues.js";
import type { RuEstimate } from "../../src/estimator/operation.js";
import type { Plan, PlanStep } from "../../src/planner/types.js";
import {
  DIFFERENTIAL_SAMPLE,
  attributeFailure,
  findingKind,
  judgeModel,
  type VerifyFailure,
} from "../../src/test-support/differential.js";
import { planItemTypes } from "../../src/test-support/differential-attribution.js";
import {
  MUTATION_KINDS,
  mutationsOf,
  spreadMutations,
  type Mutation,
  type MutationSubject,
} from "../../src/test-support/model-mutations.js";
import { ARBITRARY_SOURCE, generatorSource } from "../../src/test-support/workload-sources.js";
import { generateIndependentWorkload } from "../../src/test-support/independent-workloads.js";
import { designModel } from "../../src/design/design-model.js";
import { loadModel } from "../../src/model/load-model.js";
import { serializeModel } from "../../src/model/serialize-model.js";
import type { ProbeOutcome } from "../../src/verify/probe-outcomes.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "../../src/verify/endpoint.js";
import { loadWorkload } from "../../src/workload/load-workload.js";
import type { Workload } from "../../src/workload/types.js";

const WORKLOAD_TEXT = `
version: 1
name: Accounts and orders
entities:
  Account:
    key: accountId
    count: 1000
    avgBytes: 500
    attributes: { accountId: string, region: { type: string, changes: rare } }
  Order:
    key: orderId
    count: 10000
    avgBytes: 800
    attributes: { orderId: string, accountId: string, status: string }
relationships:
  - { parent: Account, child: Order, via: accountId, avg: 10 }
accessPatterns:
  - { id: C1, name: create account, type: write, operation: create, entity: Account, rps: { avg: 1, peak: 2 } }
  - { id: C2, name: create order, type: write, operation: create, entity: Order, rps: { avg: 5, peak: 10 } }
  - id: Q3
    name: orders of an account
    type: read
    entity: Order
    where: { accountId: eq }
    with: [Account.region]
    rps: { avg: 10, peak: 20 }
  - { id: W4, name: change region, type: write, operation: patch, entity: Account, changes: [region], rps: { avg: 1, peak: 2 } }
`;

function loadedWorkload(): Workload {
  const loaded = loadWorkload(WORKLOAD_TEXT);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return loaded.value;
}

const RU: RuEstimate = { estimate: 1, low: 1, high: 1 };
const base = { ru: RU, times: 1, note: "" };

function pointRead(container: string, itemType: string): PlanStep {
  return {
    ...base,
    kind: "pointRead",
    container,
    itemType,
    id: "{accountId}",
    partitionKey: ["{accountId}"],
  };
}

function write(container: string, itemType: string): PlanStep {
  return {
    ...base,
    kind: "write",
    operation: "patch",
    container,
    itemType,
    id: "{x}",
    partitionKey: ["{x}"],
  };
}

/** Q3 reads orders and follows up on accounts; C2 writes an order and a counter on its account. */
const PLANS: readonly Plan[] = [
  {
    patternId: "Q3",
    type: "read",
    kind: "singlePartitionQuery",
    container: "orders",
    itemType: "order",
    operations: [
      {
        ...base,
        kind: "query",
        container: "orders",
        itemType: "order",
        sql: "SELECT * FROM c",
        parameters: [],
        scope: "single",
        partitions: 1,
        returned: 10,
        orderServedByIndex: true,
      },
      pointRead("accounts", "account"),
    ],
    fanOut: false,
    served: true,
    notes: [],
  },
  {
    patternId: "C2",
    type: "write",
    kind: "write",
    operations: [write("orders", "order")],
    async: [
      {
        ...base,
        kind: "changeFeed",
        reason: "counter",
        container: "accounts",
        itemType: "account",
        from: { container: "orders", itemType: "order" },
        steps: [write("accounts", "account")],
      },
    ],
    served: true,
    notes: [],
  },
  {
    patternId: "W4",
    type: "write",
    kind: "write",
    operations: [write("accounts", "account")],
    async: [],
    served: true,
    notes: [],
  },
];

const Q3_FAILED: VerifyFailure = {
  kind: "pattern",
  patternId: "Q3",
  type: "read",
  detail: "expected 2, got 0",
};

const notServed = (pattern: string): EvaluationIssue => ({
  code: "evaluate.patternNotServed",
  pattern,
  severity: "error",
  path: ["accessPatterns", 2],
  message: "not served",
});

const hotPartition = (container: string): EvaluationIssue => ({
  code: "evaluate.hotPartition",
  container,
  rusPeak: 20000,
  severity: "error",
  path: ["containers", container],
  message: "hot",
});

const counterNotAddressable = (pattern: string, container: string, itemType: string): EvaluationIssue => ({
  code: "evaluate.counterNotAddressable",
  pattern,
  container,
  itemType,
  property: "orderCount",
  entity: "Order",
  holder: "Account",
  missing: ["region"],
  severity: "error",
  path: ["accessPatterns", 1],
  message: "not addressable",
});

const counterProbe: ProbeOutcome = {
  probe: "concurrentCounter",
  status: "failed",
  detail: "counted 19",
  elapsedMs: 1,
  counter: { holder: { container: "accounts", itemType: "account" }, property: "orderCount", child: "Order" },
  children: 20,
  edits: 20,
  failedWrites: 0,
  expected: 20,
  counted: [19],
};

describe("the attribution rules", () => {
  const context = { workload: loadedWorkload(), plans: PLANS };

  it("a plan touches every item type of its steps, follow-ups and change-feed work", () => {
    expect(planItemTypes(PLANS[0] as Plan)).toEqual([
      { container: "orders", itemType: "order" },
      { container: "accounts", itemType: "account" },
    ]);
    expect(planItemTypes(PLANS[1] as Plan)).toEqual([
      { container: "orders", itemType: "order" },
      { container: "accounts", itemType: "account" },
    ]);
  });

  it("a failed read is caught by an error naming it, not by one naming another pattern", () => {
    expect(attributeFailure(Q3_FAILED, [notServed("Q3")], context)).toMatchObject({
      status: "caught",
      caughtBy: [{ code: "evaluate.patternNotServed", pattern: "Q3" }],
    });
    expect(attributeFailure(Q3_FAILED, [{ ...notServed("Q9"), path: [] }], context).status).toBe("silent");
  });

  it("a failed read is caught by a correctness error on an item type its follow-up reads", () => {
    const verdict = attributeFailure(
      Q3_FAILED,
      [counterNotAddressable("C2", "accounts", "account")],
      context,
    );
    expect(verdict.status).toBe("caught");
    const elsewhere = counterNotAddressable("C2", "archive", "account");
    expect(attributeFailure(Q3_FAILED, [{ ...elsewhere, path: [] }], context).status).toBe("silent");
  });

  it("a failed read of a copy is caught by a correctness error on the item type it is kept from", () => {
    // Q3 reads orders/order; say it is a copy of archive/order: a finding that archive/order's
    // records cannot be written answers for the copy missing them (independent seed 101).
    const onSource = { ...counterNotAddressable("C2", "archive", "order"), path: [] };
    expect(attributeFailure(Q3_FAILED, [onSource], context).status).toBe("silent");
    const model = {
      version: 1 as const,
      containers: [
        {
          name: "orders",
          partitionKey: ["/accountId"],
          uniqueKeys: [],
          indexing: { kind: "derived" as const },
          items: [
            {
              type: "order",
              entity: "Order",
              id: "{orderId}",
              partitionKey: ["{accountId}"],
              source: { container: "archive", type: "order" },
              truncate: [],
              embeds: [],
              copies: [],
              counts: [],
            },
          ],
        },
      ],
    };
    expect(attributeFailure(Q3_FAILED, [onSource], { ...context, model }).status).toBe("caught");
  });

  it("capacity errors and warnings never catch a wrong answer, but are shown", () => {
    const verdict = attributeFailure(Q3_FAILED, [hotPartition("orders"), hotPartition("accounts")], context);
    expect(verdict.status).toBe("silent");
    expect(verdict.capacityInScope.map((i) => i.code)).toEqual([
      "evaluate.hotPartition",
      "evaluate.hotPartition",
    ]);
    expect(attributeFailure(Q3_FAILED, [{ ...notServed("Q3"), severity: "warning" }], context).status).toBe(
      "silent",
    );
    expect(findingKind("evaluate.itemTooLarge")).toBe("capacity");
    expect(findingKind("evaluate.copyNotMaintainable")).toBe("correctness");
  });

  it("a failed counter probe is caught on its holder or on a write of its child, not elsewhere", () => {
    const probe: VerifyFailure = { kind: "probe", outcome: counterProbe, title: "counter", detail: "19" };
    expect(attributeFailure(probe, [counterNotAddressable("C2", "other", "x")], context).status).toBe(
      "caught",
    );
    const onHolder = { ...counterNotAddressable("W9", "accounts", "account"), path: [] };
    expect(attributeFailure(probe, [onHolder], context).status).toBe("caught");
    const onOther = { ...counterNotAddressable("W9", "orders", "order"), path: [] };
    expect(attributeFailure(probe, [onOther], context).status).toBe("silent");
  });

  it("a paging probe is judged as its pattern", () => {
    const paging: ProbeOutcome = {
      probe: "paging",
      status: "failed",
      elapsedMs: 1,
      patternId: "Q3",
      pageSize: 2,
      pages: 3,
      items: 5,
      expected: 6,
      distinct: 5,
    };
    const failure: VerifyFailure = { kind: "probe", outcome: paging, title: "paging", detail: "5 of 6" };
    expect(attributeFailure(failure, [notServed("Q3")], context).status).toBe("caught");
    expect(attributeFailure(failure, [{ ...notServed("C1"), path: [] }], context).status).toBe("silent");
  });

  it("a failed load is caught by a correctness error on a colliding item type; a crash by nothing", () => {
    const load: VerifyFailure = {
      kind: "load",
      duplicates: [{ container: "orders", itemType: "order" }],
      detail: "duplicates",
    };
    const keyChanged: EvaluationIssue = {
      code: "evaluate.keyChangedInPlace",
      pattern: "W4",
      container: "orders",
      itemType: "order",
      attributes: ["accountId"],
      severity: "error",
      path: [],
      message: "",
    };
    expect(attributeFailure(load, [keyChanged], context).status).toBe("caught");
    expect(attributeFailure(load, [hotPartition("orders")], context).status).toBe("silent");
    const crash: VerifyFailure = { kind: "crash", detail: "boom" };
    expect(attributeFailure(crash, [keyChanged, notServed("Q3")], context).status).toBe("silent");
  });

  it("writes that cannot commit together catch nothing: verify runs one write at a time", () => {
    const notAtomic: EvaluationIssue = {
      code: "evaluate.notAtomic",
      pattern: "C1",
      partner: "Q3",
      reason: "unrelated",
      severity: "error",
      path: [],
      message: "",
    };
    expect(findingKind(notAtomic.code)).toBe("atomicity");
    expect(attributeFailure(Q3_FAILED, [notAtomic], context).status).toBe("silent");
  });
});

/** The design of a workload of the arbitrary source, as a subject for mutations. */
function designSubject(seed: number): MutationSubject {
  const drawn = ARBITRARY_SOURCE.draw(seed);
  const loaded = loadWorkload(drawn.text);
  if (!loaded.ok) throw new Error(`seed ${seed} does not load`);
  const modelText = serializeModel(designModel(loaded.value).model);
  const model = loadModel(modelText, { workload: loaded.value });
  if (!model.ok) throw new Error(`the design of seed ${seed} does not load back`);
  return { workloadDocument: drawn.document, workload: loaded.value, modelText, model: model.value };
}

const designedSubjects = new Map<number, MutationSubject>();
/** `designSubject(seed)`, designed once for the file: the tests below mutate the same designs. */
function designedSubject(seed: number): MutationSubject {
  let found = designedSubjects.get(seed);
  if (found === undefined) {
    found = designSubject(seed);
    designedSubjects.set(seed, found);
  }
  return found;
}

describe("the mutations", () => {
  it("are the same for the same pair, and each changes the pair", () => {
    const first = mutationsOf(designedSubject(5));
    // The pair designed again: the same design, the same mutations.
    const again = mutationsOf(designSubject(5));
    expect(again).toEqual(first);
    expect(first.map((m) => `${m.kind} | ${m.description}`)).toContain(
      "id.changeTemplate | orders/order: id {orderId} -> {accountId}",
    );
    expect(new Set(first.map((m) => m.kind)).size).toBeGreaterThanOrEqual(7);
    const subject = designedSubject(5);
    for (const mutation of first) {
      expect(mutation.workloadText !== undefined || mutation.modelText !== subject.modelText).toBe(true);
    }
  });

  it("a mutated model is written as YAML that differs in the one place named", () => {
    const mutation = mutationsOf(designedSubject(5)).find(
      (m) => m.description === "orders/order: id {orderId} -> {accountId}",
    );
    expect(mutation?.modelText).toMatch(/id: "\{accountId\}"/);
    expect(mutation?.workloadText).toBeUndefined();
  });

  it("are spread over the kinds and the subjects, deterministically", () => {
    const of = (kind: Mutation["kind"], n: number): Mutation => ({
      kind,
      description: `${kind} ${n}`,
      modelText: `${kind} ${n}`,
    });
    const candidates: Mutation[][] = [
      [of("derived.drop", 1), of("derived.drop", 2), of("id.changeTemplate", 1)],
      [of("derived.drop", 3)],
      [of("derived.drop", 4), of("boundedSet.shrink", 1)],
    ];
    const picked = spreadMutations(candidates, 4);
    expect(picked).toEqual(spreadMutations(candidates, 4));
    expect(picked.map((p) => `${p.subject}:${p.mutation.description}`)).toEqual([
      "0:id.changeTemplate 1",
      "2:boundedSet.shrink 1",
      // derived.drop gets the two shares left, on different subjects.
      "0:derived.drop 1",
      "1:derived.drop 3",
    ]);
    expect(spreadMutations(candidates, 100)).toHaveLength(6);
    expect(MUTATION_KINDS).toHaveLength(10);
  });
});

describe("judgements on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint;
  beforeAll(async () => {
    endpoint = await startEmbeddedEndpoint();
  });
  afterAll(async () => {
    await endpoint?.close();
  });

  it("a model that does not load is rejected: reported, not verified", async () => {
    const subject = designedSubject(5);
    const judgement = await judgeModel(
      endpoint,
      subject.workload,
      subject.modelText.replace("Account", "Acount"),
    );
    expect(judgement.verdict).toBe("rejected");
    expect(judgement.rejection?.stage).toBe("model");
    expect(judgement.rejection?.issues[0]?.code).toBe("model.unknownEntity");
  });

  /** The mutation of the design of `seed` with this kind and description. */
  function mutationOf(
    seed: number,
    kind: Mutation["kind"],
    description: string,
  ): [MutationSubject, Mutation] {
    const subject = designedSubject(seed);
    const mutation = mutationsOf(subject).find((m) => m.kind === kind && m.description === description);
    if (mutation === undefined) throw new Error(`seed ${seed} has no mutation ${description}`);
    return [subject, mutation];
  }

  it("an attribute a read returns dropped from the item's projection: Q2 fails, caught as not served", async () => {
    const [subject, mutation] = mutationOf(
      5,
      "select.dropAttribute",
      "accounts/account: select without email (Q2 reads it), added",
    );
    const judgement = await judgeModel(endpoint, subject.workload, mutation.modelText);
    expect(judgement.verdict).toBe("caught");
    // The paging probe checks Q2's first page against the oracle too (since issue 25): both caught.
    expect(judgement.verdicts.map((v) => [v.failure.kind, v.status, v.caughtBy.map((i) => i.code)])).toEqual([
      ["pattern", "caught", ["evaluate.patternNotServed"]],
      ["probe", "caught", ["evaluate.patternNotServed"]],
    ]);
    expect(judgement.verdicts[0]?.failure).toMatchObject({ patternId: "Q2", type: "read" });
  }, 60_000);

  // Once a silent failure (2026-11-26): the projection lacks `priority`, which Q5 filters on by
  // range; evaluate planned the filter on the projected items (a "lookup" projection keeping the
  // key) and reported nothing. Now the projection cannot answer Q5: patternNotServed.
  it("an attribute a read filters on dropped from the projection: Q5 finds nothing, and evaluate says so", async () => {
    const [subject, mutation] = mutationOf(
      16,
      "select.dropAttribute",
      "orders/order: select without priority (Q5 reads it), added",
    );
    const judgement = await judgeModel(endpoint, subject.workload, mutation.modelText);
    expect(judgement.verdicts.map((v) => [v.failure.kind, v.status])).toEqual([["pattern", "caught"]]);
    expect(judgement.verdicts[0]?.failure).toMatchObject({ patternId: "Q5", type: "read" });
    expect(judgement.verdicts[0]?.caughtBy.map((issue) => issue.code)).toEqual(["evaluate.patternNotServed"]);
    expect(judgement.verdict).toBe("caught");
  }, 60_000);

  // The 300 + 300 run of 2026-11-29 found these silent; each cause is fixed where it lies.
  it("the designs and mutations the full run found silent are passed or caught (independent seeds)", async () => {
    const independent = generatorSource("independent", generateIndependentWorkload);
    const subjectOf = (seed: number): MutationSubject => {
      const drawn = independent.draw(seed);
      const loaded = loadWorkload(drawn.text);
      if (!loaded.ok) throw new Error(`independent seed ${seed} does not load`);
      const modelText = serializeModel(designModel(loaded.value).model);
      const model = loadModel(modelText, { workload: loaded.value });
      if (!model.ok) throw new Error(`the design of independent seed ${seed} does not load back`);
      return { workloadDocument: drawn.document, workload: loaded.value, modelText, model: model.value };
    };
    // Designs that read account replicas across every replica (each account 4 times).
    for (const seed of [61, 92]) {
      const subject = subjectOf(seed);
      const judgement = await judgeModel(endpoint, subject.workload, subject.modelText);
      expect(judgement.verdicts, `independent seed ${seed}`).toEqual([]);
    }
    const judged = async (seed: number, description: string) => {
      const subject = subjectOf(seed);
      const mutation = mutationsOf(subject).find((m) => m.description === description);
      if (mutation === undefined) throw new Error(`independent seed ${seed} has no mutation ${description}`);
      return judgeModel(endpoint, mutation.workloadText ?? subject.workload, mutation.modelText);
    };
    // A many-to-many copy source keyed by an attribute writes change: its move's delete would
    // empty the copies. Refused when the model loads.
    const moved = await judged(23, "tags/tag: id {tagId} -> {label}");
    expect(moved.verdict).toBe("rejected");
    expect(moved.rejection?.issues.map((issue) => issue.code)).toContain("model.keyChangedInPlace");
    // A folder moved under the same id to another second-level key: the embedded endpoint refuses
    // it (keyed by the first level), so its reads and their pages are not checkable there.
    const collided = await judged(72, "relationship Member -> Folder via reporterId: via slug instead");
    expect(collided.verdicts.filter((v) => v.status === "silent")).toEqual([]);
  }, 120_000);

  it("the sample has no silent failure", async () => {
    const subjects = DIFFERENTIAL_SAMPLE.seeds.map(designedSubject);
    for (const [index, subject] of subjects.entries()) {
      const judgement = await judgeModel(endpoint, subject.workload, subject.modelText);
      expect(judgement.verdicts, `seed ${DIFFERENTIAL_SAMPLE.seeds[index]}`).toEqual([]);
    }
    const picked = spreadMutations(subjects.map(mutationsOf), DIFFERENTIAL_SAMPLE.mutations);
    for (const { subject, mutation } of picked) {
      const pair = subjects[subject];
      if (pair === undefined) continue;
      const judgement = await judgeModel(
        endpoint,
        mutation.workloadText ?? pair.workload,
        mutation.modelText,
      );
      const seed = DIFFERENTIAL_SAMPLE.seeds[subject];
      expect(judgement.verdict, `seed ${seed}, ${mutation.kind}: ${mutation.description}`).not.toBe("silent");
    }
  }, 600_000);
});
