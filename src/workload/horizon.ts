/**
 * How many items an entity has at the end of the planning horizon: the one rule behind the
 * storage figures of the requirements document and of the evaluation.
 */
import { SECONDS_PER_MONTH } from "../cosmos/limits.js";
import type { Entity } from "./types.js";

/**
 * `count + growthPerMonth x horizonMonths`; under a TTL, the larger of `count` and what the TTL
 * lets accumulate (`growthPerMonth x TTL in months`), since items expire as new ones arrive.
 * @example itemsAtHorizon({ count: 100, growthPerMonth: 10, ... }, 12).items // 220
 */
export function itemsAtHorizon(
  entity: Entity,
  horizonMonths: number,
): { readonly items: number; readonly formula: string } {
  if (entity.ttlSeconds === undefined) {
    return {
      items: entity.count + entity.growthPerMonth * horizonMonths,
      formula: `count + growthPerMonth x ${horizonMonths} months`,
    };
  }
  const ttlMonths = entity.ttlSeconds / SECONDS_PER_MONTH;
  return {
    items: Math.max(entity.count, entity.growthPerMonth * ttlMonths),
    formula: `max(count, growthPerMonth x ${ttlMonths.toFixed(1)} months of TTL)`,
  };
}
