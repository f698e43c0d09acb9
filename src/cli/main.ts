#!/usr/bin/env node
/**
 * The `cosmos-modeler` command line: a thin layer over the pure core (STYLE.md rule 1).
 * Each command lives in `commands/`; this file wires them and turns failures into exit codes.
 */
import { Command, CommanderError } from "commander";
import { CosmosModelerError } from "../common/errors.js";
import { EXIT_INPUT_ERROR, EXIT_USAGE } from "./output.js";

/** Registers one command; each `commands/*.ts` exports one of these. */
export type CommandRegistration = (program: Command) => void;

const registrations: readonly (() => Promise<{ register: CommandRegistration }>)[] = [
  () => import("./commands/check.js"),
  () => import("./commands/estimate-ru.js"),
  () => import("./commands/evaluate.js"),
  () => import("./commands/design.js"),
  () => import("./commands/render.js"),
  () => import("./commands/interview.js"),
  () => import("./commands/import.js"),
  () => import("./commands/mcp.js"),
  () => import("./commands/verify.js"),
];

async function main(argv: readonly string[]): Promise<number> {
  const program = new Command()
    .name("cosmos-modeler")
    .description(
      "Design Azure Cosmos DB for NoSQL data models from a workload, with exact RU and cost arithmetic.",
    )
    .option("--debug", "print stack traces of unexpected failures")
    .showHelpAfterError()
    .exitOverride();
  for (const load of registrations) (await load()).register(program);
  try {
    await program.parseAsync([...argv]);
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit 0 through here; everything else commander rejects is usage.
      return error.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    const debug = argv.includes("--debug");
    if (error instanceof CosmosModelerError) {
      process.stderr.write(`error ${error.code}: ${error.message}\n`);
      if (debug && error.stack !== undefined) process.stderr.write(`${error.stack}\n`);
      return EXIT_INPUT_ERROR;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: ${message}\n`);
    if (debug && error instanceof Error && error.stack !== undefined)
      process.stderr.write(`${error.stack}\n`);
    else process.stderr.write("(run again with --debug for details)\n");
    return EXIT_INPUT_ERROR;
  }
}

process.exitCode = await main(process.argv);
