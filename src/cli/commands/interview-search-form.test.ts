import { describe, expect, it } from "vitest";
import { applyChanges } from "../../session/apply-changes.js";
import type { Change } from "../../session/changes.js";
import { createSession } from "../../session/state.js";
import type { DraftWorkload } from "../../session/draft.js";
import { runEditMenu } from "./interview-edits.js";
import { runForm } from "./interview-forms.js";
import { Prompter } from "./interview-prompter.js";

/** One prompt of a script: what its message contains, then what is typed (all refused but the last). */
type Step = readonly [prompt: string, ...typed: string[]];

/**
 * A prompter that answers from a script, as a person typing would: each answer goes through the
 * prompt's own check, the refused ones are kept with what the check said, and Enter (an empty
 * answer) takes the prompt's default.
 */
class ScriptedPrompter extends Prompter {
  readonly refused: string[] = [];
  readonly printed: string[] = [];
  private readonly steps: Step[];

  constructor(steps: readonly Step[]) {
    super();
    this.steps = [...steps];
  }

  get done(): boolean {
    return this.steps.length === 0;
  }

  private next(message: string): readonly string[] {
    const step = this.steps.shift();
    if (step === undefined) throw new Error(`no answer scripted for "${message}"`);
    const [prompt, ...typed] = step;
    if (!message.includes(prompt)) throw new Error(`expected a prompt with "${prompt}", got "${message}"`);
    return typed;
  }

  override print(text: string): void {
    this.printed.push(text);
  }

  override text(
    message: string,
    options: { default?: string; validate?: (value: string) => string | true } = {},
  ): Promise<string> {
    const typed = this.next(message);
    for (const [index, raw] of typed.entries()) {
      const value = raw === "" && options.default !== undefined ? options.default : raw;
      const verdict = options.validate?.(value) ?? true;
      if (index < typed.length - 1) {
        if (verdict === true) throw new Error(`"${raw}" at "${message}" was accepted, expected refused`);
        this.refused.push(verdict);
      } else {
        if (verdict !== true) throw new Error(`"${raw}" at "${message}" was refused: ${verdict}`);
        return Promise.resolve(value);
      }
    }
    throw new Error(`nothing typed at "${message}"`);
  }

  override choose<T extends string>(
    message: string,
    choices: readonly { value: T; name: string }[],
    defaultValue?: T,
  ): Promise<T> {
    const [picked = ""] = this.next(message);
    const value = picked === "" ? (defaultValue ?? choices[0]?.value) : picked;
    const found = choices.find((choice) => choice.value === value);
    if (found === undefined)
      throw new Error(
        `"${picked}" is not a choice of "${message}": ${choices.map((c) => c.value).join(", ")}`,
      );
    return Promise.resolve(found.value);
  }

  override yes(message: string, defaultValue: boolean): Promise<boolean> {
    const [answer = ""] = this.next(message);
    return Promise.resolve(answer === "" ? defaultValue : /^y/i.test(answer));
  }
}

function workloadOf(changes: readonly Change[]): DraftWorkload {
  const made = applyChanges(createSession(), changes);
  if (!made.ok) throw new Error(JSON.stringify(made.issues));
  return made.value.state.workload;
}

const chunkEntity: Change = {
  kind: "add-entity",
  name: "Chunk",
  key: "chunkId",
  attributes: {
    tenantId: "string",
    title: "string",
    embedding: { type: "array", vector: { dimensions: 1536, dataType: "float32", distance: "cosine" } },
  },
};

/** The changes are applied to the workload they were made on: the session takes them. */
function applies(workload: DraftWorkload, changes: readonly Change[]): DraftWorkload {
  const made = applyChanges({ ...createSession(), workload }, changes);
  if (!made.ok) throw new Error(JSON.stringify(made.issues));
  return made.value.state.workload;
}

describe("the step-by-step pattern form", () => {
  it("makes a vector search over an existing vector, its k and recall checked as in a line", async () => {
    const workload = workloadOf([chunkEntity]);
    const prompter = new ScriptedPrompter([
      ["Read or write?", "search"],
      ["Describe it", "Similar chunks"],
      ["What does it search?", "nearest"],
      ["Which vector does it compare?", "embedding"],
      ["How many results (k)", "0", "ten", ""], // Enter takes the suggested 10
      ["recall", "1.5", "0.95"],
      ["Filters the search is scoped by", "tenantId:eq"],
      ["Average and peak", "20, 60"],
    ]);
    const changes = await runForm(
      prompter,
      { form: "access-pattern", preset: { entity: "Chunk" } },
      workload,
    );
    expect(prompter.done).toBe(true);
    expect(prompter.refused).toEqual([
      '"0": k (the results a search returns) is a whole number of at least 1',
      '"ten": k (the results a search returns) is a whole number of at least 1',
      '"1.5": recall is the share of the true nearest neighbours, more than 0 and at most 1 (e.g. 0.9; 1 = exact)',
    ]);
    expect(changes).toEqual([
      {
        kind: "add-access-pattern",
        type: "read",
        entity: "Chunk",
        name: "Similar chunks",
        search: { nearest: "embedding", k: 10, recall: 0.95 },
        where: { tenantId: "eq" },
        rps: { avg: 20, peak: 60 },
      },
    ]);
    expect(applies(workload, changes).accessPatterns[0]?.search).toEqual({
      nearest: "embedding",
      k: 10,
      recall: 0.95,
    });
  });

  it("makes a hybrid search over new attributes, typed step by step, and refuses an attribute of another kind", async () => {
    const workload = workloadOf([chunkEntity]);
    const prompter = new ScriptedPrompter([
      ["Read or write?", "search"],
      ["Describe it", "Hybrid search"],
      ["What does it search?", "hybrid"],
      ["Which vector does it compare?", "\u0000new"],
      ["holds the vector", "title", "9lives", "summaryVector"],
      ["how many dimensions", "5000", "768"],
      ["data type", "int8"],
      ["distance function", "euclidean"],
      // no full-text attribute yet: its name is asked at once
      ["holds the text", "embedding", "content"],
      ["language", "de-DE"],
      ["How many results (k)", "5"],
      ["recall", ""],
      ["terms", "17", "4"],
      ["Filters the search is scoped by", ""],
      ["Average and peak", ""],
    ]);
    const changes = await runForm(
      prompter,
      { form: "access-pattern", preset: { entity: "Chunk" } },
      workload,
    );
    expect(prompter.done).toBe(true);
    expect(prompter.refused).toEqual([
      expect.stringContaining(
        "Chunk.title is a string, not a vector: nearest searches a vector attribute (vector attributes: embedding)",
      ),
      "letters, digits, _ and $, not starting with a digit",
      '"5000": the dimensions of a vector are a whole number from 1 to 4096 (e.g. vector(1536))',
      "Chunk.embedding is not searched by full text: text searches an attribute of type text(<language>)",
      '"17": terms is a whole number from 1 to 16',
    ]);
    expect(changes).toEqual([
      {
        kind: "set-attribute",
        entity: "Chunk",
        name: "summaryVector",
        type: "array",
        vector: { dimensions: 768, dataType: "int8", distance: "euclidean" },
      },
      {
        kind: "set-attribute",
        entity: "Chunk",
        name: "content",
        type: "string",
        fullText: { language: "de-DE" },
      },
      {
        kind: "add-access-pattern",
        type: "read",
        entity: "Chunk",
        name: "Hybrid search",
        search: { nearest: "summaryVector", fullText: "content", k: 5, recall: 0.9, terms: 4 },
      },
    ]);
    applies(workload, changes);
  });

  it("makes a full-text search without terms (the workload's default) and asks no recall", async () => {
    const workload = workloadOf([
      chunkEntity,
      {
        kind: "set-attribute",
        entity: "Chunk",
        name: "content",
        type: "string",
        fullText: { language: "en-US" },
      },
    ]);
    const prompter = new ScriptedPrompter([
      ["Read or write?", "search"],
      ["Describe it", "Keyword search"],
      ["What does it search?", "fullText"],
      ["Which text does it search?", "content"],
      ["How many results (k)", "20"],
      ["terms", ""],
      ["Filters the search is scoped by", "tenantId"],
      ["Average and peak", "1, 2"],
    ]);
    const changes = await runForm(
      prompter,
      { form: "access-pattern", preset: { entity: "Chunk" } },
      workload,
    );
    expect(prompter.done).toBe(true);
    expect(changes.at(-1)).toMatchObject({
      search: { fullText: "content", k: 20 },
      where: { tenantId: "eq" },
    });
    expect(applies(workload, changes).accessPatterns[0]?.search).toEqual({ fullText: "content", k: 20 });
  });

  it("offers a search when a read is asked for (a write's items that nothing reads)", async () => {
    const workload = workloadOf([chunkEntity]);
    const prompter = new ScriptedPrompter([
      ["A query or a search?", "search"],
      ["Describe it", "Similar chunks"],
      ["What does it search?", "nearest"],
      ["Which vector does it compare?", "embedding"],
      ["How many results (k)", ""],
      ["recall", ""],
      ["Filters the search is scoped by", ""],
      ["Average and peak", ""],
    ]);
    const changes = await runForm(
      prompter,
      { form: "access-pattern", preset: { type: "read", entity: "Chunk" } },
      workload,
    );
    expect(prompter.done).toBe(true);
    expect(changes).toEqual([
      {
        kind: "add-access-pattern",
        type: "read",
        entity: "Chunk",
        name: "Similar chunks",
        search: { nearest: "embedding", k: 10, recall: 0.9 },
      },
    ]);
  });

  it("still makes a query read, with its sort and limit, when the user picks read", async () => {
    const workload = workloadOf([chunkEntity]);
    const prompter = new ScriptedPrompter([
      ["Read or write?", "read"],
      ["Describe it", "By title"],
      ["Filters as attribute:operator", "title:eq"],
      ["Sort as attribute", ""],
      ["At most how many items", ""],
      ["Average and peak", ""],
    ]);
    const changes = await runForm(
      prompter,
      { form: "access-pattern", preset: { entity: "Chunk" } },
      workload,
    );
    expect(prompter.done).toBe(true);
    expect(changes).toEqual([
      { kind: "add-access-pattern", type: "read", entity: "Chunk", name: "By title", where: { title: "eq" } },
    ]);
  });
});

describe("a typed search line's new attribute", () => {
  it("must get a vector type when the search compares it", async () => {
    const workload = workloadOf([chunkEntity]);
    const prompter = new ScriptedPrompter([
      ["Access pattern 1", "Summaries: search Chunk nearest summary, k 3, recall 0.9"],
      ["Chunk: summary is new", "summary:string", ""], // Enter takes the suggested vector(1536, ...)
    ]);
    const changes = await runForm(prompter, { form: "access-pattern", preset: {} }, workload);
    expect(prompter.refused).toEqual([
      expect.stringContaining("Chunk.summary is a string, not a vector: nearest searches a vector attribute"),
    ]);
    expect(changes[0]).toEqual({
      kind: "set-attribute",
      entity: "Chunk",
      name: "summary",
      type: "array",
      vector: { dimensions: 1536, dataType: "float32", distance: "cosine" },
    });
    applies(workload, changes);
  });
});

describe("the edit menu's search settings", () => {
  const searched = (): DraftWorkload =>
    workloadOf([
      chunkEntity,
      {
        kind: "add-access-pattern",
        id: "Q1",
        type: "read",
        name: "Similar chunks",
        entity: "Chunk",
        search: { nearest: "embedding", k: 10, recall: 0.9 },
        returns: { avg: 8 },
      },
    ]);

  it("changes a search read's k, checked as the one-line edit checks it", async () => {
    const prompter = new ScriptedPrompter([
      ["What do you want to change?", "access-pattern"],
      ["Access patterns", "edit"],
      ["Which access pattern?", "Q1"],
      ["Change Q1", "k"],
      ["New k", "0", "5", "20"],
    ]);
    const changes = await runEditMenu(prompter, searched());
    expect(prompter.refused).toEqual([
      '"0": k (the results a search returns) is a whole number of at least 1',
      "Q1: a search returns at most its k (5) results: returns 8 on average is more (lower it, or raise k)",
    ]);
    expect(changes).toEqual([
      { kind: "update-access-pattern", id: "Q1", search: { nearest: "embedding", k: 20, recall: 0.9 } },
    ]);
  });

  it("offers k and recall instead of a limit for a search read", async () => {
    const prompter = new ScriptedPrompter([
      ["What do you want to change?", "access-pattern"],
      ["Access patterns", "edit"],
      ["Which access pattern?", "Q1"],
      ["Change Q1", "limit"],
    ]);
    await expect(runEditMenu(prompter, searched())).rejects.toThrow('"limit" is not a choice of "Change Q1"');
  });

  it("makes an attribute a vector step by step, and changes a vector's settings", async () => {
    const typed = new ScriptedPrompter([
      ["What do you want to change?", "entity"],
      ["Entities", "edit"],
      ["Which entity?", "Chunk"],
      ["Change Chunk", "attribute-type"],
      ["Which attribute?", "title"],
      ["Chunk.title: type", "vector"],
      ["how many dimensions", "0", ""],
      ["data type", ""],
      ["distance function", "dotproduct"],
    ]);
    const changes = await runEditMenu(typed, searched());
    expect(typed.refused).toEqual([
      '"0": the dimensions of a vector are a whole number from 1 to 4096 (e.g. vector(1536))',
    ]);
    expect(changes).toEqual([
      {
        kind: "set-attribute",
        entity: "Chunk",
        name: "title",
        type: "array",
        vector: { dimensions: 1536, dataType: "float32", distance: "dotproduct" },
      },
    ]);
    applies(searched(), changes);
    const settings = new ScriptedPrompter([
      ["What do you want to change?", "entity"],
      ["Entities", "edit"],
      ["Which entity?", "Chunk"],
      ["Change Chunk", "attribute"],
      ["Which attribute?", "embedding"],
      ["how many dimensions", "3072"],
      ["data type", ""],
      ["distance function", ""],
    ]);
    const edited = await runEditMenu(settings, searched());
    expect(edited).toEqual([
      {
        kind: "set-attribute",
        entity: "Chunk",
        name: "embedding",
        type: "array",
        vector: { dimensions: 3072, dataType: "float32", distance: "cosine" },
      },
    ]);
  });

  it("makes an attribute a text searched by full text, in its language", async () => {
    const prompter = new ScriptedPrompter([
      ["What do you want to change?", "entity"],
      ["Entities", "edit"],
      ["Which entity?", "Chunk"],
      ["Change Chunk", "attribute-type"],
      ["Which attribute?", "title"],
      ["Chunk.title: type", "text"],
      ["language", "fr-FR"],
    ]);
    const changes = await runEditMenu(prompter, searched());
    expect(changes).toEqual([
      {
        kind: "set-attribute",
        entity: "Chunk",
        name: "title",
        type: "string",
        fullText: { language: "fr-FR" },
      },
    ]);
    expect(applies(searched(), changes).entities[0]?.attributes.find((a) => a.name === "title")).toEqual({
      name: "title",
      type: "string",
      fullText: { language: "fr-FR" },
    });
  });
});
