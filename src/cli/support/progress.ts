/**
 * Progress of long work on stderr, only where a person watches it: when stderr is a terminal and
 * the command does not print JSON. One line, redrawn in place (`\r`) at most ten times a second,
 * with the phase, a bar and the counts; `end` leaves it on its own line.
 */
import { cliStreams } from "./streams.js";

export interface Progress {
  /** `done` of `total` steps of `label` (a total of 0 draws a full bar). */
  update(label: string, done: number, total: number): void;
  /** Finishes the line (nothing when nothing was drawn). */
  end(): void;
}

/** Redraws at most this often, in milliseconds (the last step of a phase is always drawn). */
const REDRAW_MS = 100;
const WIDTH = 30;
/** The longest label drawn: longer ones are cut so that the line fits a terminal's 80 columns. */
const LABEL = 32;

/**
 * A progress line on the CLI's stderr when `enabled`, else nothing.
 * @example const progress = progressLine(stderrIsTerminal() && !json); progress.update("design", 3, 10)
 */
export function progressLine(enabled: boolean, now: () => number = Date.now): Progress {
  let shown = false;
  let last = Number.NEGATIVE_INFINITY;
  return {
    update(label, done, total) {
      if (!enabled) return;
      const time = now();
      if (time - last < REDRAW_MS && done < total) return;
      last = time;
      const filled = total <= 0 ? WIDTH : Math.round((Math.min(done, total) / total) * WIDTH);
      const name = label.length > LABEL ? `${label.slice(0, LABEL - 1)}…` : label.padEnd(LABEL);
      cliStreams().stderr(`\r${name} [${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${done}/${total} `);
      shown = true;
    },
    end() {
      if (shown) cliStreams().stderr("\n");
      shown = false;
    },
  };
}

/** True when the CLI's stderr is a terminal (in the heap-limited worker: the process's). */
export function stderrIsTerminal(): boolean {
  return cliStreams().stderrIsTerminal?.() ?? false;
}
