/**
 * The container diagram as inline SVG: the model's diagram graph (`diagramGraph`, the same one
 * the Mermaid file is written from) laid out by dagre (containers as clusters around their item
 * types, derived-data edges routed between them), drawn at build time. Text is monospace so its
 * width is known without a browser; every label is escaped. Edge kinds differ by line style and
 * arrow label, not only by colour.
 */
import dagre from "@dagrejs/dagre";
import { escapeHtml } from "../markdown.js";
import type { DiagramEdge, DiagramGraph } from "../diagram.js";

const FONT_SIZE = 12;
/** Advance of one character of the monospace stack (DejaVu Sans Mono, Menlo, Consolas: ~0.6 em). */
const CHAR_WIDTH = FONT_SIZE * 0.62;
const LINE_HEIGHT = 16;
const PADDING = 10;
const GROUP_HEADER = 2 * LINE_HEIGHT + 8;
/** Labels longer than this are cut with an ellipsis (the full text stays in a tooltip). */
const MAX_LABEL_CHARS = 48;

const MONO = 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, "Liberation Mono", monospace';

function clip(text: string): string {
  return text.length > MAX_LABEL_CHARS ? `${text.slice(0, MAX_LABEL_CHARS - 1)}…` : text;
}

function textWidth(lines: readonly string[]): number {
  return Math.max(...lines.map((l) => clip(l).length), 4) * CHAR_WIDTH;
}

const EDGE_STYLE: Readonly<Record<DiagramEdge["kind"], { dash: string; marker: string }>> = {
  changeFeedCopy: { dash: "6 4", marker: "arrow-feed" },
  copy: { dash: "", marker: "arrow-copy" },
  count: { dash: "2 3", marker: "arrow-count" },
};

const round = (value: number): string => String(Math.round(value * 10) / 10);

function textLines(lines: readonly string[], x: number, y: number, firstClass: string): string {
  return lines
    .map(
      (line, i) =>
        `<text x="${round(x)}" y="${round(y + i * LINE_HEIGHT)}" class="${i === 0 ? firstClass : "dg-line"}">${escapeHtml(clip(line))}${
          clip(line) === line ? "" : `<title>${escapeHtml(line)}</title>`
        }</text>`,
    )
    .join("");
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Room right of a container for the arcs of edges between its own item types. */
const INNER_EDGE_MARGIN = 24;
const CARD_GAP = 14;

/** dagre's graph of the containers. */
type LayoutGraph = InstanceType<typeof dagre.graphlib.Graph>;

/** Where each item type sits: the id of its container's group. */
type GroupOf = ReadonlyMap<string, string>;

/**
 * The diagram of a model as an `<svg>` element (with a `<title>` for assistive technology).
 * dagre ranks and orders the containers (one node each, edges where data flows between them);
 * each container stacks its item types; edges are curves between the item types' sides, and an
 * edge inside one container arcs out on its right.
 * @example renderDiagramSvg(diagramGraph(model))
 */
export function renderDiagramSvg(graph: DiagramGraph): string {
  if (graph.groups.length === 0) return `<p>The model has no containers.</p>`;
  const groupOf = new Map<string, string>();
  for (const group of graph.groups) for (const node of group.nodes) groupOf.set(node.id, group.id);
  const inner = innerEdgeRoom(graph, groupOf);
  const laid = layoutGroups(graph, groupOf, inner);
  const groups = drawGroups(graph, laid);
  const edges = drawEdges(graph, groupOf, inner, groups.cards, groups.titles);
  const layout = laid.graph();
  const width = Math.ceil(layout.width ?? 0);
  const height = Math.ceil(layout.height ?? 0);
  const marker = (id: string) =>
    `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="dg-arrow"/></marker>`;
  return (
    `<svg class="diagram" role="img" aria-labelledby="diagram-title" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family='${MONO}' font-size="${FONT_SIZE}">` +
    `<title id="diagram-title">Containers, item types and the data derived between them</title>` +
    `<defs>${marker("arrow-feed")}${marker("arrow-copy")}${marker("arrow-count")}</defs>` +
    groups.markup +
    drawItems(graph, groups.cards) +
    edges.lines +
    edges.labels +
    `</svg>`
  );
}

/** Per container, the room its right side needs for the arcs of edges between its own item types. */
function innerEdgeRoom(graph: DiagramGraph, groupOf: GroupOf): Map<string, number> {
  const inner = new Map<string, number>();
  for (const edge of graph.edges) {
    const group = groupOf.get(edge.from);
    if (group !== undefined && group === groupOf.get(edge.to))
      inner.set(group, Math.max(inner.get(group) ?? 0, textWidth([edge.label]) + INNER_EDGE_MARGIN));
  }
  return inner;
}

/** dagre's layout of the containers, each sized to its header, stacked item types and inner arcs. */
function layoutGroups(
  graph: DiagramGraph,
  groupOf: GroupOf,
  inner: ReadonlyMap<string, number>,
): LayoutGraph {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "LR", nodesep: 30, ranksep: 150, marginx: 14, marginy: 14 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const group of graph.groups) {
    const cardWidth = Math.max(0, ...group.nodes.map((n) => textWidth(n.lines) + 2 * PADDING));
    const width =
      Math.max(textWidth(group.lines.slice(0, 2)) + 2 * PADDING, cardWidth + 2 * PADDING) +
      (inner.get(group.id) ?? 0);
    const height =
      GROUP_HEADER +
      group.nodes.reduce((sum, n) => sum + n.lines.length * LINE_HEIGHT + 2 * PADDING - 4 + CARD_GAP, 0) +
      PADDING;
    g.setNode(group.id, { width, height });
  }
  graph.edges.forEach((edge, i) => {
    const from = groupOf.get(edge.from);
    const to = groupOf.get(edge.to);
    if (from !== undefined && to !== undefined && from !== to) g.setEdge(from, to, {}, `e${i}`);
  });
  dagre.layout(g);
  return g;
}

/** The laid-out containers' boxes and headers, and where each item type's card goes in them. */
function drawGroups(
  graph: DiagramGraph,
  g: LayoutGraph,
): { markup: string; cards: Map<string, Box>; titles: Box[] } {
  const out: string[] = [];
  const cards = new Map<string, Box>();
  const titles: Box[] = [];
  for (const group of graph.groups) {
    const laid = g.node(group.id);
    const left = laid.x - laid.width / 2;
    const top = laid.y - laid.height / 2;
    out.push(
      `<g class="dg-group"><rect x="${round(left)}" y="${round(top)}" width="${round(laid.width)}" height="${round(laid.height)}" rx="8" class="dg-container"/>` +
        textLines(group.lines.slice(0, 2), left + PADDING, top + LINE_HEIGHT + 2, "dg-container-name") +
        (group.lines.length > 2
          ? textLines([group.lines.slice(2).join(", ")], left + PADDING, top + 3 * LINE_HEIGHT + 2, "dg-line")
          : "") +
        `</g>`,
    );
    const header =
      group.lines.length > 2 ? [...group.lines.slice(0, 2), group.lines.slice(2).join(", ")] : group.lines;
    // The container's title lines: no edge label may cover them.
    titles.push({
      x: left,
      y: top,
      width: textWidth(header) + 2 * PADDING,
      height: header.length * LINE_HEIGHT + 8,
    });
    let y = top + GROUP_HEADER + (group.lines.length > 2 ? LINE_HEIGHT : 0);
    for (const node of group.nodes) {
      const box = {
        x: left + PADDING,
        y,
        width: textWidth(node.lines) + 2 * PADDING,
        height: node.lines.length * LINE_HEIGHT + 2 * PADDING - 4,
      };
      cards.set(node.id, box);
      y += box.height + CARD_GAP;
    }
  }
  return { markup: out.join(""), cards, titles };
}

/** The item types' cards, drawn over the edges' lines and under their labels. */
function drawItems(graph: DiagramGraph, cards: ReadonlyMap<string, Box>): string {
  const out: string[] = [];
  for (const group of graph.groups) {
    for (const node of group.nodes) {
      const box = cards.get(node.id);
      if (box === undefined) continue;
      out.push(
        `<g class="dg-item"><rect x="${round(box.x)}" y="${round(box.y)}" width="${round(box.width)}" height="${round(box.height)}" rx="4" class="dg-item-box"/>` +
          textLines(node.lines, box.x + PADDING, box.y + PADDING + FONT_SIZE - 2, "dg-item-name") +
          `</g>`,
      );
    }
  }
  return out.join("");
}

/** An edge between two cards and the sides of them it leaves and enters. */
interface EdgePlan {
  readonly edge: DiagramEdge;
  readonly a: Box;
  readonly b: Box;
  readonly same: boolean;
  readonly fromSide: "l" | "r";
  readonly toSide: "l" | "r";
}

/** The sides each edge uses (an edge inside a container leaves and enters on the right). */
function planEdges(
  graph: DiagramGraph,
  groupOf: GroupOf,
  cards: ReadonlyMap<string, Box>,
): (EdgePlan | undefined)[] {
  return graph.edges.map((edge) => {
    const a = cards.get(edge.from);
    const b = cards.get(edge.to);
    if (a === undefined || b === undefined) return undefined;
    const same = groupOf.get(edge.from) === groupOf.get(edge.to);
    const forward = b.x >= a.x + a.width;
    const fromSide: "l" | "r" = same || forward ? "r" : "l";
    const toSide: "l" | "r" = same ? "r" : forward ? "l" : "r";
    return { edge, a, b, same, fromSide, toSide };
  });
}

/**
 * Places labels where they overlap no card, no container's title and no label placed before:
 * moving up or down in steps of a line, then also sideways by most of their width (the first free
 * place of 48 tries, else where it was asked).
 */
function labelPlacer(obstacles: readonly Box[]): (x: number, y: number, width: number) => Box {
  const placed: Box[] = [...obstacles];
  const overlaps = (r: Box): boolean =>
    placed.some(
      (p) => r.x < p.x + p.width && p.x < r.x + r.width && r.y < p.y + p.height && p.y < r.y + r.height,
    );
  return (x, y, width) => {
    const step = LINE_HEIGHT + 4;
    const asked: Box = { x: x - width / 2, y: y - LINE_HEIGHT / 2 - 1, width, height: LINE_HEIGHT + 2 };
    for (const dx of [0, -0.6 * width, 0.6 * width])
      for (let i = 0; i < 16; i++) {
        const offset = (i % 2 === 0 ? 1 : -1) * Math.ceil(i / 2) * step;
        const trial = { ...asked, x: asked.x + dx, y: asked.y + offset };
        if (!overlaps(trial)) {
          placed.push(trial);
          return trial;
        }
      }
    placed.push(asked);
    return asked;
  };
}

/** A cubic between two ports and the middle of it (for the label). */
function edgeCurve(
  from: { x: number; y: number },
  to: { x: number; y: number },
  plan: EdgePlan,
  bulgeRoom: number,
): { path: string; labelX: number; labelY: number } {
  const { x: x1, y: y1 } = from;
  const { x: x2, y: y2 } = to;
  if (plan.same) {
    const bulge = Math.max(x1, x2) + bulgeRoom * 0.75;
    return {
      path: `M${round(x1)} ${round(y1)} C${round(bulge)} ${round(y1)} ${round(bulge)} ${round(y2)} ${round(x2)} ${round(y2)}`,
      labelX: (x1 + x2) / 8 + (3 * bulge) / 4,
      labelY: (y1 + y2) / 2,
    };
  }
  const bend = Math.max(40, Math.abs(x2 - x1) / 2);
  const c1 = plan.fromSide === "r" ? x1 + bend : x1 - bend;
  const c2 = plan.toSide === "l" ? x2 - bend : x2 + bend;
  return {
    path: `M${round(x1)} ${round(y1)} C${round(c1)} ${round(y1)} ${round(c2)} ${round(y2)} ${round(x2)} ${round(y2)}`,
    // The point of the cubic at t = 0.5.
    labelX: (x1 + 3 * c1 + 3 * c2 + x2) / 8,
    labelY: (y1 + y2) / 2,
  };
}

/** The edges' curves (styled by kind) and their labels, placed clear of the cards and each other. */
function drawEdges(
  graph: DiagramGraph,
  groupOf: GroupOf,
  inner: ReadonlyMap<string, number>,
  cards: ReadonlyMap<string, Box>,
  titles: readonly Box[],
): { lines: string; labels: string } {
  const plans = planEdges(graph, groupOf, cards);
  const sideCount = new Map<string, number>();
  for (const plan of plans) {
    if (plan === undefined) continue;
    for (const key of [`${plan.edge.from}:${plan.fromSide}`, `${plan.edge.to}:${plan.toSide}`])
      sideCount.set(key, (sideCount.get(key) ?? 0) + 1);
  }
  // Several edges leaving or entering one side of a card spread along it.
  const ports = new Map<string, number>();
  const port = (id: string, side: "l" | "r", box: Box): { x: number; y: number } => {
    const key = `${id}:${side}`;
    const used = ports.get(key) ?? 0;
    ports.set(key, used + 1);
    const count = sideCount.get(key) ?? 1;
    return {
      x: side === "r" ? box.x + box.width : box.x,
      y: box.y + (box.height * (used + 1)) / (count + 1),
    };
  };
  const placeLabel = labelPlacer([...cards.values(), ...titles]);
  const lines: string[] = [];
  const labels: string[] = [];
  for (const plan of plans) {
    if (plan === undefined) continue;
    const { edge } = plan;
    const from = port(edge.from, plan.fromSide, plan.a);
    const to = port(edge.to, plan.toSide, plan.b);
    const bulgeRoom = inner.get(groupOf.get(edge.from) ?? "") ?? INNER_EDGE_MARGIN;
    const { path, labelX, labelY } = edgeCurve(from, to, plan, bulgeRoom);
    const style = EDGE_STYLE[edge.kind];
    const label = placeLabel(labelX, labelY, textWidth([edge.label]) + 8);
    lines.push(
      `<path d="${path}" fill="none" class="dg-edge-line dg-${edge.kind}"${style.dash === "" ? "" : ` stroke-dasharray="${style.dash}"`} marker-end="url(#${style.marker})"/>`,
    );
    labels.push(
      `<g class="dg-edge-label-group">` +
        `<rect x="${round(label.x)}" y="${round(label.y)}" width="${round(label.width)}" height="${round(label.height)}" rx="3" class="dg-edge-label-bg"/>` +
        `<text x="${round(label.x + label.width / 2)}" y="${round(label.y + LINE_HEIGHT - 3)}" text-anchor="middle" class="dg-edge-label">${escapeHtml(clip(edge.label))}</text></g>`,
    );
  }
  return { lines: lines.join(""), labels: labels.join("") };
}
