/**
 * The repository is self-contained: no source, test, fixture or bench file reaches outside it
 * for its inputs (the reference material beside the repository on a developer's machine is not
 * there in a user's clone). `.ci/run` proves the same by running the suite in a clone with
 * nothing beside it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../../src/test-support/files.js";
import { REPO_ROOT } from "../../src/test-support/model-examples.js";

/** The folders whose files must not look outside the repository. */
const CHECKED_FOLDERS = ["src", "test", "bench", "scripts"] as const;

/** References to the reference folder beside the repository, relative or absolute. */
const OUTSIDE_REFERENCES: readonly RegExp[] = [
  /\.\.[/\\]shared\b/,
  /["'`]\.\.["'`]\s*,\s*["'`]shared["'`]/,
  /\/work\/shared\b/,
];

/** The tracked files of the checked folders (every file when this is not a git checkout). */
function checkedFiles(): string[] {
  try {
    const listed = execFileSync("git", ["ls-files", "-z", "--", ...CHECKED_FOLDERS], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return listed.split("\0").filter((path) => path !== "");
  } catch {
    return CHECKED_FOLDERS.flatMap((folder) =>
      filesUnder(join(REPO_ROOT, folder)).map((path) => join(folder, path)),
    );
  }
}

describe("the repository is self-contained", () => {
  const self = relative(REPO_ROOT, new URL(import.meta.url).pathname);
  const files = checkedFiles().filter((path) => path !== self);

  it("checks the files of src/, test/ and bench/", () => {
    expect(files.some((path) => path.startsWith("src/"))).toBe(true);
    expect(files.some((path) => path.startsWith("test/"))).toBe(true);
    expect(files.some((path) => path.startsWith("bench/"))).toBe(true);
  });

  it("no file under src/, test/, bench/ or scripts/ refers to ../shared", () => {
    const offending: string[] = [];
    for (const path of files) {
      const absolute = join(REPO_ROOT, path);
      if (statSync(absolute).size > 5_000_000) continue;
      readFileSync(absolute, "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (OUTSIDE_REFERENCES.some((pattern) => pattern.test(line)))
            offending.push(`${path}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(offending).toEqual([]);
  });
});
