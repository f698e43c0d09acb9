/**
 * The CLI as a function: parses the arguments, runs the command and returns its exit status,
 * printing to the process's outputs or to the streams given. `main.ts` calls it for the
 * `cosmos-modeler` binary; the fuzzer calls it in a worker thread for most of its cases (a
 * process start costs half a second).
 */
import { Command, CommanderError } from "commander";
import { escapeTerminalText } from "../common/safe-text.js";
import type { CommandRegistration } from "./support/command.js";
import { EXIT_USAGE, printJson } from "./support/output.js";
import { reportFailure } from "./support/report-failure.js";
import { cliStreams, PROCESS_STREAMS, withCliStreams, type CliStreams } from "./support/streams.js";
import { packageVersion } from "./support/version.js";

/**
 * The commands, by name, in the order `--help` lists them. Each module is loaded only when its
 * command runs (or when the whole list is needed: help, an unknown command), so that `check` does
 * not wait for the modules of `verify` and `interview` to load (2 s to 0.6 s).
 */
const registrations: ReadonlyMap<string, () => Promise<{ register: CommandRegistration }>> = new Map([
  ["check", () => import("./commands/check.js")],
  ["estimate-ru", () => import("./commands/estimate-ru.js")],
  ["calibrate", () => import("./commands/calibrate.js")],
  ["evaluate", () => import("./commands/evaluate.js")],
  ["design", () => import("./commands/design.js")],
  ["render", () => import("./commands/render.js")],
  ["interview", () => import("./commands/interview.js")],
  ["import", () => import("./commands/import.js")],
  ["mcp", () => import("./commands/mcp.js")],
  ["verify", () => import("./commands/verify.js")],
]);

/**
 * Every command with its options as registered (names and flags), for the documentation checks
 * (test/repository/documented-flags.test.ts compares them with the README's usage block).
 */
export async function registeredCommands(): Promise<{ name: string; options: string[] }[]> {
  const program = new Command();
  for (const load of registrations.values()) (await load()).register(program);
  return program.commands.map((command) => ({
    name: command.name(),
    options: command.options.filter((option) => !option.hidden).map((option) => option.long ?? option.flags),
  }));
}

/**
 * The registrations a run needs: its command's alone when the first word after the program's own
 * options names one, else all of them (help, a misspelt command and its suggestion).
 */
function registrationsFor(argv: readonly string[]): (() => Promise<{ register: CommandRegistration }>)[] {
  const command = argv.slice(2).find((arg) => !arg.startsWith("-"));
  const one = command === undefined ? undefined : registrations.get(command);
  return one === undefined ? [...registrations.values()] : [one];
}

/** Runs in progress: commands report their status in `process.exitCode`, so runs take turns. */
let turn: Promise<unknown> = Promise.resolve();

/**
 * Runs the CLI on `argv` (as `process.argv`: the node binary and the script first) and returns
 * its exit status (0 ok, 1 input errors, 2 usage, 70 internal error). Runs in one process take
 * turns; `process.exitCode` is left as it was.
 * @example await runCli(["node", "cosmos-modeler", "check", "workload.yaml", "--json"], { stdout, stderr })
 */
export function runCli(argv: readonly string[], streams: CliStreams = PROCESS_STREAMS): Promise<number> {
  const run = turn.then(() => withCliStreams(streams, () => runIsolated(argv)));
  turn = run.catch(() => undefined);
  return run;
}

async function runIsolated(argv: readonly string[]): Promise<number> {
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    return await parseAndRun(argv);
  } finally {
    process.exitCode = before;
  }
}

async function parseAndRun(argv: readonly string[]): Promise<number> {
  const program = new Command()
    .name("cosmos-modeler")
    .description(
      "Design Azure Cosmos DB for NoSQL data models from a workload, with exact RU and cost arithmetic.",
    )
    .version(packageVersion(), "-V, --version", "print the version")
    .option("--debug", "print stack traces of unexpected failures")
    .showHelpAfterError()
    // Commander echoes what it rejects (an unknown option, a bad argument): escaped like the rest.
    .configureOutput({
      writeOut: (text) => cliStreams().stdout(escapeTerminalText(text)),
      writeErr: (text) => cliStreams().stderr(escapeTerminalText(text)),
    })
    .exitOverride();
  for (const load of registrationsFor(argv)) (await load()).register(program);
  try {
    await program.parseAsync([...argv]);
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit 0 through here; everything else commander rejects is usage.
      if (error.exitCode === 0) return 0;
      // Commander printed the error and the help on stderr; --json still gets its one document.
      if (argv.includes("--json")) printJson({ issues: [usageIssue(error)] });
      return EXIT_USAGE;
    }
    return reportFailure(error, { debug: argv.includes("--debug"), json: argv.includes("--json") });
  }
}

/** What commander rejected, as the issue of the `--json` document (code `cli.usage`). */
function usageIssue(error: CommanderError): {
  readonly code: "cli.usage";
  readonly severity: "error";
  readonly path: "";
  readonly message: string;
  readonly suggestion: string;
} {
  // Without a command commander shows the help as its error; its message is then "(outputHelp)".
  const message = error.code.startsWith("commander.help")
    ? "a command is required"
    : error.message.replace(/^error: /, "");
  return {
    code: "cli.usage",
    severity: "error",
    path: "",
    message,
    suggestion: "see cosmos-modeler --help, or cosmos-modeler <command> --help",
  };
}
