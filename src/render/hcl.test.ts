/**
 * HCL values for `main.tf`: a JSON value written by `hclValue` reads back as the same value
 * through the HCL parser Terraform uses (`@cdktf/hcl2json`), and user text can neither end a
 * string nor start an interpolation.
 */
import { describe, expect, it } from "vitest";
import { parseTerraform } from "../test-support/iac-schemas.js";
import { hclValue } from "./hcl.js";

/** The value of `v = <value>` in a file, as the parser reads it. */
async function readBack(value: unknown): Promise<unknown> {
  const json = (await parseTerraform(`locals {\n  v = ${hclValue(value, "  ")}\n}\n`)) as {
    locals: { v: unknown }[];
  };
  return json.locals[0]?.v;
}

describe("hclValue", () => {
  it("reads back as the same JSON value: nested objects, lists of lists, keys that are not identifiers", async () => {
    const value = {
      id: 'a "quoted" \\ name\nwith a newline',
      "not-an identifier": 1,
      "1starts with a digit": true,
      partitionKey: { paths: ["/a", "/b"], kind: "MultiHash", version: 2 },
      composite: [
        [
          { path: "/a", order: "ascending" },
          { path: "/b", order: "descending" },
        ],
      ],
      empty: { list: [], object: {} },
      ratio: 0.25,
      nothing: null,
    };
    expect(await readBack(value)).toEqual(value);
  });

  it("leaves out undefined properties, as JSON.stringify does", async () => {
    expect(await readBack({ a: 1, b: undefined })).toEqual({ a: 1 });
  });

  it("keeps ${ and %{ in user text literal", async () => {
    const value = { name: "${var.secret} %{if true}x%{endif}" };
    const written = hclValue(value, "");
    expect(written).toContain("$${var.secret}");
    expect(written).toContain("%%{if true}");
    // hcl2json gives template escapes as written (no interpolation left in them); Terraform reads
    // `$${` as `${`.
    expect(await readBack(value)).toEqual({ name: "$${var.secret} %%{if true}x%%{endif}" });
  });

  it("aligns the = of neighbouring one-line attributes, as terraform fmt does", () => {
    expect(hclValue({ id: "x", partitionKey: { paths: ["/a"], version: 2 } }, "")).toBe(
      ["{", '  id = "x"', "  partitionKey = {", '    paths   = ["/a"]', "    version = 2", "  }", "}"].join(
        "\n",
      ),
    );
  });

  it("refuses what HCL cannot write as a literal", () => {
    expect(() => hclValue({ n: Number.NaN }, "")).toThrow("not an HCL literal");
  });
});
