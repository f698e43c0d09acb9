-- A small online shop in PostgreSQL: the starting point of `cosmos-modeler import`.
--   cosmos-modeler import examples/online-shop/schema.sql --out shop-model
-- imports the structure (entities, keys, attribute types, relationships); importing a live
-- database (a postgres:// URL) also brings row counts, sizes, distinct values and the access
-- patterns with their average rates from pg_stat_statements.

CREATE TABLE customers (
  customer_id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email         text NOT NULL UNIQUE,
  full_name     text NOT NULL,
  loyalty_tier  text NOT NULL DEFAULT 'bronze' CHECK (loyalty_tier IN ('bronze', 'silver', 'gold', 'platinum')),
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE addresses (
  address_id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id   bigint NOT NULL REFERENCES customers (customer_id) ON DELETE CASCADE,
  line1         text NOT NULL,
  city          text NOT NULL,
  postal_code   varchar(12) NOT NULL,
  country       char(2) NOT NULL,
  is_default    boolean NOT NULL DEFAULT false
);

CREATE TABLE categories (
  category_id   integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name          text NOT NULL UNIQUE
);

CREATE TABLE products (
  product_id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  category_id   integer NOT NULL REFERENCES categories (category_id),
  name          text NOT NULL,
  description   text,
  price         numeric(10, 2) NOT NULL,
  stock         integer NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tags (
  tag_id        integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  label         text NOT NULL UNIQUE
);

-- a pure join table: imported as a many-to-many relationship between products and tags
CREATE TABLE product_tags (
  product_id    bigint NOT NULL REFERENCES products (product_id) ON DELETE CASCADE,
  tag_id        integer NOT NULL REFERENCES tags (tag_id) ON DELETE CASCADE,
  PRIMARY KEY (product_id, tag_id)
);

CREATE TABLE orders (
  order_id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id   bigint NOT NULL REFERENCES customers (customer_id),
  status        text NOT NULL DEFAULT 'placed',
  total         numeric(12, 2) NOT NULL,
  placed_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX orders_by_customer ON orders (customer_id, placed_at DESC);

CREATE TABLE order_lines (
  order_id      bigint NOT NULL REFERENCES orders (order_id) ON DELETE CASCADE,
  line_no       smallint NOT NULL,
  product_id    bigint NOT NULL REFERENCES products (product_id),
  quantity      integer NOT NULL CHECK (quantity > 0),
  unit_price    numeric(10, 2) NOT NULL,
  PRIMARY KEY (order_id, line_no)
);

CREATE TABLE reviews (
  review_id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  product_id    bigint NOT NULL REFERENCES products (product_id),
  customer_id   bigint NOT NULL REFERENCES customers (customer_id),
  rating        smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  body          text,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reviews_by_product ON reviews (product_id, created_at DESC);

-- Logic in the database is not imported: it is listed in cosmosdb_requirements.md for review
-- (in Cosmos DB it becomes application code, a stored procedure or a change feed handler).
CREATE FUNCTION decrement_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products SET stock = stock - NEW.quantity WHERE product_id = NEW.product_id;
  RETURN NEW;
END;
$$;

CREATE TRIGGER order_lines_decrement_stock
  AFTER INSERT ON order_lines
  FOR EACH ROW EXECUTE FUNCTION decrement_stock();
