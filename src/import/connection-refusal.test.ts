/**
 * Issue 28: connection strings of any form are recognised before they are taken for a file name,
 * refused with what would be valid, and never echoed with their password.
 */
import { describe, expect, it } from "vitest";
import { connectionRefusal } from "./import-database.js";
import { connectionKind, redactConnectionText, redactConnectionUrl } from "./postgres/connection-url.js";

const SECRET = "S3cretPW";

describe("connections an import cannot read", () => {
  it.each([
    ["mysql://user:S3cretPW@localhost/db", "import.unsupportedConnection", /--dialect mysql/],
    ["mariadb://user:S3cretPW@localhost/db", "import.unsupportedConnection", /--dialect mysql/],
    ["sqlserver://sa:S3cretPW@db", "import.unsupportedConnection", /--dialect sqlserver/],
    ["postgress://user:S3cretPW@localhost/db", "import.unsupportedConnection", /did you mean postgres:\/\//],
    ["host=db password=S3cretPW dbname=shop", "import.unsupportedConnection", /PGPASSWORD/],
    ["host=db password='S3cretPW and more' dbname=shop", "import.unsupportedConnection", /postgres:\/\//],
    ["postgres://user:S3cretPW@[bad/db", "import.badConnectionUrl", /not a valid URL/],
    ["postgresql://user:S3cretPW@localhost:99999/db", "import.badConnectionUrl", /port 99999 is not a port/],
  ])("%s: %s, what would be valid, and no password", (source, code, advice) => {
    const refusal = connectionRefusal(source);
    expect(refusal?.code).toBe(code);
    expect(refusal?.message).toMatch(advice);
    expect(refusal?.message).not.toContain(SECRET);
    expect(refusal?.message).toContain("***");
  });

  it("lets a valid postgres:// URL and a file name through", () => {
    expect(connectionRefusal("postgres://app@db.example.com:5432/shop")).toBeUndefined();
    expect(connectionRefusal("schema/host-names.sql")).toBeUndefined();
    expect(connectionKind("schema/host-names.sql")).toBeUndefined();
    expect(connectionKind("./dumps/user=alice.sql")).toBeUndefined();
  });

  it("masks passwords in text that is not a valid URL", () => {
    expect(redactConnectionText("postgres://u:pw@[x/db?password=pw2&sslkey=k")).toBe(
      "postgres://u:***@[x/db?password=***&sslkey=***",
    );
    expect(redactConnectionUrl("postgres://u:S3cretPW@[x/db")).not.toContain(SECRET);
  });
});
