/**
 * The generated data-access module: it compiles under the strict settings it promises for every
 * example model, names a function after every access pattern, carries only the plans'
 * parameterized SQL, survives hostile user text and agrees with the model's own item
 * materialization through the runtime it ships with. (Its runs against the embedded endpoint are in
 * `verify/generated-data-access.test.ts`; its golden files are those of `design --out` and
 * `render`, src/deliverables/golden.test.ts.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import type { Plan, PlanStep } from "../../planner/types.js";
import type { FeedSource } from "../../runtime/feed-source.js";
import {
  importGenerated,
  loadExampleModel,
  writeFiles,
  type LoadedExample,
} from "../../test-support/generated-module.js";
import { EXAMPLE_NAMES, readExampleWorkload } from "../../test-support/model-examples.js";
import type { Workload } from "../../workload/types.js";
import { camelIdentifier, commentText } from "./identifiers.js";
import {
  dataAccessNames,
  renderDataAccessFiles,
  renderDataAccessModule,
  RUNTIME_FOLDER,
} from "./render-data-access.js";
import { GENERATED_COMPILER_OPTIONS } from "./render-project.js";

/**
 * The generated project's own compiler options (its tsconfig.json: strict,
 * noUncheckedIndexedAccess, exactOptionalPropertyTypes, NodeNext), without emitting: the files
 * here are laid out under test-output/ rather than the project's src/ (the project as written is
 * built by src/deliverables/generated-project.test.ts).
 */
function generatedProjectOptions(): ts.CompilerOptions {
  const {
    rootDir: _rootDir,
    outDir: _outDir,
    declaration: _declaration,
    ...checks
  } = GENERATED_COMPILER_OPTIONS;
  const converted = ts.convertCompilerOptionsFromJson(checks, ".");
  expect(converted.errors).toEqual([]);
  return { ...converted.options, noEmit: true };
}

/** Type-checks files in one program; the diagnostics of each file, formatted. */
function compileStrict(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const program = ts.createProgram([...files.values()], generatedProjectOptions());
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

  it("compiles for every example model under the generated tsconfig (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes, NodeNext)", () => {
    const files = new Map(
      [...generated].map(([label, { example, source }]) => {
        const folder = writeFiles("compile", label, [
          { path: "data-access.ts", content: source },
          ...renderDataAccessFiles(example.workload, example.model, example.plans).slice(1),
        ]);
        return [label, join(folder, "data-access.ts")];
      }),
    );
    // A program that calls the generated API as verify will, to check its exported types.
    files.set(
      "usage",
      join(
        writeFiles("compile", "usage", [
          {
            path: "usage.ts",
            content: [
              'import { CosmosClient } from "@azure/cosmos";',
              'import { containerCheckpointStore, containerDeadLetterStore, createDataAccess, startChangeFeedProcessors, type ReadResult, type WriteResult } from "../blogging/data-access.js";',
              'const database = new CosmosClient({ endpoint: "http://127.0.0.1:1", key: "k" }).database("d");',
              "const access = createDataAccess(database, { transactionalBatch: false, random: () => 0.5 });",
              'const read: Promise<ReadResult> = access.q1RetrieveAUser({ userId: "u1" });',
              'const write: Promise<WriteResult> = access.c1CreateOrEditAUser({ userId: "u1", username: "ann" });',
              "void read; void write;",
              'void access.applyChanges([{ container: "posts", itemType: "post", kind: "create", item: { id: "p" } }]);',
              'void access.handlePostsPostChanges([{ kind: "upsert", item: { id: "p" } }]);',
              'const processors = startChangeFeedProcessors(database, access, { checkpoints: containerCheckpointStore(database.container("leases")), deadLetters: containerDeadLetterStore(database.container("leases")), pollIntervalMs: 10, maxAttempts: 3 });',
              "void processors.stop();",
            ].join("\n"),
          },
        ]),
        "usage.ts",
      ),
    );
    // Writes take what fits them: a patch the key and its changes, a delete the key; each line
    // expected to fail to type-check fails the compile when the input is wider (or narrower).
    files.set(
      "usage-inputs",
      join(
        writeFiles("compile", "usage-inputs", [
          {
            path: "usage-inputs.ts",
            content: [
              'import { CosmosClient } from "@azure/cosmos";',
              'import { createDataAccess as shop, type Increment } from "../ecommerce/data-access.js";',
              'import { createDataAccess as reactions } from "../social-reactions/data-access.js";',
              'const database = new CosmosClient({ endpoint: "http://127.0.0.1:1", key: "k" }).database("d");',
              "const store = shop(database);",
              "const social = reactions(database);",
              "const sold: Increment = { incr: -2, min: 0 };",
              'void store.c6UpdateAProductsStockDecrementForEachOrderedLineRestock({ productId: "p1", stock: sold });',
              'void store.c6UpdateAProductsStockDecrementForEachOrderedLineRestock({ productId: "p1", stock: 7 });',
              'void store.c5UpdateAnOrdersStatusPaymentShippingDeliveryReturns({ orderId: "o1", customerId: "c1", status: "shipped" });',
              'void social.c4RemoveAReaction({ postId: "p1", userId: "u1" });',
              "// @ts-expect-error a patch names its record by the key",
              "void store.c6UpdateAProductsStockDecrementForEachOrderedLineRestock({ stock: 7 });",
              "// @ts-expect-error a patch changes only what its pattern changes",
              'void store.c6UpdateAProductsStockDecrementForEachOrderedLineRestock({ productId: "p1", name: "x" });',
              "// @ts-expect-error a delete takes the key only",
              'void social.c4RemoveAReaction({ postId: "p1", userId: "u1", kind: "like" });',
              "// @ts-expect-error an upsert takes the whole record",
              'void store.c7CreateOrEditAProductCatalogManagementPriceChanges({ productId: "p1", stock: 7 });',
              "// The lines of an order go with the order's create, typed.",
              'const line = { lineId: "l1", orderId: "o1", productId: "p1", productName: "x", quantity: 1, unitPrice: 2 };',
              'const order = { orderId: "o1", customerId: "c1", orderDate: "2026-01-01T00:00:00Z", status: "placed", total: 2, currency: "EUR", shippingAddress: {}, paymentMethod: "card" };',
              "void store.c3PlaceAnOrder(order, { embeds: { OrderLine: [line] } });",
              "// @ts-expect-error the lines are OrderLine records",
              "void store.c3PlaceAnOrder(order, { embeds: { OrderLine: [{ lineId: 1 }] } });",
            ].join("\n"),
          },
        ]),
        "usage-inputs.ts",
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

  it("is the same text for the same inputs", () => {
    const example = loadExampleModel("social-reactions");
    expect(renderDataAccessModule(example.workload, example.model, example.plans)).toBe(
      generated.get("social-reactions")?.source,
    );
  });
});

describe("renderDataAccessFiles", () => {
  it("ships the module with the runtime's own source files, tests excluded", () => {
    const example = loadExampleModel("blogging");
    const files = renderDataAccessFiles(example.workload, example.model, example.plans);
    expect(files[0]?.path).toBe("data-access.ts");
    const runtimeDir = fileURLToPath(new URL("../../runtime/", import.meta.url));
    const expected = readdirSync(runtimeDir)
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .sort();
    const shipped = files.slice(1);
    expect(shipped.map((file) => file.path)).toEqual(expected.map((name) => `${RUNTIME_FOLDER}/${name}`));
    for (const file of shipped) {
      const name = file.path.slice(RUNTIME_FOLDER.length + 1);
      expect(file.content, `${name} is stale: run npm run build`).toBe(
        readFileSync(join(runtimeDir, name), "utf8"),
      );
    }
  });
});

describe("startChangeFeedProcessors of the generated module", () => {
  it("reads options.feed instead of the database's change feed when it is given", async () => {
    const example = loadExampleModel("blogging");
    const module = await importGenerated(
      "feed-option",
      renderDataAccessFiles(example.workload, example.model, example.plans),
    );
    const start = module["startChangeFeedProcessors"] as (
      database: unknown,
      access: { applyFeed: (container: string, entries: readonly unknown[]) => Promise<unknown> },
      options: unknown,
    ) => { ready: Promise<void>; stop(): Promise<void> };
    const memoryCheckpointStore = module["memoryCheckpointStore"] as () => unknown;
    const opened: string[] = [];
    const feed: FeedSource = {
      ranges: () => Promise.resolve([{ key: "..FF" }]),
      open(container, _range, continuation) {
        opened.push(container);
        let read = continuation !== undefined;
        return {
          read() {
            const changes = read ? [] : [{ id: `${container}-change` }];
            read = true;
            return Promise.resolve({ changes, continuation: "1", requestCharge: 1 });
          },
        };
      },
    };
    // A database that must not be touched: its change feed is not the one asked for.
    const database = new Proxy(
      {},
      {
        get: (_target, property) => {
          throw new Error(`the database was used (${String(property)}) although options.feed was given`);
        },
      },
    );
    const delivered: string[] = [];
    const errors: unknown[] = [];
    const processors = start(
      database,
      {
        applyFeed: (container, entries) => {
          delivered.push(...entries.map((entry) => `${container}: ${(entry as { id: string }).id}`));
          return Promise.resolve();
        },
      },
      {
        feed,
        checkpoints: memoryCheckpointStore(),
        pollIntervalMs: 2,
        onError: (error: unknown) => errors.push(error),
      },
    );
    await processors.ready;
    for (let wait = 0; wait < 500 && delivered.length < 1; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await processors.stop();
    expect(errors).toEqual([]);
    expect(opened.length).toBeGreaterThan(0);
    expect(delivered).toEqual(opened.map((container) => `${container}: ${container}-change`));
  });
});
