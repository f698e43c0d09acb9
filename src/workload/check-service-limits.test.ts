import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatPath, type Issue } from "../common/issues.js";
import {
  BYTES_PER_GB,
  MAX_ACCOUNT_REGIONS,
  MAX_ACCOUNT_RUS,
  MAX_CONTAINER_STORAGE_GB,
} from "../cosmos/limits.js";
import { loadWorkload } from "./load-workload.js";
import { MAX_HORIZON_MONTHS } from "./raw-schema.js";

const here = dirname(fileURLToPath(import.meta.url));
const base = readFileSync(join(here, "__fixtures__", "base-workload.yaml"), "utf8");

function edit(from: string, to: string, text = base): string {
  if (text.split(from).length !== 2) throw new Error(`"${from}" must occur exactly once`);
  return text.replace(from, to);
}

function errorsOf(text: string): { code: string; path: string; line?: number; message: string }[] {
  return loadWorkload(text, { file: "w.yaml" })
    .issues.filter((issue: Issue) => issue.severity === "error")
    .map((issue) => ({
      code: issue.code,
      path: formatPath(issue.path),
      ...(issue.line === undefined ? {} : { line: issue.line }),
      message: issue.message,
    }));
}

const withScale = (scale: string): string => edit("entities:\n", `scale: ${scale}\nentities:\n`);

describe("scale bounds", () => {
  it("takes up to every Azure region and refuses more, naming the source", () => {
    expect(errorsOf(withScale(`{ regions: ${MAX_ACCOUNT_REGIONS} }`))).toEqual([]);
    const [error] = errorsOf(withScale(`{ regions: ${MAX_ACCOUNT_REGIONS + 1} }`));
    expect(error).toMatchObject({ code: "workload.invalidValue", path: "scale.regions", line: 4 });
    expect(error?.message).toContain("expected at most 100 regions");
    expect(error?.message).toContain("azure.microsoft.com/explore/global-infrastructure");
    const names = Array.from({ length: MAX_ACCOUNT_REGIONS + 1 }, (_, i) => `r${i}`).join(", ");
    expect(errorsOf(withScale(`{ regions: [${names}] }`))).toEqual([
      expect.objectContaining({ code: "workload.invalidValue", path: "scale.regions" }),
    ]);
  });

  it("takes a horizon of up to 1,200 months and says the bound is the tool's", () => {
    expect(errorsOf(withScale(`{ horizonMonths: ${MAX_HORIZON_MONTHS} }`))).toEqual([]);
    const [error] = errorsOf(withScale("{ horizonMonths: 1000000000 }"));
    expect(error).toMatchObject({ code: "workload.invalidValue", path: "scale.horizonMonths" });
    expect(error?.message).toMatch(/at most 1,200 months .* not of Cosmos DB\), got 1000000000$/);
  });
});

describe("numbers over the exact range", () => {
  it("get one issue, saying they are too large (not that they are not whole)", () => {
    const batch = errorsOf(
      edit(
        "    entity: Post\n    rps: { avg: 2, peak: 10 }",
        "    entity: Post\n    batch: 1e20\n    rps: { avg: 2, peak: 10 }",
      ),
    );
    expect(batch).toEqual([
      expect.objectContaining({
        path: "accessPatterns[1].batch",
        message: expect.stringMatching(/^expected a number at most 9,007,199,254,740,991/),
      }),
    ]);
    const ttl = errorsOf(edit("    count: 5000\n", "    count: 5000\n    ttlSeconds: 2592000000000000000\n"));
    expect(ttl).toEqual([
      expect.objectContaining({
        path: "entities.Post.ttlSeconds",
        message: expect.stringMatching(/^expected at most 2,147,483,647 seconds/),
      }),
    ]);
  });
});

describe("workload.beyondServiceLimit", () => {
  it("refuses an entity whose data at the horizon no container could hold, at the entity's line", () => {
    // 2^31 GB of 1 MB items is 2^41 items: one more month of growth than that tips it over.
    const items = Math.ceil((MAX_CONTAINER_STORAGE_GB * BYTES_PER_GB) / 1_000_000 / 12) + 1;
    const text = edit(
      "    count: 5000\n    avgBytes: 1000\n",
      `    count: 1\n    growthPerMonth: ${items}\n    avgBytes: 1000000\n    maxBytes: 2000000\n`,
    );
    const [error] = errorsOf(text);
    expect(error).toMatchObject({ code: "workload.beyondServiceLimit", path: "entities.Post", line: 13 });
    expect(error?.message).toContain("at the end of the 12-month horizon");
    expect(error?.message).toContain("2,147,483,647 GB");
    expect(error?.message).toContain("concepts-limits");
    // The same growth with items expiring after a day fits.
    expect(
      errorsOf(edit("    avgBytes: 1000000\n", "    avgBytes: 1000000\n    ttlSeconds: 86400\n", text)),
    ).toEqual([]);
  });

  it("refuses peak rates no account could serve, counting batches and spreading reads over regions", () => {
    const reads = MAX_ACCOUNT_RUS * 1.5;
    const readHeavy = edit(
      "    with: [User.username]\n    rps: { avg: 10, peak: 50 }",
      `    with: [User.username]\n    rps: { avg: 10, peak: ${reads} }`,
    );
    const [error] = errorsOf(readHeavy);
    expect(error).toMatchObject({ code: "workload.beyondServiceLimit", path: "accessPatterns[3].rps.peak" });
    expect(error?.message).toContain("the largest share from Q2");
    expect(error?.message).toContain("500 containers and databases");
    // Two regions serve the reads with twice the RU/s.
    expect(errorsOf(edit("entities:\n", "scale: { regions: 2 }\nentities:\n", readHeavy))).toEqual([]);
    // A write of many records per request is as many item writes, reported at its batch.
    const bulk = edit(
      "    entity: Post\n    rps: { avg: 2, peak: 10 }",
      `    entity: Post\n    batch: ${Math.ceil(MAX_ACCOUNT_RUS / 5)}\n    rps: { avg: 2, peak: 10 }`,
    );
    expect(errorsOf(bulk)).toEqual([
      expect.objectContaining({ code: "workload.beyondServiceLimit", path: "accessPatterns[1].batch" }),
    ]);
  });

  it("refuses a request that writes more data than a container holds", () => {
    const records = Math.ceil((MAX_CONTAINER_STORAGE_GB * BYTES_PER_GB) / 1000) * 2;
    const text = edit(
      "    entity: Post\n    rps: { avg: 2, peak: 10 }",
      `    entity: Post\n    batch: ${records}\n    rps: { avg: 0, peak: 0 }`,
    );
    expect(errorsOf(text)).toEqual([
      expect.objectContaining({
        code: "workload.beyondServiceLimit",
        path: "accessPatterns[1].batch",
        message: expect.stringContaining("more than one container can hold"),
      }),
    ]);
  });
});
