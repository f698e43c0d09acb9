/**
 * What a generated data-access module tells the runtime to do, as plain data taken from the
 * model's plans: the steps of each write access pattern and the change-feed work each source item
 * type triggers. cosmos-modeler's generator builds these values; the runtime executes them.
 */

/** An item type of a container. */
export interface ItemRef {
  readonly container: string;
  readonly itemType: string;
}

/** A query parameter value taken from a constant, a changed item's attribute, a key template or the limit. */
export type ParameterSource =
  | { readonly kind: "literal"; readonly value: string | number | boolean }
  | { readonly kind: "fromResult"; readonly attribute: string }
  | { readonly kind: "template"; readonly template: string }
  | { readonly kind: "limit" };

/** A query of a maintenance step: its SQL and where each parameter's value comes from. */
export interface TaskQueryParameter {
  readonly name: string;
  readonly source: ParameterSource;
}

/** A point read of the record an item copies from, by templates rendered from the copying record. */
export interface CopySource extends ItemRef {
  readonly id: string;
  readonly partitionKey: readonly string[];
}

/** A counter increment of a parent item in the same logical partition (inside a transactional batch). */
export interface BatchIncrement extends ItemRef {
  readonly id: string;
  readonly partitionKey: readonly string[];
  readonly property: string;
  readonly by: number;
}

/** One synchronous step of a write access pattern. */
export type WriteTask =
  | (ItemRef & {
      readonly kind: "item";
      readonly operation: "create" | "replace" | "upsert" | "patch" | "delete";
    })
  | (ItemRef & { readonly kind: "rekey"; readonly previousFrom?: ItemRef })
  | (ItemRef & {
      readonly kind: "embed";
      readonly id: string;
      readonly partitionKey: readonly string[];
      readonly as: string;
      readonly latest?: number;
      readonly childKey: string;
      readonly many: boolean;
    })
  | (ItemRef & {
      readonly kind: "batch";
      readonly operation: "create" | "replace" | "upsert" | "delete";
      readonly increments: readonly BatchIncrement[];
    });

/** Work the change of a source item triggers. */
export type MaintenanceTask =
  | {
      readonly kind: "copy";
      readonly target: ItemRef;
      readonly trim?: {
        readonly countSql: string;
        readonly oldestSql: string;
        readonly parameters: readonly TaskQueryParameter[];
      };
    }
  | {
      readonly kind: "propagate";
      readonly holder: ItemRef;
      readonly sql: string;
      readonly parameters: readonly TaskQueryParameter[];
      readonly property: string;
      readonly attribute: string;
    }
  | {
      readonly kind: "counter";
      readonly holder: ItemRef;
      readonly id: string;
      readonly partitionKey: readonly string[];
      readonly property: string;
      /** The counted entity's key attribute: names the child's marker (`src/runtime/counters.ts`). */
      readonly childKey: string;
    };

/** What a write access pattern changes. */
export interface WriteContext {
  readonly entity: string;
  readonly change: "create" | "update" | "delete";
  /** Attributes the write changes (absent = all). */
  readonly changes?: readonly string[];
}
