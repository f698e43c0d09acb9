/**
 * A verify run as the deliverables show it (the data model's verification section and the
 * report): the shape of a `verify --json` document.
 */
import type { RuEstimate } from "../estimator/operation.js";

/** What the deliverables show of a verify run (a `verify --json` document fits it). */
export interface VerificationSummary {
  readonly endpoint: { readonly kind: "embedded" | "real" };
  readonly seed: number;
  readonly ok: boolean;
  readonly counts: { readonly passed: number; readonly failed: number; readonly notCheckable: number };
  readonly patterns: readonly {
    readonly patternId: string;
    readonly type: "read" | "write";
    readonly name: string;
    readonly status: "passed" | "failed" | "notCheckable";
    readonly detail?: string | undefined;
    readonly requests: number;
    readonly results?: number | undefined;
    readonly measuredRu?: number | undefined;
    readonly estimatedRu: RuEstimate;
    readonly ruVersusEstimate?: "within" | "below" | "above" | undefined;
    readonly latencyMs?: { readonly p50: number; readonly max: number } | undefined;
  }[];
  readonly outOfScope: readonly string[];
  /**
   * The probes of the generated data-access code (`verify`'s `probes`, docs/json-output.md#probes);
   * absent in the document of a run made before they existed.
   */
  readonly probes?:
    | readonly {
        readonly probe: string;
        readonly status: "passed" | "failed" | "notCheckable";
        readonly detail?: string | undefined;
      }[]
    | undefined;
}
