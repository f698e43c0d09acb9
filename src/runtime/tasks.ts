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

/**
 * Which property of a record of one entity holds each attribute of a related entity's item that
 * the record addresses (`{ postId: "postId" }`: the like's `postId` is the post's key). Names mean
 * nothing across entities (a post's `userId` is its author, a like's `userId` the liker): only
 * what a binding names is read.
 */
export type AddressBinding = Readonly<Record<string, string>>;

/**
 * A point read of the record an item copies from: its item type's own templates, rendered from
 * the copying record's values that `bind` names.
 */
export interface CopySource extends ItemRef {
  readonly id: string;
  readonly partitionKey: readonly string[];
  readonly bind: AddressBinding;
}

/** A counter increment of a parent item in the same logical partition (inside a transactional batch). */
export interface BatchIncrement extends ItemRef {
  /** The parent item type's own templates, rendered from the child's values that `bind` names. */
  readonly id: string;
  readonly partitionKey: readonly string[];
  readonly bind: AddressBinding;
  readonly property: string;
  readonly by: number;
}

/** One synchronous step of a write access pattern. */
export type WriteTask =
  | (ItemRef & {
      /**
       * Read the record's current item first (the input of a patch or a delete gives its key and
       * address, not what the next steps need: another item's address, the parent that embeds
       * it): the next steps see the record completed with it, the given attributes winning.
       */
      readonly kind: "current";
    })
  | (ItemRef & {
      readonly kind: "item";
      readonly operation: "create" | "replace" | "upsert" | "patch" | "delete";
      /**
       * Bucket items: the writer gives whole buckets (buffered records), so each is created
       * directly (409 when it exists: then appended) instead of appended first.
       */
      readonly wholeBuckets?: boolean;
    })
  | (ItemRef & {
      /**
       * A write that may change the item's id or key: find the current item (at the address the
       * helper item names, else by the query on the entity key), then write in place or create
       * at the new address and delete the old item.
       */
      readonly kind: "move";
      readonly operation: "replace" | "upsert" | "patch";
      /** The entity's key attributes (the record's identity, which a move keeps). */
      readonly key: readonly string[];
      readonly helper?: ItemRef & {
        readonly id: string;
        readonly partitionKey: readonly string[];
        /** The item follows from the helper's record (nothing else to read). */
        readonly derives: boolean;
      };
      readonly query: {
        readonly sql: string;
        readonly parameters: readonly TaskQueryParameter[];
        readonly partitionKey?: readonly string[];
      };
    })
  | (ItemRef & {
      readonly kind: "embed";
      /** The parent item type's own templates, rendered from the child's values `bind` names. */
      readonly id: string;
      readonly partitionKey: readonly string[];
      readonly bind: AddressBinding;
      readonly as: string;
      /**
       * Only the newest `count` children, newest first by `by` (the child's first datetime
       * attribute), ties by the child key, greater first. `refill` reads the newest `count` from the
       * children's own items when the kept ones may no longer be the newest (a kept child deleted
       * or made older, a child entering from a partial write).
       */
      readonly latest?: {
        readonly count: number;
        readonly by: string;
        readonly refill?: ItemRef & {
          readonly sql: string;
          readonly parameters: readonly TaskQueryParameter[];
          readonly partitionKey?: readonly string[];
        };
      };
      /** The child entity's key attributes: which embedded element is the written child. */
      readonly childKey: readonly string[];
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
      /**
       * A bounded set (keepLatest): the query reading its members (id and order value) in one
       * logical partition, and whether writes can change the order value (then an update of an
       * item outside the set may enter it). `refill` reads the newest `count` of the set's key
       * from the source item type (whole items), when a member leaves the set.
       */
      readonly bounded?: {
        readonly membersSql: string;
        readonly parameters: readonly TaskQueryParameter[];
        readonly sortMayChange: boolean;
        readonly refill?: ItemRef & {
          readonly sql: string;
          readonly parameters: readonly TaskQueryParameter[];
          readonly partitionKey?: readonly string[];
        };
      };
      /**
       * The copy's address can change: when an upsert creates the copy of a changed record, this
       * query (by the entity key) finds its copies at other addresses, which are deleted.
       */
      readonly stale?: {
        readonly sql: string;
        readonly parameters: readonly TaskQueryParameter[];
        readonly partitionKey?: readonly string[];
      };
      /**
       * The source can move while the copy stays: on a delete of the source, the copy is deleted
       * only if it still holds the deleted values of these attributes.
       */
      readonly checkBeforeDelete?: readonly string[];
    }
  | {
      readonly kind: "propagate";
      readonly holder: ItemRef;
      readonly sql: string;
      readonly parameters: readonly TaskQueryParameter[];
      readonly property: string;
      readonly attribute: string;
      /**
       * Across a many-to-many relationship: the source's key attributes, which each element of
       * the holder's array carries; the element of the changed record is set (`linked-copies.ts`).
       */
      readonly key?: readonly string[];
    }
  | {
      readonly kind: "counter";
      readonly holder: ItemRef;
      /** The holder item type's own templates, rendered from the child's values `bind` names. */
      readonly id: string;
      readonly partitionKey: readonly string[];
      readonly bind: AddressBinding;
      readonly property: string;
      /** The counted entity's key attributes (the child's identity, `src/runtime/counters.ts`). */
      readonly childKey: readonly string[];
    };

/** What a write access pattern changes. */
export interface WriteContext {
  readonly entity: string;
  readonly change: "create" | "update" | "delete";
  /** Attributes the write changes (absent = all). */
  readonly changes?: readonly string[];
}
