/**
 * Where the CLI prints: the process's stdout and stderr, or, for a run through {@link runCli}
 * with streams of its own (the fuzzer runs thousands of commands in one process), those streams.
 * Every write of the CLI goes through {@link cliStreams}; the streams of a run follow its async
 * work (AsyncLocalStorage), so a run's output never mixes with another's.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The two outputs of a command. */
export interface CliStreams {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Whether `stderr` reaches a terminal (progress is drawn only there); absent = no. */
  readonly stderrIsTerminal?: () => boolean;
}

/** The process's own outputs. */
export const PROCESS_STREAMS: CliStreams = {
  stdout: (text) => {
    process.stdout.write(text);
  },
  stderr: (text) => {
    process.stderr.write(text);
  },
  stderrIsTerminal: () => process.stderr.isTTY === true,
};

const current = new AsyncLocalStorage<CliStreams>();

/** The streams of the run in progress (the process's outside any). */
export function cliStreams(): CliStreams {
  return current.getStore() ?? PROCESS_STREAMS;
}

/** Runs `run` with `streams` as the CLI's outputs. */
export function withCliStreams<T>(streams: CliStreams, run: () => Promise<T>): Promise<T> {
  return current.run(streams, run);
}
