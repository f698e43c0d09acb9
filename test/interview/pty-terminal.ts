/**
 * Drives an interactive command in a real pseudo-terminal: the command runs inside a tmux
 * session of its own (a private tmux server per terminal), keys are sent as a user types them
 * (Ctrl+C included: in a terminal it is a key the prompt reads, not a pipe's byte), and
 * everything the command draws is recorded as it is drawn (`pipe-pane`), then read back without
 * its escape sequences. The exit status comes from the shell that ran the command.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli, root } from "./terminal.js";

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b[()][A-Za-z0-9]|\u001b[=>]|\r/g;

/** Named keys (tmux key names). */
export const KEY = { enter: "Enter", down: "Down", up: "Up", ctrlC: "C-c", backspace: "BSpace" } as const;

/** True when tmux can be run (the tests that need a terminal say so otherwise). */
export function tmuxAvailable(): boolean {
  return spawnSync("tmux", ["-V"], { encoding: "utf8" }).status === 0;
}

let sessions = 0;

/** A CLI command running in a pseudo-terminal of 120 x 40 characters. */
export class PtyTerminal {
  private readonly socket: string;
  private readonly folder: string;
  private readonly log: string;
  private readonly status: string;
  private cursor = 0;
  /** Prompts answered so far (each `answer` or `keys`): what a person would have typed. */
  prompts = 0;

  constructor(args: readonly string[]) {
    sessions += 1;
    this.socket = `cosmos-modeler-test-${process.pid}-${sessions}`;
    this.folder = mkdtempSync(join(tmpdir(), "cosmos-modeler-pty-"));
    this.log = join(this.folder, "output.log");
    this.status = join(this.folder, "status");
    const quote = (text: string): string => `'${text.replace(/'/g, "'\\''")}'`;
    const command = [process.execPath, cli, ...args].map(quote).join(" ");
    this.tmux(
      "new-session",
      "-d",
      "-s",
      "main",
      "-x",
      "120",
      "-y",
      "40",
      "-c",
      root,
      `NO_COLOR=1 FORCE_COLOR=0 ${command}; echo $? > ${quote(this.status)}; sleep 0.5`,
    );
    this.tmux("pipe-pane", "-t", "main", "-o", `cat >> ${quote(this.log)}`);
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  }

  /** Everything drawn so far, without escape sequences. */
  get output(): string {
    return existsSync(this.log) ? readFileSync(this.log, "utf8").replace(ANSI, "") : "";
  }

  /** The exit status once the command ended, else undefined. */
  get exitCode(): number | undefined {
    if (!existsSync(this.status)) return undefined;
    const text = readFileSync(this.status, "utf8").trim();
    return text === "" ? undefined : Number(text);
  }

  /**
   * Waits until `text` appears after everything already waited for, and moves past it. Runs of
   * white space match any run (prompts wrap and redraw).
   */
  async waitFor(text: string, timeoutMs = 20_000): Promise<void> {
    const started = Date.now();
    const wanted = text.replace(/\s+/g, " ");
    for (;;) {
      const flat = this.output.replace(/\s+/g, " ");
      const index = flat.indexOf(wanted, this.cursor);
      if (index >= 0) {
        this.cursor = index + wanted.length;
        await new Promise((r) => setTimeout(r, 150)); // let the prompt finish drawing
        return;
      }
      if (Date.now() - started > timeoutMs || this.exitCode !== undefined) {
        throw new Error(`did not see ${JSON.stringify(text)}; output tail:\n${this.output.slice(-2500)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Types text as it is (no Enter). */
  type(text: string): void {
    this.tmux("send-keys", "-t", "main", "-l", "--", text);
  }

  /** Presses named keys (`KEY.enter`, `KEY.down`, ...). */
  press(...keys: readonly string[]): void {
    this.tmux("send-keys", "-t", "main", ...keys);
  }

  /** Waits for a prompt, types the text and presses Enter. */
  async answer(prompt: string, text: string): Promise<void> {
    await this.waitFor(prompt);
    this.prompts += 1;
    if (text !== "") this.type(text);
    this.press(KEY.enter);
  }

  /** Waits for a prompt, then presses the keys. */
  async keys(prompt: string, ...keys: readonly string[]): Promise<void> {
    await this.waitFor(prompt);
    this.prompts += 1;
    this.press(...keys);
  }

  /** Waits for the command to end and returns its exit status. */
  async exited(timeoutMs = 30_000): Promise<number> {
    const started = Date.now();
    for (;;) {
      const code = this.exitCode;
      if (code !== undefined) return code;
      if (Date.now() - started > timeoutMs)
        throw new Error(`the command did not end; output tail:\n${this.output.slice(-2500)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Stops the tmux server of this terminal and removes its files. */
  close(): void {
    spawnSync("tmux", ["-L", this.socket, "kill-server"], { encoding: "utf8" });
    rmSync(this.folder, { recursive: true, force: true });
  }
}
