import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { confinePath, isInside } from "./confine.js";

const outside = mkdtempSync(join(tmpdir(), "confine-outside-"));
const root = mkdtempSync(join(tmpdir(), "confine-root-"));
writeFileSync(join(outside, "secret.txt"), "secret\n");
writeFileSync(join(root, "model.yaml"), "version: 1\n");
mkdirSync(join(root, "sub"));
symlinkSync(join(outside, "secret.txt"), join(root, "secret-link"));
symlinkSync(outside, join(root, "out"));
symlinkSync(join(root, "model.yaml"), join(root, "sub", "model-link"));
symlinkSync(join(outside, "later.txt"), join(root, "dangling"));
symlinkSync(join(root, "loop-b"), join(root, "loop-a"));
symlinkSync(join(root, "loop-a"), join(root, "loop-b"));
// the session folder itself reached through a link
const rootLink = join(mkdtempSync(join(tmpdir(), "confine-link-")), "session");
symlinkSync(root, rootLink);

describe("confinePath", () => {
  it("accepts files and new files inside, also through links that stay inside", async () => {
    await expect(confinePath(root, "model.yaml", "read", "model")).resolves.toMatch(/model\.yaml$/);
    await expect(confinePath(root, "sub/model-link", "read", "model")).resolves.toMatch(/model\.yaml$/);
    await expect(confinePath(root, "new/dir/file.md", "write", "outDir")).resolves.toMatch(/file\.md$/);
    await expect(confinePath(rootLink, "model.yaml", "read", "model")).resolves.toMatch(/model\.yaml$/);
    await expect(confinePath(root, join(root, "model.yaml"), "read", "model")).resolves.toMatch(
      /model\.yaml$/,
    );
  });

  it("refuses anything that leaves the folder, by text or through a link, naming the argument", async () => {
    for (const [path, access] of [
      ["/etc/passwd", "read"],
      ["../x", "write"],
      ["sub/../../x", "read"],
      ["secret-link", "read"],
      ["out/secret.txt", "read"],
      ["out/new.txt", "write"],
      ["dangling", "write"],
      ["out", "write"],
    ] as const) {
      await expect(confinePath(root, path, access, "model"), path).rejects.toMatchObject({
        code: "files.outsideFolder",
        message: expect.stringContaining("model:") as unknown,
      });
    }
  });

  it("refuses standard input, empty and NUL paths, missing files to read, and link loops without hanging", async () => {
    for (const path of ["-", "", "a\0b"])
      await expect(confinePath(root, path, "read", "path")).rejects.toMatchObject({
        code: "files.invalidPath",
      });
    await expect(confinePath(root, "missing.yaml", "read", "path")).rejects.toMatchObject({
      code: "files.notFound",
    });
    await expect(confinePath(root, "loop-a", "read", "path")).rejects.toBeDefined();
  });

  it("isInside compares whole path segments", () => {
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/b", "/a/b/c")).toBe(true);
    expect(isInside("/a/b", "/a/bc")).toBe(false);
    expect(isInside("/a/b", "/a")).toBe(false);
    // A name that starts with two dots is inside; only a first segment ".." leaves.
    expect(isInside("/a/b", "/a/b/..notes.yaml")).toBe(true);
    expect(isInside("/a/b", "/a/b/..")).toBe(false);
  });

  it("accepts a file whose name starts with two dots", async () => {
    await expect(confinePath(root, "..notes.yaml", "write", "notes")).resolves.toMatch(/\.\.notes\.yaml$/);
  });

  it("refuses a FIFO at once, for reading and writing, instead of blocking", async () => {
    const fifo = join(root, "pipe.yaml");
    execFileSync("mkfifo", [fifo]);
    for (const access of ["read", "write"] as const)
      await expect(confinePath(root, "pipe.yaml", access, "model")).rejects.toMatchObject({
        code: "files.notRegularFile",
      });
  });
});
