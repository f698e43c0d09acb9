/**
 * The only script of the report, inlined by `renderReportHtml` as the source of
 * {@link enhanceReport}: it makes the tables marked `data-sortable` sortable by clicking (or
 * pressing Enter or Space on) a column header's button, numbers by their `data-sort` value, and
 * keeps `aria-sort` up to date. Without it the report reads the same, in the original order.
 *
 * The project compiles without the DOM library, so the few DOM shapes used are declared here.
 * The function must stay self-contained (no imports, no helpers): its text is what runs.
 */

interface ClientElement {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelector(selector: string): ClientElement | null;
  querySelectorAll(selector: string): ArrayLike<ClientElement>;
  addEventListener(type: string, listener: () => void): void;
  appendChild(child: ClientElement): void;
  readonly textContent: string | null;
  readonly children: ArrayLike<ClientElement>;
}

export interface ClientDocument {
  querySelectorAll(selector: string): ArrayLike<ClientElement>;
}

/** Makes the report's sortable tables sort (run in the browser as `(source)(document)`). */
export function enhanceReport(doc: ClientDocument): void {
  const tables = Array.from(doc.querySelectorAll("table[data-sortable]"));
  for (const table of tables) {
    const headers = Array.from(table.querySelectorAll("thead th"));
    headers.forEach((header, column) => {
      const button = header.querySelector("button");
      if (button === null) return;
      button.addEventListener("click", () => {
        const ascending = header.getAttribute("aria-sort") !== "ascending";
        for (const other of headers) other.removeAttribute("aria-sort");
        header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        const body = table.querySelector("tbody");
        if (body === null) return;
        const rows = Array.from(body.children);
        const keyOf = (row: ClientElement): string | number => {
          const cell = row.children[column];
          if (cell === undefined) return "";
          const sort = cell.getAttribute("data-sort");
          if (sort !== null && sort !== "" && !Number.isNaN(Number(sort))) return Number(sort);
          return (sort ?? cell.textContent ?? "").trim().toLowerCase();
        };
        rows.sort((a, b) => {
          const x = keyOf(a);
          const y = keyOf(b);
          const order =
            typeof x === "number" && typeof y === "number"
              ? x - y
              : String(x).localeCompare(String(y), "en", { numeric: true });
          return ascending ? order : -order;
        });
        for (const row of rows) body.appendChild(row);
      });
    });
  }
}
