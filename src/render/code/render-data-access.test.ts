/**
 * The generated data-access module: it compiles under the strict settings it promises for every
 * example model, names a function after every access pattern, carries only the plans'
 * parameterized SQL, survives hostile user text and agrees with the model's own item
 * materialization. (Its runs against the embedded Cosmos DB endpoint are in
 * `verify/generated-data-access.test.ts`; its golden files are those of `design --out` and
 * `render`, src/deliverables/golden.test.ts.)
 */
import fc from "fast-check";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { computeShard, materializeItem } from "../../model/materialize-item.js";
import { renderKeyValue, renderTemplate } from "../../model/templates.js";
import type { Plan, PlanStep } from "../../planner/types.js";
import { generateDataset } from "../../synthetic/generate-records.js";
import {
  importGenerated,
  loadExampleModel,
  writeSource,
  type LoadedExample,
} from "../../test-support/generated-module.js";
import { EXAMPLE_NAMES, readExampleWorkload } from "../../test-support/model-examples.js";
import type { Workload } from "../../workload/types.js";
import { camelIdentifier, commentText } from "./identifiers.js";
import { dataAccessNames, renderDataAccessModule } from "./render-data-access.js";

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

  it("compiles for every example model under strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes, NodeNext", () => {
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
