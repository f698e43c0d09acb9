/**
 * The diagram of a model as a typed graph: each container a group (with its partition key), each
 * item type a node (entity, id and partition key templates, embeds, copies, counters, bucketing,
 * sharding), and edges for derived data: change-feed copies (`source`), copied attributes and
 * counters. `renderDiagram` writes it as a Mermaid flowchart (every label escaped with Mermaid
 * entity codes); the HTML report draws the same graph as SVG (`report/diagram-svg.ts`).
 */
import { escapeControlCharacters } from "../common/safe-text.js";
import type { ItemType, Model } from "../model/types.js";

/** One item type of the diagram. */
export interface DiagramNode {
  /** Stable id, `c<container index>_t<item index>`. */
  readonly id: string;
  readonly container: string;
  /** Text lines: `type: entity`, `id ...`, `pk ...`, then what the item type does. */
  readonly lines: readonly string[];
}

/** One container: its lines (name, key, TTL) and its item types. */
export interface DiagramGroup {
  /** Stable id, `c<container index>`. */
  readonly id: string;
  readonly lines: readonly string[];
  readonly nodes: readonly DiagramNode[];
}

/** Derived data: a change-feed copy of an item type, or an attribute copied or counted into one. */
export interface DiagramEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: "changeFeedCopy" | "copy" | "count";
  readonly label: string;
}

export interface DiagramGraph {
  readonly groups: readonly DiagramGroup[];
  readonly edges: readonly DiagramEdge[];
}

const MERMAID_ENTITIES: Readonly<Record<string, string>> = {
  "&": "#amp;",
  '"': "#quot;",
  "<": "#lt;",
  ">": "#gt;",
  "#": "#35;",
  "`": "#96;",
  "|": "#124;",
};

/**
 * Text safe inside a quoted Mermaid label: quotes, angle brackets, `#`, backticks and pipes as
 * entity codes, line breaks as spaces. `mermaidText('a "b" <c>')` -> `a #quot;b#quot; #lt;c#gt;`.
 */
export function mermaidText(text: string): string {
  return escapeControlCharacters(text.replace(/[\r\n\u2028\u2029]+/g, " ")).replace(
    /[&"<>#`|]/g,
    (ch) => MERMAID_ENTITIES[ch] ?? ch,
  );
}

function itemLines(item: ItemType): string[] {
  const lines = [`${item.type}: ${item.entity}`, `id ${item.id}`, `pk ${item.partitionKey.join(", ")}`];
  if (item.select !== undefined) lines.push(`select ${item.select.join(", ")}`);
  for (const t of item.truncate) lines.push(`truncate ${t.attribute} to ${t.bytes} B`);
  for (const e of item.embeds)
    lines.push(`embeds ${e.entity} as ${e.as}${e.latest === undefined ? "" : ` (latest ${e.latest})`}`);
  if (item.keepLatest !== undefined)
    lines.push(`keeps latest ${item.keepLatest.count} by ${item.keepLatest.by}`);
  if (item.bucket !== undefined) {
    lines.push(
      item.bucket.kind === "records"
        ? `bucket of ${item.bucket.records} records`
        : `bucket by ${item.bucket.by}, ${item.bucket.windowSeconds} s window`,
    );
  }
  if (item.shards !== undefined)
    lines.push(`${item.shards} shards${item.shardBy === undefined ? "" : ` by ${item.shardBy}`}`);
  if (item.replicas !== undefined) lines.push(`${item.replicas} replicas`);
  if (item.ttl !== undefined) lines.push(`ttl ${item.ttl} s`);
  return lines;
}

/**
 * The containers, item types and derived-data edges of a model.
 * @example diagramGraph(model).edges.filter((e) => e.kind === "changeFeedCopy")
 */
export function diagramGraph(model: Model): DiagramGraph {
  const groups: DiagramGroup[] = [];
  const nodes: { node: DiagramNode; item: ItemType }[] = [];
  model.containers.forEach((container, ci) => {
    const ttl = container.defaultTtl === undefined ? [] : [`defaultTtl ${container.defaultTtl}`];
    const members = container.items.map((item, ti) => {
      const node: DiagramNode = { id: `c${ci}_t${ti}`, container: container.name, lines: itemLines(item) };
      nodes.push({ node, item });
      return node;
    });
    groups.push({
      id: `c${ci}`,
      lines: [container.name, `pk ${container.partitionKey.join(", ")}`, ...ttl],
      nodes: members,
    });
  });
  // The item type that holds an entity's own data: the first that is not a copy of another.
  const home = (entity: string): string | undefined =>
    (
      nodes.find((n) => n.item.entity === entity && n.item.source === undefined) ??
      nodes.find((n) => n.item.entity === entity)
    )?.node.id;
  const edges: DiagramEdge[] = [];
  for (const { node, item } of nodes) {
    if (item.source !== undefined) {
      const { container, type } = item.source;
      const from = nodes.find((n) => n.node.container === container && n.item.type === type);
      if (from)
        edges.push({ from: from.node.id, to: node.id, kind: "changeFeedCopy", label: "change feed copy" });
    }
    for (const copy of item.copies) {
      const from = home(copy.from.entity);
      if (from && from !== node.id) {
        edges.push({
          from,
          to: node.id,
          kind: "copy",
          label: `copy ${copy.from.entity}.${copy.from.attribute} as ${copy.as}`,
        });
      }
    }
    for (const counter of item.counts) {
      const from = home(counter.of);
      if (from && from !== node.id)
        edges.push({ from, to: node.id, kind: "count", label: `count as ${counter.as}` });
    }
  }
  return { groups, edges };
}

function label(lines: readonly string[]): string {
  return `"${lines.map(mermaidText).join("<br/>")}"`;
}

/** The Mermaid source (`flowchart LR`) of a model's containers and item types. */
export function renderDiagram(model: Model): string {
  const graph = diagramGraph(model);
  const out = ["flowchart LR"];
  for (const group of graph.groups) {
    out.push(`  subgraph ${group.id}[${label(group.lines)}]`);
    for (const node of group.nodes) out.push(`    ${node.id}[${label(node.lines)}]`);
    out.push("  end");
  }
  for (const edge of graph.edges) {
    const arrow = edge.kind === "changeFeedCopy" ? "-.->" : "-->";
    out.push(`  ${edge.from} ${arrow}|${label([edge.label])}| ${edge.to}`);
  }
  return `${out.join("\n")}\n`;
}
