import { describe, expect, it } from "vitest";
import type { Model } from "../model/types.js";
import { createPlanningContext } from "../planner/context.js";
import { loadExample } from "../test-support/evaluate-fixtures.js";
import {
  answerTable,
  changedAnswers,
  Fingerprints,
  MODEL_LOOK_UPS,
  recordingContext,
  WORKLOAD_LOOK_UPS,
} from "./model-answers.js";

const { workload, model } = loadExample("blogging");

describe("the planning context's look-ups", () => {
  it("are each either the workload's (the same for every model) or recorded (a new look-up must be placed)", () => {
    const context = createPlanningContext(workload, model);
    const classified = [...WORKLOAD_LOOK_UPS, ...MODEL_LOOK_UPS].sort();
    expect(Object.keys(context).sort()).toEqual(classified);
  });

  it("records the model's look-ups and nothing else", () => {
    const read: string[] = [];
    const context = recordingContext(createPlanningContext(workload, model), (key) => read.push(key));
    context.entity("Post");
    context.relationship("User", "Post");
    context.countAtHorizon("Post");
    expect(read).toEqual([]);
    context.placementsOf("Post");
    context.placement("posts", "post");
    context.container("feed");
    expect(read).toHaveLength(3);
  });
});

describe("answerTable", () => {
  const tableOf = (m: Model, fingerprints: Fingerprints) =>
    answerTable(workload, m, createPlanningContext(workload, m), fingerprints);

  it("answers the same for an equal model, whatever its objects", () => {
    const fingerprints = new Fingerprints();
    const copy = JSON.parse(JSON.stringify(model)) as Model;
    expect(changedAnswers(tableOf(model, fingerprints), tableOf(copy, fingerprints))).toEqual(["*"]);
  });

  it("sees a change of a copy's source in the copy's own placement (what it inherits)", () => {
    const fingerprints = new Fingerprints();
    // posts/post gains a truncated attribute: the feed's copies of it inherit the truncation.
    const edited: Model = {
      ...model,
      containers: model.containers.map((c) =>
        c.name !== "posts"
          ? c
          : {
              ...c,
              items: c.items.map((i) =>
                i.type === "post"
                  ? { ...i, truncate: [...i.truncate, { attribute: "body", bytes: 100 }] }
                  : i,
              ),
            },
      ),
    };
    const changed = changedAnswers(tableOf(model, fingerprints), tableOf(edited, fingerprints));
    const feed = model.containers.find((c) => c.name === "feed");
    const copyType = feed?.items.find((i) => i.source !== undefined)?.type ?? "";
    expect(changed).toContain(["P", "feed", copyType].join("\u0000"));
    expect(changed).toContain(["C", "posts"].join("\u0000"));
    // The feed container itself (as stored) did not change.
    expect(changed).not.toContain(["C", "feed"].join("\u0000"));
  });
});
