/**
 * Issue 28: statements are mapped without losing what they ask. A NOT EXISTS subquery is listed
 * for the user, not merged into the plain read beside it; statements that differ only in a
 * condition the pattern cannot hold (IS NULL) stay apart, each with its own rate.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { readDdl } from "./ddl/read-ddl.js";
import { mapSnapshot } from "./map-snapshot.js";
import type { DatabaseSnapshot, StatementStatistics } from "./snapshot/snapshot.js";
import { analyzePostgresStatement, loadPostgresParser } from "./sql/postgres-parser.js";

const shop = readFileSync(new URL("../../examples/online-shop/schema.sql", import.meta.url), "utf8");
const WINDOW = 1000;

beforeAll(() => loadPostgresParser());

/** The shop's structure with `statements` recorded over a window of 1,000 s. */
function imported(statements: readonly (readonly [string, number])[]) {
  const structure = readDdl(shop, "schema.sql", "postgresql", "2026-01-01T00:00:00.000Z");
  const snapshot: DatabaseSnapshot = {
    ...structure,
    source: {
      kind: "postgresql",
      connection: "postgres://importer@db/shop",
      database: "shop",
      serverVersion: "15",
      capturedAt: "2026-01-01T00:00:00.000Z",
      statementsSince: "2025-12-31T23:43:20.000Z",
      windowSeconds: WINDOW,
    },
    statements: statements.map(([query, calls], index): StatementStatistics => ({
      queryId: String(index + 1),
      query,
      calls,
      rows: calls,
      meanMilliseconds: 1,
    })),
  };
  return mapSnapshot(snapshot, analyzePostgresStatement);
}

describe("statements mapped to access patterns", () => {
  it("lists a NOT EXISTS read instead of merging it into the plain read, whose rate is its own", () => {
    const { draft, record } = imported([
      ["SELECT * FROM orders WHERE customer_id = $1", 3000],
      [
        "SELECT * FROM orders o WHERE o.customer_id = $1 AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.customer_id = o.customer_id)",
        3630,
      ],
    ]);
    const reads = draft.accessPatterns.filter((p) => p.type === "read");
    expect(reads).toHaveLength(1);
    expect(reads[0]?.rps?.avg).toBe(3);
    expect(record.unmapped.map((u) => u.reason)).toContainEqual(
      expect.stringContaining("NOT EXISTS or NOT IN subquery"),
    );
  });

  it("keeps statements that differ in an IS NULL condition apart, each with its rate", () => {
    const { draft } = imported([
      ["SELECT count(*) FROM orders WHERE customer_id = $1", 1000],
      ["SELECT count(*) FROM orders WHERE customer_id = $1 AND placed_at IS NULL", 2000],
    ]);
    const rates = draft.accessPatterns.map((p) => p.rps?.avg).sort();
    expect(rates).toEqual([1, 2]);
  });

  it("drafts a join over three tables as the read of the table its filters select, naming the others", () => {
    const { draft, record } = imported([
      [
        "SELECT o.order_id, o.placed_at, p.name FROM orders o JOIN order_lines l ON l.order_id = o.order_id JOIN products p ON p.product_id = l.product_id WHERE o.customer_id = $1 ORDER BY o.placed_at DESC",
        4400,
      ],
      [
        "SELECT p.name FROM orders o JOIN order_lines l ON l.order_id = o.order_id JOIN products p ON p.product_id = l.product_id WHERE o.customer_id = $1 AND p.category_id = $2",
        10,
      ],
    ]);
    const [read] = draft.accessPatterns;
    expect(draft.accessPatterns).toHaveLength(1);
    expect(read).toMatchObject({
      type: "read",
      entity: "Order",
      where: { customerId: "eq" },
      orderBy: { placedAt: "desc" },
      rps: { avg: 4.4 },
    });
    expect(record.unmapped.map((u) => u.reason)).toContainEqual(
      expect.stringContaining("filters several of them"),
    );
  });

  it("follows a wide join's foreign keys from the table it returns: each parent's columns as with entries", () => {
    const { draft } = imported([
      [
        "SELECT r.rating, r.body, p.name, c.full_name FROM reviews r JOIN products p ON p.product_id = r.product_id JOIN customers c ON c.customer_id = r.customer_id WHERE r.product_id = $1",
        500,
      ],
    ]);
    expect(draft.accessPatterns).toHaveLength(1);
    expect(draft.accessPatterns[0]).toMatchObject({
      type: "read",
      entity: "Review",
      where: { productId: "eq" },
      with: ["Product.name", "Customer.fullName"],
      rps: { avg: 0.5 },
    });
  });

  it("reads a child of a wide join as all(Child) and names what lies two relationships away for the interview", () => {
    const { draft, record } = imported([
      [
        "SELECT o.order_id, l.quantity, p.name FROM orders o JOIN order_lines l ON l.order_id = o.order_id JOIN products p ON p.product_id = l.product_id WHERE o.order_id = $1",
        300,
      ],
    ]);
    const [read] = draft.accessPatterns;
    expect(read).toMatchObject({ entity: "Order", where: { orderId: "eq" }, with: ["all(OrderLine)"] });
    // one row per line: the rows are not the orders returned
    expect(read?.returns).toBeUndefined();
    const notes = record.facts.filter((f) => f.path.join("/") === `accessPatterns/${read?.id ?? ""}/name`);
    expect(notes.map((f) => f.source).join("\n")).toMatch(
      /products\.name: products is 2 relationships away from Order \(through order_lines\)/,
    );
  });
});
