/**
 * Renders a Mermaid flowchart of a model: each container a subgraph (with its partition key),
 * each item type a node (entity, id and partition key templates, embeds, copies, counters,
 * bucketing, sharding), and arrows for derived data: change-feed copies (`source`), copied
 * attributes and counters. Every label is escaped with Mermaid entity codes.
 */
import type { ItemType, Model } from "../model/types.js";

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
  return text.replace(/[\r\n\u2028\u2029]+/g, " ").replace(/[&"<>#`|]/g, (ch) => MERMAID_ENTITIES[ch] ?? ch);
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

function label(lines: readonly string[]): string {
  return `"${lines.map(mermaidText).join("<br/>")}"`;
}

/** The Mermaid source (`flowchart LR`) of a model's containers and item types. */
export function renderDiagram(model: Model): string {
  const out = ["flowchart LR"];
  const nodes: { id: string; container: string; item: ItemType }[] = [];
  model.containers.forEach((container, ci) => {
    const ttl = container.defaultTtl === undefined ? [] : [`defaultTtl ${container.defaultTtl}`];
    out.push(
      `  subgraph c${ci}[${label([container.name, `pk ${container.partitionKey.join(", ")}`, ...ttl])}]`,
    );
    container.items.forEach((item, ti) => {
      const id = `c${ci}_t${ti}`;
      nodes.push({ id, container: container.name, item });
      out.push(`    ${id}[${label(itemLines(item))}]`);
    });
    out.push("  end");
  });
  // The item type that holds an entity's own data: the first that is not a copy of another.
  const home = (entity: string): string | undefined =>
    (
      nodes.find((n) => n.item.entity === entity && n.item.source === undefined) ??
      nodes.find((n) => n.item.entity === entity)
    )?.id;
  for (const node of nodes) {
    const { item } = node;
    if (item.source !== undefined) {
      const { container, type } = item.source;
      const from = nodes.find((n) => n.container === container && n.item.type === type);
      if (from) out.push(`  ${from.id} -.->|${label(["change feed copy"])}| ${node.id}`);
    }
    for (const copy of item.copies) {
      const from = home(copy.from.entity);
      if (from && from !== node.id) {
        out.push(
          `  ${from} -->|${label([`copy ${copy.from.entity}.${copy.from.attribute} as ${copy.as}`])}| ${node.id}`,
        );
      }
    }
    for (const counter of item.counts) {
      const from = home(counter.of);
      if (from && from !== node.id)
        out.push(`  ${from} -->|${label([`count as ${counter.as}`])}| ${node.id}`);
    }
  }
  return `${out.join("\n")}\n`;
}
