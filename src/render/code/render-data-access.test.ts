/**
 * The generated data-access module: it compiles under the strict settings it promises for every
 * shared model, names a function after every access pattern, carries only the plans'
 * parameterized SQL, survives hostile user text, matches its golden files, agrees with the
 * model's own item materialization, and runs against the embedded Cosmos DB endpoint.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ChangeFeedStartFrom } from "@azure/cosmos";
import fc from "fast-check";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateModel } from "../../cost/evaluate.js";
import { loadModel } from "../../model/load-model.js";
import { computeShard, materializeItem } from "../../model/materialize-item.js";
import { renderKeyValue, renderTemplate } from "../../model/templates.js";
import type { Model } from "../../model/types.js";
import type { Plan, PlanStep } from "../../planner/types.js";
import { entitiesParentsFirst, generateDataset } from "../../synthetic/generate-records.js";
import { generateWriteRecord } from "../../synthetic/generate-writes.js";
import { mulberry32 } from "../../synthetic/random.js";
import { EXAMPLE_NAMES, readExample, readExampleWorkload } from "../../test-support/model-examples.js";
import { deployModel, type Deployment } from "../../verify/deploy.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "../../verify/endpoint.js";
import type { ReadPattern, Workload, WritePattern } from "../../workload/types.js";
import { camelIdentifier, commentText } from "./identifiers.js";
import { dataAccessNames, renderDataAccessModule } from "./render-data-access.js";

const OUTPUT_DIR = fileURLToPath(new URL("../../../test-output/render-code/", import.meta.url));
const GOLDEN_DIR = fileURLToPath(new URL("./__golden__/", import.meta.url));
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";

interface LoadedExample {
  readonly workload: Workload;
  readonly model: Model;
  readonly plans: readonly Plan[];
}

/** An example with one of its models, planned at the partition counts evaluate solves for. */
function loadExampleModel(
  name: string,
  modelFile = "expert-model.yaml",
  workload = readExampleWorkload(name),
): LoadedExample {
  const loaded = loadModel(readExample(`${name}/${modelFile}`), { file: modelFile, workload });
  if (!loaded.ok) throw new Error(`${name}/${modelFile}: ${JSON.stringify(loaded.issues)}`);
  const plans = evaluateModel(workload, loaded.value).patterns.map((pattern) => pattern.plan);
  return { workload, model: loaded.value, plans };
}

const STRICT_OPTIONS: ts.CompilerOptions = {
  noEmit: true,
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  skipLibCheck: true,
  types: ["node"],
};

function writeSource(dir: string, name: string, text: string, extension = "ts"): string {
  const folder = join(OUTPUT_DIR, dir);
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${name}.${extension}`);
  writeFileSync(file, text);
  return file;
}

/** Type-checks files in one program; the diagnostics of each file, formatted. */
function compileStrict(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const program = ts.createProgram([...files.values()], STRICT_OPTIONS);
  const nameOf = new Map([...files].map(([name, file]) => [file, name]));
  const byFile = new Map<string, string[]>([...files.keys()].map((name) => [name, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName;
    const name = (file === undefined ? undefined : nameOf.get(file)) ?? "(global)";
    const line =
      diagnostic.file !== undefined && diagnostic.start !== undefined
        ? `:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}`
        : "";
    byFile.set(name, [
      ...(byFile.get(name) ?? []),
      `${name}${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
    ]);
  }
  return byFile;
}

/** Transpiles a module to an importable .mjs under test-output/ and imports it. */
async function importGenerated(name: string, source: string): Promise<Record<string, unknown>> {
  const output = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = writeSource("runtime", name, output, "mjs");
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

function allSteps(steps: readonly PlanStep[]): PlanStep[] {
  return steps.flatMap((step) =>
    step.kind === "batch"
      ? [step, ...step.operations]
      : step.kind === "changeFeed"
        ? [step, ...allSteps(step.steps)]
        : [step],
  );
}

function planSql(plans: readonly Plan[]): Set<string> {
  const sql = new Set<string>();
  for (const plan of plans) {
    const steps = plan.type === "read" ? plan.operations : [...plan.operations, ...plan.async];
    for (const step of allSteps(steps)) if (step.kind === "query") sql.add(step.sql);
  }
  return sql;
}

/** Every string literal of a TypeScript source (template literals too). */
function stringLiterals(source: string): string[] {
  const file = ts.createSourceFile("x.ts", source, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
    if (ts.isTemplateExpression(node)) out.push(node.getText());
    node.forEachChild(visit);
  };
  visit(file);
  return out;
}

const MODELS: readonly (readonly [string, string, string])[] = [
  ...EXAMPLE_NAMES.map((name) => [name, name, "expert-model.yaml"] as const),
  ["blogging-v1", "blogging", "model-v1.yaml"],
  ["blogging-v2", "blogging", "model-v2.yaml"],
  ["blogging-v3", "blogging", "model-v3.yaml"],
];

const HOSTILE_NAMES = [
  'Retrieve a "user" `now` */ console.log(1) /*',
  "List ${posts}\nwith newlines\r\nand */ comment ends",
  "Ünïcödé — 'quotes' \\ backslash \u2028 separator",
  "123 starts with digits",
  "delete",
];

/** The blogging workload with hostile access pattern names (same ids, same plans). */
function hostileBlogging(): Workload {
  const workload = readExampleWorkload("blogging");
  return {
    ...workload,
    name: 'Blog */ "platform" `x`',
    accessPatterns: workload.accessPatterns.map((pattern, index) => ({
      ...pattern,
      name: HOSTILE_NAMES[index % HOSTILE_NAMES.length] ?? pattern.name,
    })),
  };
}

describe("renderDataAccessModule", () => {
  const generated = new Map<string, { example: LoadedExample; source: string }>();
  beforeAll(() => {
    for (const [label, name, file] of MODELS) {
      const example = loadExampleModel(name, file);
      generated.set(label, {
        example,
        source: renderDataAccessModule(example.workload, example.model, example.plans),
      });
    }
    const hostile = loadExampleModel("blogging", "expert-model.yaml", hostileBlogging());
    generated.set("hostile", {
      example: hostile,
      source: renderDataAccessModule(hostile.workload, hostile.model, hostile.plans),
    });
  });

  it("compiles for every shared model under strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes, NodeNext", () => {
    const files = new Map(
      [...generated].map(([label, { source }]) => [label, writeSource("compile", label, source)]),
    );
    // A program that calls the generated API as verify will, to check its exported types.
    files.set(
      "usage",
      writeSource(
        "compile",
        "usage",
        [
          'import { CosmosClient } from "@azure/cosmos";',
          'import { createDataAccess, startChangeFeedProcessors, type ReadResult, type WriteResult } from "./blogging.js";',
          'const database = new CosmosClient({ endpoint: "http://127.0.0.1:1", key: "k" }).database("d");',
          "const access = createDataAccess(database, { transactionalBatch: false, random: () => 0.5 });",
          'const read: Promise<ReadResult> = access.q1RetrieveAUser({ userId: "u1" });',
          'const write: Promise<WriteResult> = access.c1CreateOrEditAUser({ userId: "u1", username: "ann" });',
          "void read; void write;",
          'void access.applyChanges([{ container: "posts", itemType: "post", kind: "create", item: { id: "p" } }]);',
          'void access.handlePostsPostChanges([{ kind: "upsert", item: { id: "p" } }]);',
          'const processors = startChangeFeedProcessors(database, access, { mode: "allVersionsAndDeletes", pollMs: 10 });',
          "void processors.stop();",
        ].join("\n"),
      ),
    );
    const diagnostics = compileStrict(files);
    expect([...diagnostics.values()].flat()).toEqual([]);
  }, 60_000);

  it("has one function per access pattern, named from its id and name", () => {
    for (const [label, { example, source }] of generated) {
      const names = dataAccessNames(example.workload, []);
      for (const pattern of example.workload.accessPatterns) {
        const name = names.patterns.get(pattern.id);
        expect(name, `${label} ${pattern.id}`).toMatch(/^[A-Za-z_$][A-Za-z0-9_$]*$/);
        expect(source, `${label} ${pattern.id}`).toContain(`async ${name ?? ""}(`);
      }
    }
    const blogging = generated.get("blogging")?.source ?? "";
    expect(blogging).toContain(
      '"Q3": { function: "q3ListAUsersPostsInShortForm", type: "read", entity: "Post", served: true },',
    );
    expect(blogging).toContain("async q3ListAUsersPostsInShortForm(input: ");
    expect(blogging).toContain("const handlePostsPostChanges = async (changes: readonly ItemChange[])");
  });

  it("carries only the plans' parameterized SQL, never values interpolated into a query", () => {
    for (const [label, { example, source }] of generated) {
      expect(source, label).not.toMatch(/`[^`]*SELECT[^`]*\$\{/);
      const literals = stringLiterals(source);
      const expected = planSql(example.plans);
      for (const sql of expected) expect(literals, `${label}: ${sql}`).toContain(sql);
      const queries = literals.filter((text) => /\bSELECT\b/.test(text));
      for (const sql of queries) {
        // Besides the plans' queries: the COUNT(1) a trim needs over the partition it trims.
        const allowed = expected.has(sql) || /^SELECT VALUE COUNT\(1\) FROM c WHERE [^'"]*$/.test(sql);
        expect(allowed, `${label}: unexpected SQL ${sql}`).toBe(true);
      }
    }
  });

  it("keeps hostile pattern names inside comments and identifiers", () => {
    const { source } = generated.get("hostile") ?? { source: "" };
    expect(source).not.toContain("console.log(1)*/");
    expect(source).not.toMatch(/\/\*\*[^]*?\*\/ console\.log/);
    for (const line of source.split("\n")) {
      if (line.includes("console.log(1)")) expect(line).toMatch(/^\s*\* /);
    }
    const file = ts.createSourceFile("hostile.ts", source, ts.ScriptTarget.ES2022, true);
    const calls: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) calls.push(node.expression.getText());
      node.forEachChild(visit);
    };
    visit(file);
    expect(calls).not.toContain("console.log");
    const names = dataAccessNames(hostileBlogging(), []);
    for (const name of names.patterns.values()) {
      expect(name).toMatch(/^[A-Za-z_$][A-Za-z0-9_$]*$/);
      expect(source).toContain(`async ${name}(`);
    }
    expect(camelIdentifier("123 starts with digits", "pattern")).toBe("pattern123StartsWithDigits");
    expect(camelIdentifier("List a user's posts")).toBe("listAUsersPosts");
    expect(commentText("a */ b\nc")).toBe("a *\\/ b c");
  });

  it.each(EXAMPLE_NAMES)("matches the golden module of %s", (name) => {
    const source = generated.get(name)?.source ?? "";
    const file = join(GOLDEN_DIR, name, "data-access.ts.txt");
    if (UPDATE || !existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, source);
      if (!UPDATE) throw new Error(`golden file ${file} was missing and has been written: check it in`);
      return;
    }
    expect(source, `${name}: differs from its golden file (UPDATE_GOLDEN=1 rewrites it)`).toBe(
      readFileSync(file, "utf8"),
    );
  });

  it("is the same text for the same inputs", () => {
    const example = loadExampleModel("social-reactions");
    expect(renderDataAccessModule(example.workload, example.model, example.plans)).toBe(
      generated.get("social-reactions")?.source,
    );
  });
});

type Generated = Record<string, unknown> & {
  readonly itemTypes: Record<string, unknown>;
  readonly computeShard: (value: string, shards: number) => number;
  readonly renderTemplate: (template: string, values: unknown) => string;
  readonly renderKeyValue: (template: string, values: unknown) => unknown;
  readonly materializeItem: (shape: unknown, record: unknown, related: unknown) => unknown;
};

describe("the helpers emitted with the module", () => {
  it.each(EXAMPLE_NAMES)(
    "agree with the model's materializeItem, templates and shards (%s)",
    async (name) => {
      const example = loadExampleModel(name);
      const module = (await importGenerated(
        `helpers-${name}`,
        renderDataAccessModule(example.workload, example.model, example.plans),
      )) as Generated;
      const dataset = generateDataset(example.workload, { seed: 7, maxItemsPerEntity: 12 });
      let compared = 0;
      for (const container of example.model.containers) {
        for (const item of container.items) {
          const shape = module.itemTypes[`${container.name}/${item.type}`];
          expect(shape, `${container.name}/${item.type}`).toBeDefined();
          if (item.bucket?.kind === "records") continue;
          const copies = Object.fromEntries(
            item.copies.map((copy) => [copy.from.entity, dataset.entities[copy.from.entity]?.[0] ?? {}]),
          );
          for (const record of (dataset.entities[item.entity] ?? []).slice(0, 5)) {
            const related = {
              copies: { ...copies },
              counts: Object.fromEntries(item.counts.map((counter, index) => [counter.of, index + 3])),
              embeds: Object.fromEntries(
                item.embeds.map((embed) => [
                  embed.entity,
                  (dataset.entities[embed.entity] ?? []).slice(0, 3),
                ]),
              ),
              ancestors: ["root"],
              ...(item.replicas === undefined ? {} : { replica: item.replicas - 1 }),
            };
            let fullRelated = related;
            if (item.source !== undefined) {
              // A copy inherits its source's copies: give every entity any copy in the chain needs.
              const all = example.model.containers.flatMap((c) => c.items).flatMap((i) => i.copies);
              fullRelated = {
                ...related,
                copies: Object.fromEntries(
                  all.map((copy) => [copy.from.entity, dataset.entities[copy.from.entity]?.[0] ?? {}]),
                ),
              };
            }
            const expected = materializeItem(item, container, record, {
              ...fullRelated,
              model: example.model,
            });
            expect(
              module.materializeItem(shape, record, fullRelated),
              `${container.name}/${item.type}`,
            ).toEqual(expected);
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(0);
      fc.assert(
        fc.property(fc.string({ unit: "grapheme" }), fc.integer({ min: 1, max: 64 }), (value, shards) => {
          expect(module.computeShard(value, shards)).toBe(computeShard(value, shards));
        }),
      );
      const templates = example.model.containers.flatMap((c) =>
        c.items.flatMap((i) => [i.id, ...i.partitionKey]),
      );
      const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean());
      fc.assert(
        fc.property(
          fc.constantFrom(...templates),
          fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), scalar),
          scalar,
          fc.integer({ min: 0, max: 30 }),
          (template, extra, value, number) => {
            const attributes: Record<string, unknown> = { ...extra };
            for (const match of template.matchAll(/\{([^{}]+)\}/g)) attributes[match[1] ?? ""] = value;
            const values = { attributes, shard: number, replica: number, bucket: "2026-11-22T10:15:00Z" };
            expect(module.renderTemplate(template, values)).toBe(renderTemplate(template, values));
            expect(module.renderKeyValue(template, values)).toEqual(renderKeyValue(template, values));
          },
        ),
        { numRuns: 200 },
      );
    },
  );
});

interface Access {
  [name: string]: (
    input: unknown,
    related?: unknown,
  ) => Promise<{
    items?: Record<string, unknown>[];
    item?: Record<string, unknown>;
    changes?: unknown[];
    followUps?: { items: Record<string, unknown>[] }[];
    requestCharge: number;
  }>;
}

describe("the generated blogging module on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint | undefined;
  let deployment: Deployment | undefined;
  let access: Access;
  beforeAll(async () => {
    endpoint = await startEmbeddedEndpoint();
    const example = loadExampleModel("blogging");
    deployment = await deployModel(endpoint.client, example.model);
    const module = await importGenerated(
      "embedded-blogging",
      renderDataAccessModule(example.workload, example.model, example.plans),
    );
    const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
    let turn = 0;
    // The embedded endpoint has no patch in batches: one request per operation.
    access = create(deployment.database, { transactionalBatch: false, random: () => (turn++ % 8) / 8 });
  }, 30_000);
  afterAll(async () => {
    await deployment?.remove();
    await endpoint?.close();
  });

  const call = (name: string, input: unknown, related?: unknown) => {
    const fn = access[name];
    if (fn === undefined) throw new Error(`no function ${name}`);
    return fn(input, related);
  };

  it("writes through the write functions, maintains copies and counters, and reads back Q1, Q2, Q3 and Q6", async () => {
    const user = { userId: "u1", username: "ann" };
    const post = {
      postId: "p1",
      userId: "u1",
      title: "Hello",
      content: "x".repeat(300),
      creationDate: "2026-11-22T01:00:00Z",
    };
    await call("c1CreateOrEditAUser", user);
    const written = await call("c2CreateOrEditAPost", post);
    // The embedded endpoint has no working change feed: run the post's handler directly.
    const handled = await call("handlePostsPostChanges", written.changes);
    expect(handled.changes?.length).toBe(1 + 8); // users/post and the 8 feed replicas

    const q1 = await call("q1RetrieveAUser", { userId: "u1" });
    expect(q1.item).toMatchObject({ id: "u1", userId: "u1", type: "user", username: "ann" });
    const q2 = await call("q2RetrieveAPostWithItsAuthorsUsernameAndItsCommentAndLikeCounts", {
      postId: "p1",
    });
    expect(q2.item).toMatchObject({
      id: "p1",
      postId: "p1",
      userUsername: "ann",
      commentCount: 0,
      likeCount: 0,
    });
    expect(q2.item?.["content"]).toBe(post.content);
    const q3 = await call("q3ListAUsersPostsInShortForm", { userId: "u1" });
    expect(q3.items).toHaveLength(1);
    expect(q3.items?.[0]).toMatchObject({
      postId: "p1",
      title: "Hello",
      userUsername: "ann",
      content: "x".repeat(200),
    });
    for (let read = 0; read < 8; read++) {
      // Each read picks another replica (the random source cycles through 0..7).
      const q6 = await call("q6ListThe100MostRecentPostsInShortFormTheFeed", {});
      expect(q6.items?.map((item) => item["postId"])).toEqual(["p1"]);
    }

    // A comment: the comment and the post's counter (one by one here), then the copies follow.
    const comment = await call("c3CreateAComment", {
      commentId: "c1",
      postId: "p1",
      userId: "u1",
      content: "nice",
      creationDate: "2026-11-22T01:05:00Z",
    });
    await call("applyChanges", comment.changes);
    const q2After = await call("q2RetrieveAPostWithItsAuthorsUsernameAndItsCommentAndLikeCounts", {
      postId: "p1",
    });
    expect(q2After.item).toMatchObject({ commentCount: 1 });
    const q3After = await call("q3ListAUsersPostsInShortForm", { userId: "u1" });
    expect(q3After.items?.[0]).toMatchObject({ commentCount: 1 });
    const q4 = await call("q4ListAPostsCommentsWithTheirAuthorsUsernames", { postId: "p1" });
    expect(q4.items?.[0]).toMatchObject({ commentId: "c1", userUsername: "ann" });

    // A new username propagates to the post and comment copies, and on to the users and feed copies.
    const renamed = await call("c1CreateOrEditAUser", { userId: "u1", username: "bea" });
    await call("applyChanges", renamed.changes);
    const q2Renamed = await call("q2RetrieveAPostWithItsAuthorsUsernameAndItsCommentAndLikeCounts", {
      postId: "p1",
    });
    expect(q2Renamed.item).toMatchObject({ userUsername: "bea", commentCount: 1 });
    const q6Renamed = await call("q6ListThe100MostRecentPostsInShortFormTheFeed", {});
    expect(q6Renamed.items?.[0]).toMatchObject({ userUsername: "bea" });
    const q4Renamed = await call("q4ListAPostsCommentsWithTheirAuthorsUsernames", { postId: "p1" });
    expect(q4Renamed.items?.[0]).toMatchObject({ userUsername: "bea" });
  }, 60_000);
});

describe("transactional batches", () => {
  interface BatchCall {
    readonly container: string;
    readonly operations: readonly Record<string, unknown>[];
    readonly partitionKey: unknown;
  }

  /** A database stand-in: point reads answer from `items`, batches are recorded and answered. */
  function stubDatabase(items: Record<string, Record<string, unknown>>, batchStatus: number) {
    const batches: BatchCall[] = [];
    const database = {
      container: (name: string) => ({
        item: (id: string) => ({
          read: () =>
            Promise.resolve({ resource: items[`${name}/${id}`], requestCharge: 1, statusCode: 200 }),
        }),
        items: {
          batch: (operations: Record<string, unknown>[], partitionKey: unknown) => {
            batches.push({ container: name, operations, partitionKey });
            return Promise.resolve({
              result: operations.map((operation, index) => ({
                statusCode: index === 0 ? batchStatus : 200,
                requestCharge: 5,
                resourceBody:
                  operation["operationType"] === "Patch"
                    ? { id: operation["id"], type: "post", postId: operation["id"], commentCount: 1 }
                    : operation["resourceBody"],
              })),
            });
          },
        },
      }),
    };
    return { database, batches };
  }

  const comment = {
    commentId: "c1",
    postId: "p1",
    userId: "u1",
    content: "nice",
    creationDate: "2026-11-22T01:05:00Z",
  };

  it("sends the comment and its post's counter as one batch in the post's partition", async () => {
    const example = loadExampleModel("blogging");
    const module = await importGenerated(
      "batch-blogging",
      renderDataAccessModule(example.workload, example.model, example.plans),
    );
    const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
    const { database, batches } = stubDatabase(
      { "users/u1": { id: "u1", userId: "u1", username: "ann" } },
      201,
    );
    const access = create(database, { transactionalBatch: true });
    const result = await access["c3CreateAComment"]?.(comment);
    expect(batches).toEqual([
      {
        container: "posts",
        partitionKey: "p1",
        operations: [
          {
            operationType: "Create",
            partitionKey: "p1",
            resourceBody: {
              id: "c1",
              postId: "p1",
              type: "comment",
              commentId: "c1",
              userId: "u1",
              content: "nice",
              creationDate: "2026-11-22T01:05:00Z",
              userUsername: "ann",
            },
          },
          {
            operationType: "Patch",
            id: "p1",
            partitionKey: "p1",
            resourceBody: { operations: [{ op: "incr", path: "/commentCount", value: 1 }] },
          },
        ],
      },
    ]);
    // 1 RU for reading the author's username, 5 + 5 for the batch's two operations.
    expect(result?.requestCharge).toBe(11);
    expect(result?.changes).toMatchObject([
      { container: "posts", itemType: "comment", kind: "create", item: { id: "c1" } },
      { container: "posts", itemType: "post", kind: "update", item: { id: "p1", commentCount: 1 } },
    ]);
    const { database: failing } = stubDatabase(
      { "users/u1": { id: "u1", userId: "u1", username: "ann" } },
      409,
    );
    await expect(
      create(failing, { transactionalBatch: true })["c3CreateAComment"]?.(comment),
    ).rejects.toThrow("transactional batch failed: operation 0 answered 409");
  });
});

describe("the generated accounts-sessions module on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint | undefined;
  let deployment: Deployment | undefined;
  afterAll(async () => {
    await deployment?.remove();
    await endpoint?.close();
  });

  it("finds an account through its email lookup item and moves the lookup when the email changes", async () => {
    endpoint = await startEmbeddedEndpoint();
    const example = loadExampleModel("accounts-sessions");
    deployment = await deployModel(endpoint.client, example.model);
    const module = await importGenerated(
      "embedded-accounts",
      renderDataAccessModule(example.workload, example.model, example.plans),
    );
    const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
    const access = create(deployment.database, { transactionalBatch: false });
    const call = (name: string, input: unknown) => {
      const fn = access[name];
      if (fn === undefined) throw new Error(`no function ${name}`);
      return fn(input);
    };
    const account = {
      accountId: "a1",
      email: "ann@example.com",
      passwordHash: "h1",
      displayName: "Ann",
      status: "active",
      emailVerified: true,
      mfaEnabled: false,
      createdAt: "2026-11-22T01:00:00Z",
    };
    await call("c1SignUpCreateAnAccountWithAUniqueEmail", account);
    const find = "q1FindAnAccountByEmailSignInSignUpCheckPasswordResetRequest";
    const found = await call(find, { email: "ann@example.com" });
    // The lookup item holds the email and the account id; the answer is the complete account.
    expect(found.items).toMatchObject([{ id: "a1", type: "account", displayName: "Ann" }]);
    const changed = await call("c2UpdateAnAccountProfilePasswordEmailChangeVerification", {
      ...account,
      email: "bea@example.com",
    });
    expect(changed.changes?.map((c) => (c as { kind: string; itemType: string }).itemType)).toEqual([
      "emailLookup",
      "emailLookup",
      "account",
    ]);
    expect((await call(find, { email: "bea@example.com" })).items).toMatchObject([
      { id: "a1", email: "bea@example.com" },
    ]);
    expect((await call(find, { email: "ann@example.com" })).items).toEqual([]);
    // The lookup keeps emails unique: another account cannot take bea@example.com.
    await call("c1SignUpCreateAnAccountWithAUniqueEmail", {
      ...account,
      accountId: "a2",
      email: "cid@example.com",
    });
    await expect(
      call("c2UpdateAnAccountProfilePasswordEmailChangeVerification", {
        ...account,
        accountId: "a2",
        email: "bea@example.com",
      }),
    ).rejects.toMatchObject({ code: 409 });
  }, 30_000);
});

describe("the change feed processors on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint | undefined;
  let deployment: Deployment | undefined;
  afterAll(async () => {
    await deployment?.remove();
    await endpoint?.close();
  });

  it("read the posts container's feed and keep the users and feed copies", async () => {
    endpoint = await startEmbeddedEndpoint();
    const example = loadExampleModel("blogging");
    deployment = await deployModel(endpoint.client, example.model);
    const module = await importGenerated(
      "feed-blogging",
      renderDataAccessModule(example.workload, example.model, example.plans),
    );
    const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
    const start = module["startChangeFeedProcessors"] as (
      database: unknown,
      access: Access,
      options: unknown,
    ) => { stop(): Promise<void> };
    const access = create(deployment.database, { transactionalBatch: false });
    await access["c1CreateOrEditAUser"]?.({ userId: "u1", username: "ann" });
    await access["c2CreateOrEditAPost"]?.({
      postId: "p1",
      userId: "u1",
      title: "Hello",
      content: "text",
      creationDate: "2026-11-22T01:00:00Z",
    });
    const errors: unknown[] = [];
    // The embedded feed returns everything on its first read (and nothing new afterwards).
    const processors = start(deployment.database, access, {
      startFrom: ChangeFeedStartFrom.Beginning(),
      pollMs: 20,
      onError: (error: unknown) => errors.push(error),
    });
    let copies: unknown[] = [];
    for (let attempt = 0; attempt < 100 && copies.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      copies = (await access["q3ListAUsersPostsInShortForm"]?.({ userId: "u1" }))?.items ?? [];
    }
    await processors.stop();
    expect(errors).toEqual([]);
    expect(copies).toMatchObject([{ postId: "p1", userUsername: "ann" }]);
  }, 30_000);
});

describe("the generated social-reactions module on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint | undefined;
  let deployment: Deployment | undefined;
  let access: Access;
  beforeAll(async () => {
    endpoint = await startEmbeddedEndpoint();
    const example = loadExampleModel("social-reactions");
    deployment = await deployModel(endpoint.client, example.model);
    const module = await importGenerated(
      "embedded-social",
      renderDataAccessModule(example.workload, example.model, example.plans),
    );
    const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
    access = create(deployment.database, { transactionalBatch: false });
  }, 30_000);
  afterAll(async () => {
    await deployment?.remove();
    await endpoint?.close();
  });

  const call = (name: string, input: unknown) => {
    const fn = access[name];
    if (fn === undefined) throw new Error(`no function ${name}`);
    return fn(input);
  };

  it("keeps reactions in write shards, counts them from the change feed and reads them across shards", async () => {
    await call("c1CreateAUserOrEditTheirProfile", {
      userId: "u1",
      displayName: "Ann",
      avatarUrl: "a",
      bio: "b",
    });
    await call("c2PublishAPost", {
      postId: "p1",
      authorId: "u1",
      text: "hi",
      mediaUrls: [],
      createdAt: "2026-11-22T01:00:00Z",
    });
    const reaction = {
      reactionId: "r1",
      postId: "p1",
      userId: "u1",
      kind: "like",
      createdAt: "2026-11-22T01:01:00Z",
    };
    const reacted = await call("c3ReactToAPostAddAReactionOrChangeItsKind", reaction);
    const stored = reacted.changes?.[0] as { item: Record<string, unknown> } | undefined;
    // The shard is FNV-1a of the userId mod 20, as the model's computeShard says.
    expect(stored?.item["postShard"]).toBe(`p1-${computeShard("u1", 20)}`);
    await call("applyChanges", reacted.changes);
    // Changing the kind of the same reaction is an update (the upsert answers 200): not counted again.
    const changed = await call("c3ReactToAPostAddAReactionOrChangeItsKind", { ...reaction, kind: "love" });
    expect(changed.changes?.map((change) => (change as { kind: string }).kind)).toEqual(["update"]);
    await call("applyChanges", changed.changes);
    const q1 = await call("q1GetAPostWithItsReactionCountsAndItsAuthorsDisplayName", { postId: "p1" });
    expect(q1.item).toMatchObject({ authorDisplayName: "Ann", reactionCount: 1 });
    const q2 = await call("q2GetTheSignedInUsersReactionToAPost", { postId: "p1", userId: "u1" });
    expect(q2.item).toMatchObject({ kind: "love" });
    const q3 = await call("q3ListWhoReactedToAPostNewestFirstWithDisplayNames50PerPage", { postId: "p1" });
    expect(q3.items?.map((item) => item["userId"])).toEqual(["u1"]);
    expect(q3.followUps?.[0]?.items).toEqual([{ userId: "u1", displayName: "Ann" }]);
    const removed = await call("c4RemoveAReaction", reaction);
    await call("applyChanges", removed.changes);
    const q1After = await call("q1GetAPostWithItsReactionCountsAndItsAuthorsDisplayName", { postId: "p1" });
    expect(q1After.item).toMatchObject({ reactionCount: 0 });
  }, 60_000);
});

/** A read input for `pattern` from a record of its entity (eq, in, range, prefix, contains). */
function readInput(pattern: ReadPattern, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const predicate of pattern.where) {
    const value = record[predicate.attribute];
    switch (predicate.op) {
      case "eq":
        input[predicate.attribute] = value;
        break;
      case "in":
        input[predicate.attribute] = [value];
        break;
      case "range":
        input[predicate.attribute] =
          typeof value === "number" ? { from: value, to: value + 1 } : { from: value, to: "9999" };
        break;
      case "prefix":
        input[predicate.attribute] = typeof value === "string" ? value.slice(0, 2) : "";
        break;
      case "contains":
        input[predicate.attribute] = Array.isArray(value) ? value[0] : value;
        break;
      default:
        return predicate.op satisfies never;
    }
  }
  return input;
}

describe.each(EXAMPLE_NAMES)("every function of the %s module on the embedded endpoint", (name) => {
  let endpoint: CosmosEndpoint | undefined;
  let deployment: Deployment | undefined;
  afterAll(async () => {
    await deployment?.remove();
    await endpoint?.close();
  });

  it("writes records through the write patterns, applies the changes and answers every read pattern", async () => {
    endpoint = await startEmbeddedEndpoint();
    const example = loadExampleModel(name);
    deployment = await deployModel(endpoint.client, example.model);
    const module = await importGenerated(
      `smoke-${name}`,
      renderDataAccessModule(example.workload, example.model, example.plans),
    );
    const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
    const access = create(deployment.database, { transactionalBatch: false });
    const names = dataAccessNames(example.workload, []);
    const full = generateDataset(example.workload, { seed: 3, maxItemsPerEntity: 20 });
    // The parent records of a child record (for parent items keyed by what the child lacks).
    const parentsOf = (entity: string, record: Readonly<Record<string, unknown>>) => {
      const parents: Record<string, unknown> = {};
      for (const relationship of example.workload.relationships) {
        if (relationship.child !== entity || relationship.via === undefined) continue;
        const key = example.workload.entities.find((e) => e.name === relationship.parent)?.key ?? "";
        const parent = full.entities[relationship.parent]?.find(
          (r) => r[key] === record[relationship.via ?? ""],
        );
        if (parent !== undefined) parents[relationship.parent] = parent;
      }
      return { parents };
    };
    const run = async (id: string, input: Readonly<Record<string, unknown>>) => {
      const fn = access[names.patterns.get(id) ?? ""];
      if (fn === undefined) throw new Error(`no function for ${id}`);
      const pattern = example.workload.accessPatterns.find((p) => p.id === id);
      const result = await fn(
        input,
        pattern?.type === "write" ? parentsOf(pattern.entity, input) : undefined,
      );
      if (result.changes !== undefined) await access["applyChanges"]?.(result.changes);
      return result;
    };
    const written: Record<string, Readonly<Record<string, unknown>>[]> = {};
    // Parents first, a few records each, through the entity's create (or upsert) pattern.
    for (const entity of entitiesParentsFirst(example.workload)) {
      const creator = example.workload.accessPatterns.find(
        (p): p is WritePattern =>
          p.type === "write" &&
          p.entity === entity.name &&
          (p.operation === "create" || p.operation === "upsert"),
      );
      if (creator === undefined) continue;
      const records = (full.entities[entity.name] ?? []).slice(0, 3);
      for (const record of records) await run(creator.id, record);
      written[entity.name] = records;
    }
    const dataset = { seed: 3, entities: written };
    const rng = mulberry32(11);
    for (const pattern of example.workload.accessPatterns) {
      if (pattern.type !== "write" || pattern.operation === "delete") continue;
      const record = generateWriteRecord(example.workload, dataset, pattern, rng);
      if (record !== undefined) await run(pattern.id, record);
    }
    let answered = 0;
    for (const pattern of example.workload.accessPatterns) {
      if (pattern.type !== "read") continue;
      const plan = example.plans.find((p) => p.patternId === pattern.id);
      const record = written[pattern.entity]?.[0];
      if (record === undefined || plan?.served !== true) continue;
      const result = await run(pattern.id, readInput(pattern, record));
      expect(Array.isArray(result.items), pattern.id).toBe(true);
      if ((result.items?.length ?? 0) > 0) answered++;
    }
    expect(answered).toBeGreaterThan(0);
    for (const pattern of example.workload.accessPatterns) {
      if (pattern.type !== "write" || pattern.operation !== "delete") continue;
      const record = generateWriteRecord(example.workload, dataset, pattern, rng);
      if (record !== undefined) await run(pattern.id, record);
    }
  }, 60_000);
});
