/**
 * The documentation's links hold: every relative link (and image) in the repository's Markdown
 * files (README.md, docs/, examples/, bench/data/, the test fixtures' notes) points to a file of
 * the repository, and every `#anchor` to a heading of the file it names. Links to the web are
 * not followed. Golden files (generated documents) are left out.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import GithubSlugger from "github-slugger";
import { marked, type Token, type Tokens } from "marked";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../../src/test-support/files.js";
import { REPO_ROOT } from "../../src/test-support/model-examples.js";

/** The tracked Markdown files (every one under the root when this is not a git checkout). */
function markdownFiles(): string[] {
  let files: string[];
  try {
    files = execFileSync("git", ["ls-files", "-z", "--", "*.md"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    })
      .split("\0")
      .filter((path) => path !== "");
  } catch {
    files = filesUnder(REPO_ROOT).filter((path) => path.endsWith(".md") && !path.startsWith("node_modules"));
  }
  return files.filter((path) => !path.split("/").includes("__golden__"));
}

/** Every link and image target of a Markdown document, in order. */
function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  marked.walkTokens(marked.lexer(markdown), (token: Token) => {
    if (token.type === "link" || token.type === "image") targets.push((token as Tokens.Link).href);
  });
  return targets;
}

/** The anchors GitHub gives the headings of a Markdown document. */
function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  marked.walkTokens(marked.lexer(markdown), (token: Token) => {
    if (token.type === "heading") anchors.add(slugger.slug((token as Tokens.Heading).text.replace(/`/g, "")));
  });
  return anchors;
}

const isExternal = (href: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(href);

describe("links in the repository's Markdown", () => {
  const files = markdownFiles();

  it("finds the documentation", () => {
    for (const file of [
      "README.md",
      "docs/workload-format.md",
      "docs/model-format.md",
      "docs/json-output.md",
      "docs/how-numbers-are-computed.md",
      "examples/README.md",
    ])
      expect(files, file).toContain(file);
  });

  it("resolves every relative link to a file of the repository, and every anchor to a heading", () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(REPO_ROOT, file), "utf8");
      for (const href of linkTargets(text)) {
        if (isExternal(href)) continue;
        const [rawPath = "", anchor] = href.split("#", 2);
        const path = decodeURIComponent(rawPath);
        const target = path === "" ? join(REPO_ROOT, file) : normalize(join(REPO_ROOT, dirname(file), path));
        const inside = relative(REPO_ROOT, target);
        if (inside.startsWith("..") || inside.startsWith(sep) || !existsSync(target)) {
          broken.push(`${file}: ${href} (no such file in the repository)`);
          continue;
        }
        if (anchor === undefined || anchor === "") continue;
        if (!statSync(target).isFile() || !target.endsWith(".md")) continue;
        if (!anchorsOf(readFileSync(target, "utf8")).has(anchor))
          broken.push(`${file}: ${href} (no heading with that anchor)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
