import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { mapSnapshot } from "../map-snapshot.js";
import { analyzePostgresStatement, loadPostgresParser } from "../sql/postgres-parser.js";
import { readDdl } from "./read-ddl.js";

const NOW = "2026-01-01T00:00:00.000Z";
const shop = readFileSync(new URL("../../../examples/online-shop/schema.sql", import.meta.url), "utf8");

const mysql = `
CREATE TABLE customers (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  email VARCHAR(255) NOT NULL UNIQUE,
  created_at DATETIME DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE orders (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  customer_id BIGINT UNSIGNED NOT NULL,
  total DECIMAL(10,2),
  CONSTRAINT fk_c FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
);
DELIMITER ;;
CREATE TRIGGER orders_ai AFTER INSERT ON orders FOR EACH ROW BEGIN UPDATE customers SET email = email WHERE id = NEW.customer_id; END;;
DELIMITER ;
`;

const sqlserver = `
SET ANSI_NULLS ON
GO
CREATE TABLE [dbo].[Customers](
  [CustomerId] [int] IDENTITY(1,1) NOT NULL,
  [Email] [nvarchar](255) NOT NULL,
  [IsActive] [bit] NOT NULL,
  CONSTRAINT [PK_Customers] PRIMARY KEY CLUSTERED ([CustomerId] ASC)
) ON [PRIMARY]
GO
CREATE TABLE [dbo].[Orders](
  [OrderId] [uniqueidentifier] NOT NULL PRIMARY KEY,
  [CustomerId] [int] NOT NULL,
  [PlacedAt] [datetime2](7) NOT NULL
)
GO
ALTER TABLE [dbo].[Orders] ADD CONSTRAINT [FK_Orders_Customers] FOREIGN KEY([CustomerId]) REFERENCES [dbo].[Customers] ([CustomerId])
GO
CREATE PROCEDURE dbo.PlaceOrder @CustomerId int AS
BEGIN
  INSERT INTO dbo.Orders (OrderId, CustomerId, PlacedAt) VALUES (NEWID(), @CustomerId, SYSUTCDATETIME());
END
GO
`;

beforeAll(async () => {
  await loadPostgresParser();
});

describe("readDdl", () => {
  it("reads the PostgreSQL example: entities, keys, types, foreign keys, the link table and the trigger", () => {
    const snapshot = readDdl(shop, "schema.sql", undefined, NOW);
    expect(snapshot.source).toMatchObject({ kind: "ddl", dialect: "postgresql" });
    const { draft, record } = mapSnapshot(snapshot, analyzePostgresStatement);
    expect(draft.entities.map((e) => e.name).sort()).toEqual([
      "Address",
      "Category",
      "Customer",
      "Order",
      "OrderLine",
      "Product",
      "Review",
      "Tag",
    ]);
    expect(draft.entities.find((e) => e.name === "Order")).toMatchObject({ key: ["orderId"] });
    expect(draft.entities.find((e) => e.name === "Order")?.count).toBeUndefined(); // volumes are asked
    expect(draft.relationships).toContainEqual({
      parent: "Order",
      child: "OrderLine",
      via: ["orderId"],
      owned: true,
    });
    expect(draft.relationships).toContainEqual({ parent: "Product", child: "Tag", kind: "many-to-many" });
    expect(record.unmapped.map((u) => `${u.kind} ${u.name}`)).toEqual(
      expect.arrayContaining(["trigger order_lines_decrement_stock", "function decrement_stock"]),
    );
    expect(draft.accessPatterns).toEqual([]);
  });

  it("recognises MySQL and reads its keys, foreign keys (ON DELETE CASCADE) and triggers", () => {
    const snapshot = readDdl(mysql, "shop.sql", undefined, NOW);
    expect(snapshot.source).toMatchObject({ dialect: "mysql" });
    const { draft, record } = mapSnapshot(snapshot, analyzePostgresStatement);
    expect(draft.entities.find((e) => e.name === "Customer")).toMatchObject({ key: ["id"] });
    expect(draft.entities.find((e) => e.name === "Customer")?.attributes).toContainEqual({
      name: "email",
      type: "string",
      unique: true,
    });
    expect(draft.relationships).toEqual([
      { parent: "Customer", child: "Order", via: ["customerId"], owned: true },
    ]);
    expect(record.unmapped.map((u) => `${u.kind} ${u.name}`)).toContain("trigger orders_ai");
  });

  it("recognises SQL Server scripts (GO, [names], ALTER TABLE foreign keys) and lists procedures", () => {
    const snapshot = readDdl(sqlserver, "shop.sql", undefined, NOW);
    expect(snapshot.source).toMatchObject({ dialect: "sqlserver" });
    const { draft, record } = mapSnapshot(snapshot, analyzePostgresStatement);
    expect(draft.entities.find((e) => e.name === "Customer")).toMatchObject({ key: ["customerId"] });
    expect(draft.entities.find((e) => e.name === "Customer")?.attributes).toContainEqual({
      name: "isActive",
      type: "boolean",
    });
    expect(draft.entities.find((e) => e.name === "Order")?.attributes).toContainEqual({
      name: "placedAt",
      type: "datetime",
    });
    expect(draft.relationships).toEqual([{ parent: "Customer", child: "Order", via: ["customerId"] }]);
    expect(record.unmapped.map((u) => `${u.kind} ${u.name}`)).toContain("procedure dbo.PlaceOrder");
  });

  it("lists a statement the parser cannot read and still imports the rest", () => {
    const snapshot = readDdl(
      `${shop}\nCREATE TABLE broken (id int PRIMARY KEY,,);\n`,
      "schema.sql",
      "postgresql",
      NOW,
    );
    expect(snapshot.tables.map((t) => t.name)).toContain("orders");
    expect(snapshot.unread).toHaveLength(1);
    expect(snapshot.unread[0]?.reason).toMatch(/PostgreSQL parser/);
  });

  it("keeps the name id only for a single-column primary key: another id column becomes idValue", () => {
    const ddl = `
CREATE TABLE lines (order_id int, line_no int, id text, PRIMARY KEY (order_id, line_no));
CREATE TABLE vehicles (vehicle_id int PRIMARY KEY, id text NOT NULL, "type" text);
CREATE TABLE people (id int PRIMARY KEY, name text);`;
    const { draft } = mapSnapshot(readDdl(ddl, "x.sql", "postgresql", NOW), analyzePostgresStatement);
    const names = (entity: string) =>
      draft.entities.find((e) => e.name === entity)?.attributes?.map((a) => a.name);
    expect(names("Line")).toEqual(["orderId", "lineNo", "idValue"]);
    expect(names("Vehicle")).toEqual(["vehicleId", "idValue", "typeValue"]);
    expect(names("Person")).toEqual(["id", "name"]);
    expect(draft.entities.find((e) => e.name === "Person")).toMatchObject({ key: ["id"] });
  });

  it("refuses a file without tables, saying what would be valid", () => {
    expect(() => readDdl("SELECT 1;", "x.sql", undefined, NOW)).toThrow(/no CREATE TABLE/);
  });
});
