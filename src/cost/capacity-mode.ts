/**
 * The capacity mode of the account: Azure Cosmos DB chooses provisioned throughput or serverless
 * per account, at creation, for every container in it (cosmos-facts: "Capacity mode is chosen
 * per account at creation"; https://learn.microsoft.com/azure/cosmos-db/throughput-serverless,
 * checked 2026-11-24). So a model is serverless only when every container can be (per-partition
 * RU/s, storage, a single region), and then only when that is cheaper than provisioning every
 * container; the model's own settings win, and settings that mix the modes are an error.
 */
import type { Container } from "../model/types.js";
import { formatInteger, formatUsd } from "../common/format-number.js";
import { basisLabel, type DescribedBasis } from "./autoscale-billing.js";
import type { UsdRange } from "./evaluation-types.js";
import type { ThroughputOption } from "./throughput.js";

export type AccountCapacityMode = "provisioned" | "serverless";

/** The account's decision, its reason and the cost comparison behind it (throughput only). */
export interface AccountCapacity {
  readonly mode: AccountCapacityMode;
  readonly reason: string;
  /**
   * Throughput of every container on its cheapest provisioned mode (manual or autoscale), USD per
   * month, with autoscale on `comparedOn`.
   */
  readonly provisionedUSD: number;
  /** `provisionedUSD` from autoscale's average-billed to its peak-billed figures. */
  readonly provisionedRange: UsdRange;
  /** The assumption autoscale is priced on in the comparison (the same in every container). */
  readonly comparedOn?: DescribedBasis;
  /** Throughput of every container serverless (RU consumed), USD per month; absent when some cannot be. */
  readonly serverlessUSD?: number;
  /** Containers that cannot run serverless, with why. */
  readonly notServerless: readonly { readonly container: string; readonly why: string }[];
  /** The model sets the modes (some container pins its throughput). */
  readonly setByModel: boolean;
  /** The model pins serverless on some containers and provisioned throughput on others. */
  readonly mixed?: { readonly serverless: readonly string[]; readonly provisioned: readonly string[] };
  /** The throughput modes the account allows its containers. */
  readonly modes: readonly ThroughputOption["mode"][];
}

/** Dollars and cents with thousands separators, as the documents print them. */
const usd = (value: number): string => formatUsd(value, true);

/**
 * Decides the account's capacity mode from each container's priced options.
 * @example chooseAccountCapacity([{ container, options }]).mode // "provisioned"
 */
export function chooseAccountCapacity(
  containers: readonly { readonly container: Container; readonly options: readonly ThroughputOption[] }[],
): AccountCapacity {
  const cheapestProvisioned = (options: readonly ThroughputOption[]): ThroughputOption | undefined => {
    const provisioned = options.filter((o) => o.mode !== "serverless");
    const allowed = provisioned.filter((o) => o.allowed);
    return (allowed.length > 0 ? allowed : provisioned).reduce<ThroughputOption | undefined>(
      (a, b) => (a === undefined || b.monthlyThroughputUSD < a.monthlyThroughputUSD ? b : a),
      undefined,
    );
  };
  const cheapest = containers.map((c) => cheapestProvisioned(c.options));
  const provisionedUSD = cheapest.reduce((sum, o) => sum + (o?.monthlyThroughputUSD ?? 0), 0);
  const provisionedRange = {
    lowUSD: cheapest.reduce((sum, o) => sum + (o?.range?.lowUSD ?? o?.monthlyThroughputUSD ?? 0), 0),
    highUSD: cheapest.reduce((sum, o) => sum + (o?.range?.highUSD ?? o?.monthlyThroughputUSD ?? 0), 0),
  };
  const comparedOn = containers
    .flatMap((c) => c.options.filter((o) => o.mode === "autoscale").map((o) => o.basis))
    .find(() => true);
  const notServerless = containers.flatMap(({ container, options }) => {
    const serverless = options.find((o) => o.mode === "serverless");
    return serverless === undefined || serverless.allowed
      ? []
      : [{ container: container.name, why: serverless.why }];
  });
  const serverlessUSD =
    notServerless.length === 0
      ? containers.reduce(
          (sum, c) => sum + (c.options.find((o) => o.mode === "serverless")?.monthlyThroughputUSD ?? 0),
          0,
        )
      : undefined;
  const base = {
    provisionedUSD,
    provisionedRange,
    ...(comparedOn === undefined ? {} : { comparedOn }),
    ...(serverlessUSD === undefined ? {} : { serverlessUSD }),
    notServerless,
  };
  const pinnedServerless = containers
    .filter((c) => c.container.throughput?.mode === "serverless")
    .map((c) => c.container.name);
  const pinnedProvisioned = containers
    .filter((c) => c.container.throughput !== undefined && c.container.throughput.mode !== "serverless")
    .map((c) => c.container.name);
  const spread =
    provisionedRange.highUSD > provisionedRange.lowUSD
      ? `, ${usd(provisionedRange.lowUSD)} to ${usd(provisionedRange.highUSD)} from average-billed to peak-billed autoscale`
      : "";
  const basisText = comparedOn === undefined ? "" : `; autoscale priced at ${basisLabel(comparedOn)}`;
  const provisionedText = `provisioned ${usd(provisionedUSD)}/month${spread}`;
  const comparison = `${provisionedText}${serverlessUSD === undefined ? "" : ` vs serverless ${usd(serverlessUSD)}/month`}${basisText}`;
  const blockers = notServerless.map((n) => `${n.container}: ${n.why}`).join("; ");
  const provisioned = (reason: string, extra: Partial<AccountCapacity> = {}): AccountCapacity => ({
    mode: "provisioned",
    reason,
    ...base,
    setByModel: pinnedServerless.length + pinnedProvisioned.length > 0,
    modes: ["manual", "autoscale"],
    ...extra,
  });
  if (pinnedServerless.length > 0 && pinnedProvisioned.length > 0) {
    return provisioned(
      `the model sets serverless on ${pinnedServerless.join(", ")} but provisioned throughput on ${pinnedProvisioned.join(", ")}; an account has one capacity mode, so all containers are provisioned (${comparison})`,
      { mixed: { serverless: pinnedServerless, provisioned: pinnedProvisioned } },
    );
  }
  if (pinnedServerless.length > 0) {
    return {
      mode: "serverless",
      reason: `serverless as the model sets it (${comparison})${blockers === "" ? "" : `; but ${blockers}`}`,
      ...base,
      setByModel: true,
      modes: ["serverless"],
    };
  }
  if (pinnedProvisioned.length > 0) {
    return provisioned(
      `provisioned as the model sets it (${comparison}${blockers === "" ? "" : `; serverless is not possible: ${blockers}`})`,
    );
  }
  if (serverlessUSD === undefined) {
    return provisioned(
      `provisioned: serverless is per account and not every container can run serverless (${blockers}); ${comparison}`,
    );
  }
  if (serverlessUSD < provisionedUSD) {
    return {
      mode: "serverless",
      reason: `serverless: every container can run serverless and the account costs ${usd(serverlessUSD)}/month in RU consumed against ${provisionedText}${basisText}`,
      ...base,
      setByModel: false,
      modes: ["serverless"],
    };
  }
  return provisioned(
    `provisioned is cheaper: ${comparison} (serverless bills ${formatInteger(containers.length)} container(s)' RU consumed)`,
  );
}
