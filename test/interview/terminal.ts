/**
 * Test helpers: build the CLI when it is stale, and drive an interactive command through pipes
 * the way a user types (wait for a prompt, then send keys). The prompt library reads keys from a
 * pipe as from a terminal, so no pseudo-terminal is needed.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const cli = join(root, "dist", "cli", "main.js");

export const ENTER = "\r";
export const DOWN = "\u001b[B";
export const CTRL_C = "\u0003";

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds dist/ unless it is newer than every source file (`npm test` builds first). */
export function ensureBuilt(file: string): void {
  const built = join(root, "dist", file);
  if (!existsSync(built) || statSync(built).mtimeMs < newestSource(join(root, "src"))) {
    spawnSync(
      process.execPath,
      [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
      {
        cwd: root,
        encoding: "utf8",
      },
    );
  }
  if (!existsSync(built)) throw new Error(`${built} was not built`);
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b[()][A-Za-z0-9]/g;

/** A running CLI process with its output as plain text. */
export class Terminal {
  readonly child: ChildProcessWithoutNullStreams;
  output = "";
  errors = "";
  private cursor = 0;
  readonly exited: Promise<number | null>;

  constructor(args: readonly string[]) {
    this.child = spawn(process.execPath, [cli, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.output += chunk.replace(ANSI, "");
    });
    this.child.stderr.on("data", (chunk: string) => {
      this.errors += chunk;
    });
    this.exited = new Promise((resolvePromise) => this.child.on("exit", (code) => resolvePromise(code)));
  }

  /**
   * Waits until `text` appears after everything already waited for, and moves past it. Runs of
   * white space match any run (prompts wrap at the width of the output).
   */
  async waitFor(text: string, timeoutMs = 15_000): Promise<void> {
    const started = Date.now();
    const wanted = text.replace(/\s+/g, " ");
    for (;;) {
      const flat = this.output.replace(/\s+/g, " ");
      const index = flat.indexOf(wanted, this.cursor);
      if (index >= 0) {
        this.cursor = index + wanted.length;
        // let the prompt finish drawing and start listening
        await new Promise((r) => setTimeout(r, 100));
        return;
      }
      if (Date.now() - started > timeoutMs || this.child.exitCode !== null) {
        throw new Error(
          `did not see ${JSON.stringify(text)}; output tail:\n${this.output.slice(-1500)}\nstderr:\n${this.errors}`,
        );
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  send(keys: string): void {
    this.child.stdin.write(keys);
  }

  /** Waits for a prompt, then types the answer. */
  async answer(prompt: string, keys: string): Promise<void> {
    await this.waitFor(prompt);
    this.send(keys);
  }
}
