/**
 * Turns every `derived` indexing policy of a model into the explicit policy the tool derives, so
 * that the model file, the documents and the infrastructure state the same paths.
 */
import type { Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import { createPlanningContext } from "./context.js";
import { deriveIndexingPolicy } from "./indexing.js";

/** The model with each derived indexing policy written out as a custom one. */
export function withExplicitIndexing(workload: Workload, model: Model): Model {
  const context = createPlanningContext(workload, model);
  return {
    ...model,
    containers: model.containers.map((container) =>
      container.indexing.kind === "derived"
        ? { ...container, indexing: { kind: "custom", ...deriveIndexingPolicy(context, container) } }
        : container,
    ),
  };
}
