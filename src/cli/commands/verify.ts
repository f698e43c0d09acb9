/**
 * `cosmos-modeler verify <workload> <model> [--connection-string S] [--scale N] [--seed N] [--keep]
 * [--json]`: deploys the model to Cosmos DB (a real account when a connection string is given or
 * COSMOS_CONNECTION_STRING / COSMOS_ENDPOINT + COSMOS_KEY are set, else the embedded endpoint),
 * loads synthetic data shaped like the workload, runs the writes with their maintenance, checks
 * every read pattern through the generated data-access functions, and prints a table per pattern;
 * then probes the generated code (counters under concurrent writes, a child changed and removed,
 * paging, a change-feed processor restarted: docs/json-output.md#probes). Exit status 1 when any
 * check or probe fails. The connection string is never printed.
 */
import type { RuCoefficients } from "../../estimator/coefficients.js";
import { resolveCoefficients } from "../../files/read-coefficients.js";
import { COEFFICIENTS_OPTION_DESCRIPTION } from "../support/prices-option.js";
import { Option, type Command } from "commander";
import { CosmosModelerError } from "../../common/errors.js";
import { issueToJson } from "../../common/issues.js";
import type { Model } from "../../model/types.js";
import type { Workload } from "../../workload/types.js";
import type { VerificationReport } from "../../verify/run-verification.js";
import { checkOutputPath } from "../../files/output-path.js";
import { writeFileAtomic } from "../../files/io.js";
import { progressLine, stderrIsTerminal } from "../support/progress.js";
import type { CommandRegistration } from "../support/command.js";
import { UsageError } from "../support/usage-error.js";
import { readWorkloadAndModel } from "../../files/load-inputs.js";
import {
  EXIT_INPUT_ERROR,
  EXIT_OK,
  printJson,
  printText,
  reportIssues,
  reportRefusedInput,
} from "../support/output.js";

interface VerifyFlags {
  readonly connectionString?: string;
  readonly scale?: string;
  readonly seed?: string;
  readonly keep?: boolean;
  readonly json?: boolean;
  readonly fault?: string;
  readonly maxItems?: string;
  readonly html?: string;
  readonly recordCharges?: string;
  readonly coefficients?: string;
}

function positiveNumber(text: string | undefined, flag: string, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new UsageError(`${flag} must be a positive ${integer ? "integer" : "number"}, got "${text}"`);
  }
  return value;
}

/** The faults `--fault` accepts (listed here so that --help does not load the Cosmos DB SDK). */
const VERIFY_FAULT_NAMES: readonly string[] = ["drop-counter", "drop-copy", "drop-trim"];

function isFault(value: string | undefined): value is "drop-counter" | "drop-copy" | "drop-trim" {
  return value !== undefined && VERIFY_FAULT_NAMES.includes(value);
}

export const register: CommandRegistration = (program: Command) => {
  program
    .command("verify")
    .description(
      "deploy the model to Cosmos DB (embedded unless a connection is given), load synthetic data, run every access pattern and check the answers",
    )
    .argument("<workload>", "workload file (YAML or JSON)")
    .argument("<model>", "model file (YAML or JSON)")
    .option(
      "--connection-string <s>",
      "a real account or the emulator (else COSMOS_CONNECTION_STRING, else COSMOS_ENDPOINT + COSMOS_KEY, else the embedded endpoint); never printed",
    )
    .option(
      "--scale <n>",
      "multiply the workload's entity counts (the data is capped at a few thousand items per container)",
    )
    .option("--seed <n>", "seed of the synthetic data and requests (same seed, same run)")
    .option("--keep", "keep the database afterwards")
    .option("--json", "print one JSON document on stdout")
    .option("--html <file>", "also write the HTML report of the model with this run's results")
    .option("--coefficients <file>", COEFFICIENTS_OPTION_DESCRIPTION)
    .option(
      "--record-charges <file>",
      "write each one-request read's measured charge with its features (JSON lines), for calibrate",
    )
    .addOption(new Option("--fault <kind>", "test only: drop-counter, drop-copy or drop-trim").hideHelp())
    .addOption(new Option("--max-items <n>", "test only: records per entity at most").hideHelp())
    .action(async (workloadPath: string, modelPath: string, flags: VerifyFlags) => {
      const numbers = parseNumbers(flags);
      if (flags.html !== undefined) await checkOutputPath("--html", flags.html, "file");
      if (flags.recordCharges !== undefined)
        await checkOutputPath("--record-charges", flags.recordCharges, "file");
      const inputs = await readWorkloadAndModel(workloadPath, modelPath);
      if (!inputs.ok) {
        process.exitCode = reportRefusedInput(inputs.issues, flags.json);
        return;
      }
      const { workload, model } = inputs.value;
      const coefficients = await resolveCoefficients(flags.coefficients);
      const report = await runVerify(workload, model, flags, numbers, coefficients.coefficients);
      if (flags.html !== undefined) await writeHtml(flags.html, workload, model, modelPath, report);
      if (flags.recordCharges !== undefined) {
        const { recordingLines } = await import("../../verify/index.js");
        await writeFileAtomic(flags.recordCharges, recordingLines(report.charges ?? [], report.endpoint));
      }
      if (flags.json === true) {
        printJson({ ...report, issues: inputs.issues.map(issueToJson) });
      } else {
        const { formatVerificationReport } = await import("../../verify/index.js");
        printText(formatVerificationReport(report, workload.name));
        reportIssues(inputs.issues);
      }
      process.exitCode = report.ok ? EXIT_OK : EXIT_INPUT_ERROR;
    });
};

interface VerifyNumbers {
  readonly scale?: number;
  readonly seed?: number;
  readonly maxItems?: number;
}

/** The numeric flags; throws a {@link UsageError} (exit 2) for a value that is not valid. */
function parseNumbers(flags: VerifyFlags): VerifyNumbers {
  const scale = positiveNumber(flags.scale, "--scale", false);
  const seed = flags.seed === undefined ? undefined : positiveNumber(flags.seed, "--seed", true);
  const maxItems = positiveNumber(flags.maxItems, "--max-items", true);
  if (flags.fault !== undefined && !VERIFY_FAULT_NAMES.includes(flags.fault)) {
    throw new UsageError(`--fault must be one of ${VERIFY_FAULT_NAMES.join(", ")}, got "${flags.fault}"`);
  }
  return {
    ...(scale === undefined ? {} : { scale }),
    ...(seed === undefined ? {} : { seed }),
    ...(maxItems === undefined ? {} : { maxItems }),
  };
}

/** Runs the verification on the endpoint the flags and environment name; every message redacted. */
async function runVerify(
  workload: Workload,
  model: Model,
  flags: VerifyFlags,
  numbers: VerifyNumbers,
  coefficients: RuCoefficients | undefined,
): Promise<VerificationReport> {
  // The adapter loads @azure/cosmos and the embedded server: only when verify runs.
  const verify = await import("../../verify/index.js");
  const real = verify.realEndpointOptionsFrom(flags.connectionString, process.env);
  const secrets =
    real === undefined
      ? []
      : "connectionString" in real
        ? [real.connectionString, ...secretOf(() => verify.parseConnectionString(real.connectionString).key)]
        : [real.key];
  const bar = progressLine(stderrIsTerminal() && flags.json !== true);
  try {
    const endpoint =
      real === undefined ? await verify.startEmbeddedEndpoint() : await verify.connectRealEndpoint(real);
    try {
      return await verify.verifyOnEndpoint(endpoint, workload, model, {
        ...(numbers.seed === undefined ? {} : { seed: numbers.seed }),
        ...(numbers.scale === undefined ? {} : { scale: numbers.scale }),
        ...(numbers.maxItems === undefined ? {} : { maxItemsPerEntity: numbers.maxItems }),
        ...(flags.keep === true ? { keep: true } : {}),
        ...(isFault(flags.fault) ? { fault: flags.fault } : {}),
        ...(flags.recordCharges === undefined ? {} : { recordCharges: true }),
        ...(coefficients === undefined ? {} : { coefficients }),
        secrets,
        onProgress: (progress) => {
          if (progress.kind === "deploy") bar.update("deploy", 0, 1);
          else bar.update(progress.kind, progress.done, progress.total);
        },
      });
    } finally {
      bar.end();
      await endpoint.close();
    }
  } catch (error) {
    // Every message that leaves this command is redacted (the key never appears).
    if (error instanceof CosmosModelerError) {
      throw new CosmosModelerError(error.code, verify.redactSecrets(error.message, secrets));
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new CosmosModelerError("verify.failed", verify.redactSecrets(message, secrets));
  }
}

/** `--html`: the model's report with this run's results. */
async function writeHtml(
  file: string,
  workload: Workload,
  model: Model,
  modelPath: string,
  report: VerificationReport,
): Promise<void> {
  const { evaluateModel } = await import("../../cost/evaluate.js");
  const { buildReportData } = await import("../../render/report/report-data.js");
  const { renderReportHtml } = await import("../../render/report/report-html.js");
  const data = buildReportData({
    workload,
    model,
    evaluation: evaluateModel(workload, model),
    label: modelPath,
    verification: report,
  });
  await writeFileAtomic(file, await renderReportHtml(data));
}

/** A secret derived from the connection string, or none when it cannot be parsed. */
function secretOf(get: () => string): string[] {
  try {
    return [get()];
  } catch {
    return [];
  }
}
