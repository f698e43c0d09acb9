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
import type { ThroughputOption } from "./throughput.js";

export type AccountCapacityMode = "provisioned" | "serverless";

/** The account's decision, its reason and the cost comparison behind it (throughput only). */
export interface AccountCapacity {
  readonly mode: AccountCapacityMode;
  readonly reason: string;
  /** Throughput of every container on its cheapest provisioned mode (manual or autoscale), USD per month. */
  readonly provisionedUSD: number;
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
  const cheapestProvisioned = (options: readonly ThroughputOption[]): number => {
    const provisioned = options.filter((o) => o.mode !== "serverless");
    const allowed = provisioned.filter((o) => o.allowed);
    return Math.min(...(allowed.length > 0 ? allowed : provisioned).map((o) => o.monthlyThroughputUSD));
  };
  const provisionedUSD = containers.reduce((sum, c) => sum + cheapestProvisioned(c.options), 0);
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
    ...(serverlessUSD === undefined ? {} : { serverlessUSD }),
    notServerless,
  };
  const pinnedServerless = containers
    .filter((c) => c.container.throughput?.mode === "serverless")
    .map((c) => c.container.name);
  const pinnedProvisioned = containers
    .filter((c) => c.container.throughput !== undefined && c.container.throughput.mode !== "serverless")
    .map((c) => c.container.name);
  const comparison = `provisioned ${usd(provisionedUSD)}/month${serverlessUSD === undefined ? "" : ` vs serverless ${usd(serverlessUSD)}/month`}`;
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
      reason: `serverless: every container can run serverless and the account costs ${usd(serverlessUSD)}/month in RU consumed against ${usd(provisionedUSD)}/month provisioned`,
      ...base,
      setByModel: false,
      modes: ["serverless"],
    };
  }
  return provisioned(
    `provisioned is cheaper: ${comparison} (serverless bills ${formatInteger(containers.length)} container(s)' RU consumed)`,
  );
}
