/**
 * The terminal forms of the design details: which attributes most records lack (sparse, with
 * the share that has each) and which writes commit together (atomic). Each becomes the changes
 * an assistant would send over MCP (set-attribute with presence, update-access-pattern with
 * atomicWith).
 */
import type { Change } from "../../session/changes.js";
import type { DraftWorkload } from "../../session/draft.js";
import { RANGES } from "../../session/value-ranges.js";
import type { Prompter } from "./interview-prompter.js";

/** Which attributes most records lack, and the share that has each. */
export async function presenceForm(
  prompter: Prompter,
  workload: DraftWorkload,
  preset: Readonly<Record<string, unknown>>,
): Promise<readonly Change[]> {
  const candidates = Array.isArray(preset.attributes)
    ? preset.attributes.filter((a): a is string => typeof a === "string")
    : workload.entities.flatMap((e) => e.attributes.map((a) => `${e.name}.${a.name}`));
  const changes: Change[] = [];
  for (;;) {
    const left = candidates.filter(
      (c) => !changes.some((ch) => ch.kind === "set-attribute" && `${ch.entity}.${ch.name}` === c),
    );
    if (left.length === 0) break;
    const picked = await prompter.choose("Which attribute do many records lack?", [
      ...left.map((c) => ({ value: c, name: c })),
      { value: "", name: changes.length === 0 ? "None after all" : "No other" },
    ]);
    if (picked === "") break;
    const [entity = "", name = ""] = picked.split(".");
    const share = await prompter.quantity(
      `What share of the ${entity} records have a ${name} (e.g. 0.15 or 15%)?`,
      "share",
      {
        range: RANGES.share,
      },
    );
    if (typeof share === "number") changes.push({ kind: "set-attribute", entity, name, presence: share });
  }
  return changes;
}

/** Which writes commit together (atomicWith). */
export async function atomicWritesForm(
  prompter: Prompter,
  workload: DraftWorkload,
  preset: Readonly<Record<string, unknown>>,
): Promise<readonly Change[]> {
  const writes = workload.accessPatterns.filter((p) => p.type === "write");
  const ids = Array.isArray(preset.writes)
    ? preset.writes.filter((w): w is string => typeof w === "string")
    : writes.map((w) => w.id);
  const changes: Change[] = [];
  do {
    const id = await prompter.choose(
      "Which write?",
      writes.filter((w) => ids.includes(w.id)).map((w) => ({ value: w.id, name: `${w.id} ${w.name}` })),
    );
    const others = await prompter.text(
      `Which writes must commit together with ${id}? (ids, comma-separated)`,
      {
        validate: (value) => {
          const listed = value
            .split(",")
            .map((v) => v.trim())
            .filter((v) => v !== "");
          if (listed.length === 0) return "give at least one write id";
          const wrong = listed.filter((v) => v === id || !ids.includes(v));
          return wrong.length === 0
            ? true
            : `${wrong.join(", ")}: expected other write ids (${ids.filter((w) => w !== id).join(", ")})`;
        },
      },
    );
    changes.push({
      kind: "update-access-pattern",
      id,
      atomicWith: others
        .split(",")
        .map((v) => v.trim())
        .filter((v) => v !== ""),
    });
  } while (await prompter.yes("Another group of writes that commit together?", false));
  return changes;
}
