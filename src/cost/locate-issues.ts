/**
 * Where the evaluation's findings are in the input files: an issue about an access pattern
 * (`accessPatterns[3]`) points at that pattern's line in the workload file, one about a container
 * (`containers.posts`, `containers.posts.physicalPartitions`, `containers.posts.items.post`) at
 * the container's (or the field's, or the item type's) line in the model file. The evaluation
 * itself is pure and knows no files; the edges that read the files add the locations.
 */
import type { Issue, IssuePath } from "../common/issues.js";
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

/** The index of the access pattern an issue's path names (`["accessPatterns", 3, ...]`). */
function patternIndex(path: IssuePath): number | undefined {
  return path[0] === "accessPatterns" && typeof path[1] === "number" ? path[1] : undefined;
}

/**
 * The container-relative rest of a path that names a container (`["containers", "posts", ...]`),
 * or `[]` for the account's findings (`["containers"]`: every container, e.g. mixed capacity modes).
 */
function containerRest(path: IssuePath): IssuePath | undefined {
  if (path[0] !== "containers") return undefined;
  if (path.length === 1) return [];
  return typeof path[1] === "string" ? path.slice(1) : undefined;
}

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
  const workload = unlocated.some((issue) => patternIndex(issue.path) !== undefined)
    ? parse(sources.workload)
    : undefined;
  const model = unlocated.some((issue) => containerRest(issue.path) !== undefined)
    ? parse(sources.model)
    : undefined;
  return issues.map((issue) => {
    if (issue.file !== undefined) return issue;
    const pattern = patternIndex(issue.path);
    if (pattern !== undefined && workload !== undefined) {
      const line = workload.document.lineOf(["accessPatterns", pattern]);
      return { ...issue, file: workload.file, ...(line === undefined ? {} : { line }) };
    }
    const rest = containerRest(issue.path);
    if (rest !== undefined && model !== undefined) {
      const path = containerPath(model.document.value, rest);
      if (path !== undefined) {
        const line = model.document.keyLineOf(path) ?? model.document.lineOf(path);
        return { ...issue, file: model.file, ...(line === undefined ? {} : { line }) };
      }
    }
    return issue;
  });
}

/**
 * The document path of `rest` (`[posts]`, `[posts, physicalPartitions]`, `[posts, items, post]`)
 * in a model document: the container with that name, then the field or item type.
 */
function containerPath(value: unknown, rest: IssuePath): (string | number)[] | undefined {
  if (rest.length === 0) return ["containers"];
  const [name, field, type] = rest;
  const containers = listAt(value, "containers");
  const index = containers.findIndex((container) => stringAt(container, "name") === name);
  if (index < 0) return undefined;
  const path: (string | number)[] = ["containers", index];
  if (field === undefined) return path;
  if (field === "items" && typeof type === "string") {
    const items = listAt(containers[index], "items");
    const item = items.findIndex((candidate) => stringAt(candidate, "type") === type);
    return item < 0 ? [...path, "items"] : [...path, "items", item];
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
