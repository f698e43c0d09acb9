/**
 * Checks of generated shell scripts for tests: `bash -n`, `shellcheck` (Debian package
 * `shellcheck`; tests skip with a message when the binary is missing), and running a script with
 * a stand-in `az` that records every call's arguments.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Whether `name --version` runs (the binary is installed). */
export function hasBinary(name: string): boolean {
  return spawnSync(name, ["--version"], { encoding: "utf8" }).status === 0;
}

/**
 * Whether `shellcheck` can run here. CI installs it (`.ci/run` sets COSMOS_MODELER_CI=1): there
 * a missing binary fails the run instead of skipping the checks that need it.
 */
export function shellcheckAvailable(): boolean {
  const available = hasBinary("shellcheck");
  if (!available && process.env["COSMOS_MODELER_CI"] === "1") {
    throw new Error(
      "the shellcheck tests must run in CI: install Debian's package (apt-get install -y shellcheck)",
    );
  }
  return available;
}

/** `bash -n` of a script: the syntax errors, or "" when it parses. */
export function bashSyntaxErrors(script: string): string {
  const check = spawnSync("bash", ["-n"], { input: script, encoding: "utf8" });
  return check.status === 0 ? "" : check.stderr;
}

/** `shellcheck` of a bash script (every severity): its report, or "" when clean. */
export function shellcheckReport(script: string): string {
  const check = spawnSync("shellcheck", ["--shell=bash", "--severity=style", "-"], {
    input: script,
    encoding: "utf8",
  });
  return check.status === 0 ? "" : `${check.stdout}${check.stderr}`;
}

export interface StubAzRun {
  readonly status: number | null;
  readonly stderr: string;
  /** The arguments of every `az` call, in order. */
  readonly calls: readonly (readonly string[])[];
}

/**
 * Runs `script` with `env`, its arguments `args` and a stand-in `az` first on PATH that records
 * its arguments and prints `stdout` (for `az ... --query id --output tsv` style calls).
 */
export function runWithStubAz(
  script: string,
  env: Readonly<Record<string, string>>,
  stdout = "",
  args: readonly string[] = [],
): StubAzRun {
  const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-az-"));
  const log = join(dir, "az.log");
  writeFileSync(log, "");
  writeFileSync(
    join(dir, "az"),
    [
      "#!/usr/bin/env bash",
      `for a in "$@"; do printf '%s\\0' "$a"; done >> '${log}'`,
      `printf '\\n\\0' >> '${log}'`,
      `printf '%s' '${stdout.replace(/'/g, "'\\''")}'`,
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  writeFileSync(join(dir, "script.sh"), script);
  const run = spawnSync("bash", [join(dir, "script.sh"), ...args], {
    encoding: "utf8",
    env: { PATH: `${dir}:${process.env["PATH"] ?? ""}`, ...env },
  });
  const calls = readFileSync(log, "utf8")
    .split("\n\0")
    .filter((c) => c !== "")
    .map((c) => c.split("\0").filter((a) => a !== ""));
  return { status: run.status, stderr: run.stderr, calls };
}
