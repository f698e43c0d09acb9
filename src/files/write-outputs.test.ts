import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeOutputs } from "./write-outputs.js";

describe("writeOutputs", () => {
  it("removes every stale temporary file of the folders it writes in, also of files it does not rewrite", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cosmos-modeler-write-"));
    const files = [
      { path: "a.md", content: "a\n", executable: false },
      { path: join("infra", "main.bicep"), content: "b\n", executable: false },
    ];
    expect((await writeOutputs(dir, files)).written).toHaveLength(2);
    // An interrupted earlier run left these; the rerun finds both files unchanged.
    writeFileSync(join(dir, ".a.md.0123456789ab.tmp"), "partial");
    writeFileSync(join(dir, "infra", ".main.bicep.abcdef012345.tmp"), "partial");
    writeFileSync(join(dir, ".cosmos-modeler", ".manifest.json.0123456789ab.tmp"), "partial");
    writeFileSync(join(dir, "notes.tmp"), "the user's own file");
    const again = await writeOutputs(dir, files);
    expect(again.written).toEqual([]);
    expect(again.unchanged).toHaveLength(2);
    const left = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) =>
      name.endsWith(".tmp"),
    );
    expect(left).toEqual(["notes.tmp"]);
  });
});
