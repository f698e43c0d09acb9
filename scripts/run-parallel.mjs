// Runs npm scripts at the same time and fails when any of them fails: `npm test` runs its static
// checks (typecheck, lint, format check) this way, each of which uses a single core.
// Usage: node scripts/run-parallel.mjs <script>...
// The output of each script is printed in full when it ends, under its name, so none interleave.
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import { argv, exit, platform, stdout } from "node:process";

const scripts = argv.slice(2);
const npm = platform === "win32" ? "npm.cmd" : "npm";

/** Runs `npm run <script>`; resolves with its exit status and its output (stdout and stderr). */
function run(script) {
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn(npm, ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"] });
    const chunks = [];
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => chunks.push(chunk));
    child.on("error", (error) => done({ script, code: 1, output: `${String(error)}\n`, seconds: 0 }));
    child.on("close", (code, signal) => {
      const output = Buffer.concat(chunks).toString("utf8");
      const seconds = (Date.now() - started) / 1000;
      done({ script, code: code ?? (signal === null ? 1 : 128), output, seconds });
    });
  });
}

const results = await Promise.all(
  scripts.map((script) =>
    run(script).then((result) => {
      const status = result.code === 0 ? "ok" : `FAILED (exit ${result.code})`;
      stdout.write(`\n> npm run ${script}: ${status} in ${result.seconds.toFixed(0)} s\n${result.output}`);
      return result;
    }),
  ),
);
const failed = results.filter((result) => result.code !== 0).map((result) => result.script);
if (failed.length > 0) {
  stdout.write(`\nfailed: ${failed.join(", ")}\n`);
  exit(1);
}
