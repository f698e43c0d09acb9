/**
 * Where the evaluation's findings are in the input files: an issue about an access pattern
 * (`accessPatterns[3]`) points at that pattern's line in the workload file, one about a container
 * (`containers.posts`, `containers.posts.physicalPartitions`, `containers.posts.items.post`) at
 * the container's (or the field's, or the item type's) line in the model file. The evaluation
 * itself is pure and knows no files; the edges that read the files add the locations.
 */
import type { Issue } from "../common/issues.js";
import { parseSourceDocument, type ParsedDocument } from "../source/parse-document.js";

/** An input file's name and text. */
export interface SourceText {
  readonly file: string;
  readonly text: string;
}

interface Located {
  readonly file: string;
  readonly document: ParsedDocument;
}

function parse(source: SourceText | undefined): Located | undefined {
  if (source === undefined) return undefined;
  const parsed = parseSourceDocument(source.text, source.file);
  return parsed.ok ? { file: source.file, document: parsed.document } : undefined;
}

const PATTERN_PATH = /^accessPatterns\[(\d+)\]/;

/**
 * `issues` with `file` and `line` added where the issue has none and its path names an access
 * pattern of `workload` or a container of `model`; other issues are returned as they are.
 * @example locateIssues(evaluation.issues, { workload: { file: "w.yaml", text } })
 */
export function locateIssues(
  issues: readonly Issue[],
  sources: { readonly workload?: SourceText; readonly model?: SourceText },
): Issue[] {
  const unlocated = issues.filter((issue) => issue.file === undefined);
  if (unlocated.length === 0) return [...issues];
  const workload = unlocated.some((issue) => PATTERN_PATH.test(issue.path))
    ? parse(sources.workload)
    : undefined;
  const model = unlocated.some((issue) => issue.path.startsWith("containers."))
    ? parse(sources.model)
    : undefined;
  return issues.map((issue) => {
    if (issue.file !== undefined) return issue;
    const pattern = PATTERN_PATH.exec(issue.path);
    if (pattern !== null && workload !== undefined) {
      const line = workload.document.lineOf(["accessPatterns", Number(pattern[1])]);
      return { ...issue, file: workload.file, ...(line === undefined ? {} : { line }) };
    }
    if (issue.path.startsWith("containers.") && model !== undefined) {
      const path = containerPath(model.document.value, issue.path.slice("containers.".length));
      if (path !== undefined) {
        const line = model.document.keyLineOf(path) ?? model.document.lineOf(path);
        return { ...issue, file: model.file, ...(line === undefined ? {} : { line }) };
      }
    }
    return issue;
  });
}

/**
 * The document path of `rest` (`posts`, `posts.physicalPartitions`, `posts.items.post`) in a
 * model document: the container found by the longest name that prefixes it (names may hold dots).
 */
function containerPath(value: unknown, rest: string): (string | number)[] | undefined {
  const containers = listAt(value, "containers");
  let best: { index: number; name: string } | undefined;
  containers.forEach((container, index) => {
    const name = stringAt(container, "name");
    if (name === undefined || (rest !== name && !rest.startsWith(`${name}.`))) return;
    if (best === undefined || name.length > best.name.length) best = { index, name };
  });
  if (best === undefined) return undefined;
  const path: (string | number)[] = ["containers", best.index];
  const field = rest.slice(best.name.length + 1);
  if (field === "") return path;
  if (field.startsWith("items.")) {
    const type = field.slice("items.".length);
    const items = listAt(containers[best.index], "items");
    const index = items.findIndex((item) => stringAt(item, "type") === type);
    return index < 0 ? [...path, "items"] : [...path, "items", index];
  }
  return [...path, field];
}

function listAt(value: unknown, key: string): unknown[] {
  if (typeof value !== "object" || value === null) return [];
  const list = (value as Record<string, unknown>)[key];
  return Array.isArray(list) ? list : [];
}

function stringAt(value: unknown, key: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const found = (value as Record<string, unknown>)[key];
  return typeof found === "string" ? found : undefined;
}
