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
  const inner = new Map<string, number>();
  for (const edge of graph.edges) {
    const group = groupOf.get(edge.from);
    if (group !== undefined && group === groupOf.get(edge.to))
      inner.set(group, Math.max(inner.get(group) ?? 0, textWidth([edge.label]) + INNER_EDGE_MARGIN));
  }
  const cards = new Map<string, Box>();
  const sizes = new Map<string, { width: number; height: number }>();
  for (const group of graph.groups) {
    const cardWidth = Math.max(0, ...group.nodes.map((n) => textWidth(n.lines) + 2 * PADDING));
    const width =
      Math.max(textWidth(group.lines.slice(0, 2)) + 2 * PADDING, cardWidth + 2 * PADDING) +
      (inner.get(group.id) ?? 0);
    const height =
      GROUP_HEADER +
      group.nodes.reduce((sum, n) => sum + n.lines.length * LINE_HEIGHT + 2 * PADDING - 4 + CARD_GAP, 0) +
      PADDING;
    sizes.set(group.id, { width, height });
  }
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "LR", nodesep: 30, ranksep: 150, marginx: 14, marginy: 14 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const group of graph.groups) g.setNode(group.id, { ...sizes.get(group.id) });
  graph.edges.forEach((edge, i) => {
    const from = groupOf.get(edge.from);
    const to = groupOf.get(edge.to);
    if (from !== undefined && to !== undefined && from !== to) g.setEdge(from, to, {}, `e${i}`);
  });
  dagre.layout(g);
  const out: string[] = [];
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
  // Several edges leaving or entering one side of a card spread along it.
  const ports = new Map<string, number>();
  const portY = (id: string, side: "l" | "r", box: Box, count: number): number => {
    const key = `${id}:${side}`;
    const used = ports.get(key) ?? 0;
    ports.set(key, used + 1);
    return box.y + (box.height * (used + 1)) / (count + 1);
  };
  const sideCount = new Map<string, number>();
  const plans = graph.edges.map((edge) => {
    const a = cards.get(edge.from);
    const b = cards.get(edge.to);
    if (a === undefined || b === undefined) return undefined;
    const same = groupOf.get(edge.from) === groupOf.get(edge.to);
    const forward = b.x >= a.x + a.width;
    const fromSide: "l" | "r" = same || forward ? "r" : "l";
    const toSide: "l" | "r" = same ? "r" : forward ? "l" : "r";
    for (const key of [`${edge.from}:${fromSide}`, `${edge.to}:${toSide}`])
      sideCount.set(key, (sideCount.get(key) ?? 0) + 1);
    return { edge, a, b, same, fromSide, toSide };
  });
  const edgeMarkup: string[] = [];
  const labelMarkup: string[] = [];
  // Labels that would overlap a placed label (or a card) move up or down in steps of a line.
  const placed: Box[] = [...cards.values()];
  const overlaps = (r: Box): boolean =>
    placed.some(
      (p) => r.x < p.x + p.width && p.x < r.x + r.width && r.y < p.y + p.height && p.y < r.y + r.height,
    );
  const placeLabel = (x: number, y: number, width: number): Box => {
    const step = LINE_HEIGHT + 4;
    let best: Box = { x: x - width / 2, y: y - LINE_HEIGHT / 2 - 1, width, height: LINE_HEIGHT + 2 };
    for (let i = 0; i < 12; i++) {
      const offset = (i % 2 === 0 ? 1 : -1) * Math.ceil(i / 2) * step;
      const trial = { ...best, y: y - LINE_HEIGHT / 2 - 1 + offset };
      if (!overlaps(trial)) {
        best = trial;
        break;
      }
    }
    placed.push(best);
    return best;
  };
  for (const plan of plans) {
    if (plan === undefined) continue;
    const { edge, a, b, same, fromSide, toSide } = plan;
    const x1 = fromSide === "r" ? a.x + a.width : a.x;
    const y1 = portY(edge.from, fromSide, a, sideCount.get(`${edge.from}:${fromSide}`) ?? 1);
    const x2 = toSide === "r" ? b.x + b.width : b.x;
    const y2 = portY(edge.to, toSide, b, sideCount.get(`${edge.to}:${toSide}`) ?? 1);
    let path: string;
    let labelX: number;
    let labelY: number;
    if (same) {
      const bulge = Math.max(x1, x2) + (inner.get(groupOf.get(edge.from) ?? "") ?? INNER_EDGE_MARGIN) * 0.75;
      path = `M${round(x1)} ${round(y1)} C${round(bulge)} ${round(y1)} ${round(bulge)} ${round(y2)} ${round(x2)} ${round(y2)}`;
      labelX = (x1 + x2) / 8 + (3 * bulge) / 4;
      labelY = (y1 + y2) / 2;
    } else {
      const bend = Math.max(40, Math.abs(x2 - x1) / 2);
      const c1 = fromSide === "r" ? x1 + bend : x1 - bend;
      const c2 = toSide === "l" ? x2 - bend : x2 + bend;
      path = `M${round(x1)} ${round(y1)} C${round(c1)} ${round(y1)} ${round(c2)} ${round(y2)} ${round(x2)} ${round(y2)}`;
      // The point of the cubic at t = 0.5.
      labelX = (x1 + 3 * c1 + 3 * c2 + x2) / 8;
      labelY = (y1 + y2) / 2;
    }
    const style = EDGE_STYLE[edge.kind];
    const label = placeLabel(labelX, labelY, textWidth([edge.label]) + 8);
    edgeMarkup.push(
      `<path d="${path}" fill="none" class="dg-edge-line dg-${edge.kind}"${style.dash === "" ? "" : ` stroke-dasharray="${style.dash}"`} marker-end="url(#${style.marker})"/>`,
    );
    labelMarkup.push(
      `<g class="dg-edge-label-group">` +
        `<rect x="${round(label.x)}" y="${round(label.y)}" width="${round(label.width)}" height="${round(label.height)}" rx="3" class="dg-edge-label-bg"/>` +
        `<text x="${round(label.x + label.width / 2)}" y="${round(label.y + LINE_HEIGHT - 3)}" text-anchor="middle" class="dg-edge-label">${escapeHtml(clip(edge.label))}</text></g>`,
    );
  }
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
  const layout = g.graph();
  const width = Math.ceil(layout.width ?? 0);
  const height = Math.ceil(layout.height ?? 0);
  const marker = (id: string) =>
    `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="dg-arrow"/></marker>`;
  return (
    `<svg class="diagram" role="img" aria-labelledby="diagram-title" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family='${MONO}' font-size="${FONT_SIZE}">` +
    `<title id="diagram-title">Containers, item types and the data derived between them</title>` +
    `<defs>${marker("arrow-feed")}${marker("arrow-copy")}${marker("arrow-count")}</defs>` +
    out.join("") +
    edgeMarkup.join("") +
    labelMarkup.join("") +
    `</svg>`
  );
}
