/**
 * `write-data-model`: designs the session's workload and writes cosmosdb_data_model.md,
 * model.yaml, evaluation.json and the artifacts into the session folder; refused until the user
 * confirmed every access pattern and the checklist is complete.
 */
import { z } from "zod";
import { handEditedMessage, HandEditedError } from "../../files/write-outputs.js";
import { resolvePrices } from "../../files/read-prices.js";
import { writeDataModel } from "../../session-store/deliverables.js";
import { openSession } from "../../session-store/session-files.js";
import { failure, success } from "../support/results.js";
import { defineTool, sessionPath } from "../support/tool-definition.js";
import { totalsSchema } from "./evaluation-schema.js";
import { verificationResult, verificationSchema } from "./verification-schema.js";

export const writeDataModelTool = defineTool({
  name: "write-data-model",
  title: "Write the data model",
  description:
    "Designs the session's workload, verifies the model on the embedded Cosmos DB endpoint (every access pattern run through the generated code and its answer checked), and writes cosmosdb_data_model.md (with the per-pattern verification), model.yaml, evaluation.json, report.html (the visual report) and the artifacts into the session folder. A failed pattern is reported as a failure: tell the user. Refused (isError, with the open items) until the user has confirmed that every access pattern is captured and the checklist is complete. Reports progress; can be cancelled.",
  inputSchema: {
    force: z
      .boolean()
      .default(false)
      .describe("overwrite deliverables the user edited by hand since they were written"),
    prices: sessionPath("price file overriding the built-in dated price table").optional(),
    verify: z
      .boolean()
      .default(true)
      .describe("verify the model on the embedded endpoint before writing it (a few seconds)"),
  },
  outputSchema: {
    files: z.array(z.string()).describe("files written, relative to the session folder"),
    unchanged: z.array(z.string()),
    highlights: z.array(z.string()),
    totals: totalsSchema,
    verification: verificationSchema.optional(),
  },
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  paths: { prices: "read" },
  worker: true,
  async run({ dir, progress }, args) {
    const opened = await openSession(dir, { keepEditedCopies: false });
    const prices = await resolvePrices(args.prices);
    let outcome;
    try {
      outcome = await writeDataModel(dir, opened.state, {
        force: args.force,
        prices,
        confine: true,
        onProgress: progress,
        verify: args.verify,
      });
    } catch (error) {
      if (!(error instanceof HandEditedError)) throw error;
      return failure(
        `${handEditedMessage(error.dir, error.files, "call write-data-model with force: true")} Ask the user before overwriting.`,
        { files: error.files },
      );
    }
    if (!outcome.ok) {
      return failure(
        `The data model is not written yet. It is written only after the user confirms that every access pattern is captured and the checklist is complete. Open items:\n${outcome.reasons.map((r) => `- ${r}`).join("\n")}`,
        { reasons: outcome.reasons },
      );
    }
    const totals = outcome.design?.evaluation.totals ?? {
      rus: { avg: 0, peak: 0 },
      monthlyCostUSD: 0,
      monthlyCostRange: { lowUSD: 0, highUSD: 0 },
    };
    return success(
      [
        ...outcome.highlights,
        "",
        `Written in ${dir}: ${[...outcome.files, ...outcome.unchanged].join(", ")}`,
      ].join("\n"),
      {
        files: [...outcome.files],
        unchanged: [...outcome.unchanged],
        highlights: [...outcome.highlights],
        totals: JSON.parse(JSON.stringify(totals)) as unknown,
        ...(outcome.verification === undefined
          ? {}
          : { verification: verificationResult(outcome.verification) }),
      },
    );
  },
});
