#!/usr/bin/env node
/**
 * The `cosmos-modeler` command line: a thin layer over the pure core (STYLE.md rule 1).
 * Each command lives in `commands/`; this file wires them and turns failures into exit codes.
 */
import { Command, CommanderError } from "commander";
import { escapeTerminalText } from "../common/safe-text.js";
import type { CommandRegistration } from "./support/command.js";
import { EXIT_USAGE } from "./support/output.js";
import { reportFailure } from "./support/report-failure.js";

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
    // Commander echoes what it rejects (an unknown option, a bad argument): escaped like the rest.
    .configureOutput({
      writeOut: (text) => process.stdout.write(escapeTerminalText(text)),
      writeErr: (text) => process.stderr.write(escapeTerminalText(text)),
    })
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
    return reportFailure(error, { debug: argv.includes("--debug"), json: argv.includes("--json") });
  }
}

process.exitCode = await main(process.argv);
