/**
 * What the read functions of a generated module return: the items, the request charge and the
 * related data of follow-up reads.
 */
import type { StoredItem } from "./items.js";

/** Related data returned by a follow-up step of a read. */
export interface FollowUpResult {
  readonly container: string;
  readonly itemType: string;
  /** True when the step ran once per item of the first step ("byResult" is aligned with "items"). */
  readonly perResult: boolean;
  readonly items: unknown[];
  readonly byResult: unknown[][];
}

/** The answer of a read access pattern. */
export interface ReadResult {
  readonly items: StoredItem[];
  /** The first item (point reads), or undefined. */
  readonly item: StoredItem | undefined;
  readonly requestCharge: number;
  readonly followUps: FollowUpResult[];
}
