/**
 * The verify report text: a row per pattern with its result, charges as measured only on a real
 * endpoint (compared with the estimate's range), the first difference of each failure, the reason
 * of each check not run here, and the closing counts.
 */
import { describe, expect, it } from "vitest";
import { formatVerificationReport, RU_NOT_MEASURED_EMBEDDED } from "./format-report.js";
import type { PatternOutcome, VerificationReport } from "./run-verification.js";

const estimate = { estimate: 10, low: 8, high: 12 };

const embedded: VerificationReport = {
  endpoint: { kind: "embedded", url: "http://127.0.0.1:1234" },
  databaseId: "cosmos-modeler-verify-x",
  kept: false,
  seed: 5,
  data: {
    recordsPerEntity: { User: 10 },
    itemsPerContainer: { users: 10, posts: 1234 },
    loaded: 1244,
    loadMs: 1500,
    writes: 4,
  },
  load: { status: "passed" },
  patterns: [
    {
      patternId: "C1",
      type: "write",
      name: "w",
      status: "passed",
      requests: 2,
      estimatedRu: estimate,
      latencyMs: { p50: 1.5, max: 3 },
    },
    {
      patternId: "Q1",
      type: "read",
      name: "r",
      status: "failed",
      detail: "Q1: expected 100 results, got 10",
      requests: 3,
      estimatedRu: estimate,
      latencyMs: { p50: 20, max: 40 },
    },
    {
      patternId: "Q2",
      type: "read",
      name: "r",
      status: "notCheckable",
      detail: "the embedded endpoint cannot parse GROUP BY",
      requests: 0,
      estimatedRu: estimate,
    },
  ],
  limitations: [{ capability: "measuresRequestCharge", reason: "1 RU for everything" }],
  outOfScope: ["expiry of items with a ttl"],
  counts: { passed: 1, failed: 1, notCheckable: 1 },
  probes: [
    {
      probe: "concurrentCounter",
      counter: { holder: { container: "posts", itemType: "post" }, property: "likeCount", child: "Like" },
      children: 20,
      edits: 20,
      failedWrites: 0,
      expected: 20,
      counted: [17],
      status: "failed",
      detail: "the counter reads 17 after 20 Like created concurrently (expected 20)",
      elapsedMs: 120,
    },
    {
      probe: "paging",
      patternId: "Q3",
      pageSize: 3,
      pages: 4,
      items: 12,
      expected: 12,
      distinct: 12,
      status: "passed",
      elapsedMs: 30,
    },
    {
      probe: "feedRestart",
      counter: { holder: { container: "posts", itemType: "post" }, property: "likeCount", child: "Like" },
      failuresInjected: 0,
      expected: 2,
      counted: null,
      status: "notCheckable",
      detail: "needs a real account",
      elapsedMs: 0,
    },
  ],
  probeCounts: { passed: 1, failed: 1, notCheckable: 1 },
  ok: false,
  elapsedMs: 2500,
};

describe("formatVerificationReport", () => {
  const text = formatVerificationReport(embedded, "Blog");

  it("prints one row per pattern with its result and n/a (embedded) for charges", () => {
    expect(text).toMatch(
      /^C1\s+write\s+passed\s+n\/a \(embedded\)\s+10\.0 \(8\.0-12\.0\)\s+1\.5 \/ 3\.0 ms$/m,
    );
    expect(text).toMatch(/^Q1\s+read\s+FAILED\s+n\/a \(embedded\)/m);
    expect(text).toMatch(/^Q2\s+read\s+not checkable here\s+-\s+10\.0/m);
    expect(text.match(new RegExp(RU_NOT_MEASURED_EMBEDDED.replace(/[()]/g, "\\$&"), "g"))).toHaveLength(2);
  });

  it("lists the first difference of each failure, why a check was not run, and the counts", () => {
    expect(text).toContain("failures (first difference):\n  Q1: expected 100 results, got 10\n");
    expect(text).toContain("not checkable here:\n  Q2: the embedded endpoint cannot parse GROUP BY\n");
    expect(text).toContain("not checked on this endpoint:\n  - 1 RU for everything\n");
    expect(text).toContain("never checked by verify:\n  - expiry of items with a ttl\n");
    expect(text).toContain("data: 1,244 items loaded in 1.5 s (users 10, posts 1,234); 4 writes");
    expect(text).toContain("database cosmos-modeler-verify-x removed");
    expect(text).toContain(
      "result: 1 passed, 1 failed, 1 not checkable here; probes: 1 passed, 1 failed, 1 not checkable here (2.5 s)",
    );
  });

  it("prints each probe with its figures, why it failed, and why it could not run here", () => {
    expect(text).toContain(
      [
        "probes of the generated data-access code:",
        "  FAILED: posts/post.likeCount: 20 Like created while the holder is edited 20 times",
        "    expected 20, counted 17; 0 writes failed",
        "    the counter reads 17 after 20 Like created concurrently (expected 20)",
        "  passed: Q3: every page at 3 per page, each item once",
        "    12 items in 4 pages, 12 distinct, 12 expected",
        "  not checkable here: posts/post.likeCount: a handler failing once, a processor stopped and restarted",
        "    needs a real account",
      ].join("\n"),
    );
  });

  it("compares measured charges with the estimate's range on a real endpoint", () => {
    const real: VerificationReport = {
      ...embedded,
      endpoint: { kind: "real", url: "https://account.documents.azure.com:443/" },
      kept: true,
      patterns: [
        { ...(embedded.patterns[0] as PatternOutcome), measuredRu: 9.5, ruVersusEstimate: "within" },
        { ...(embedded.patterns[1] as PatternOutcome), measuredRu: 30, ruVersusEstimate: "above" },
      ],
      limitations: [],
    };
    const realText = formatVerificationReport(real, "Blog");
    expect(realText).not.toContain(RU_NOT_MEASURED_EMBEDDED);
    expect(realText).toMatch(/^C1\s+write\s+passed\s+9\.5\s+.*within the estimate's range$/m);
    expect(realText).toMatch(
      /^Q1\s+read\s+FAILED\s+30\.0\s+.*above the estimate's range \(x3\.0 the estimate\)$/m,
    );
    expect(realText).toContain("on https://account.documents.azure.com:443/");
    expect(realText).toContain("kept (--keep)");
    expect(realText).not.toContain("not checked on this endpoint");
  });
});
