/**
 * The data model document's verification section: the patterns' headline and table, and the
 * probes of the generated code (their counts, and why each one failed or could not run), so a
 * failed probe never reads as a verified model.
 */
import { describe, expect, it } from "vitest";
import { renderVerification } from "./data-model-verification.js";
import type { VerificationSummary } from "./verification-summary.js";

const run: VerificationSummary = {
  endpoint: { kind: "embedded" },
  seed: 1,
  ok: false,
  counts: { passed: 1, failed: 0, notCheckable: 0 },
  patterns: [
    {
      patternId: "Q1",
      type: "read",
      name: "Read a post",
      status: "passed",
      requests: 3,
      estimatedRu: { estimate: 1, low: 1, high: 1 },
    },
  ],
  outOfScope: [],
  probes: [
    { probe: "concurrentCounter", status: "failed", detail: "the counter reads 17 (expected 20)" },
    { probe: "paging", status: "passed" },
    { probe: "feedRestart", status: "notCheckable", detail: "a real account only" },
  ],
};

describe("renderVerification", () => {
  it("says the patterns passed and the probes failed, with each failure and why a probe could not run", () => {
    const text = renderVerification({ kind: "ran", run });
    expect(text).toContain("[x] ✅ **1 of 1** access patterns passed.");
    expect(text).toContain(
      "[ ] ❌ Probes of the generated data-access code (concurrent counters, a child changed and removed, paging, a change-feed processor restarted): **1 passed, 1 failed**, 1 not checkable on this endpoint.",
    );
    expect(text).toContain(
      "- ❌ concurrentCounter: the counter reads 17 (expected 20)\n- ⚠️ feedRestart: a real account only",
    );
  });

  it("shows no probe line for a run without probes", () => {
    const { probes: _probes, ...older } = run;
    expect(renderVerification({ kind: "ran", run: older })).not.toContain("Probes");
  });
});
