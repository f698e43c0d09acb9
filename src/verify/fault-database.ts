/**
 * A view of a database through which the generated module's maintenance can be sabotaged on
 * purpose (`--fault`), to prove that verify notices: `drop-counter` drops every counter
 * increment (patch `incr`, alone or inside a transactional batch); `drop-copy` drops the copy
 * upserts and copied-attribute updates (patch `set`) the change-feed handlers make; `drop-trim`
 * drops the deletes they make (trimming bounded sets, removing copies of deleted items). Dropped
 * requests answer as if they had succeeded, with the item unchanged.
 */
import type { Container, Database, Item, Items, OperationInput, PatchOperation } from "@azure/cosmos";
import type { VerifyFault } from "./verification-plan.js";

/** Whether the calls in progress are maintenance (change-feed handlers) rather than the write. */
export interface MaintenanceState {
  depth: number;
}

function isIncrementOnly(operations: readonly PatchOperation[]): boolean {
  return operations.length > 0 && operations.every((operation) => operation.op === "incr");
}

function isSetOnly(operations: readonly PatchOperation[]): boolean {
  return operations.length > 0 && operations.every((operation) => operation.op === "set");
}

/** `target` with some members replaced, the others bound to it (the verify proxies share it). */
export function bindAll<T extends object>(
  target: T,
  overrides: Readonly<Record<string | symbol, unknown>>,
): T {
  return new Proxy(target, {
    get(object, property) {
      if (property in overrides) return overrides[property];
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}

function faultyItem(item: Item, fault: VerifyFault, state: MaintenanceState): Item {
  const dropped = async () => {
    const read = await item.read();
    return { resource: read.resource, requestCharge: 0, headers: read.headers, statusCode: 200 };
  };
  return bindAll(item, {
    delete: (options?: unknown) => {
      if (fault === "drop-trim" && state.depth > 0) {
        return Promise.resolve({ resource: undefined, requestCharge: 0, statusCode: 204 });
      }
      return item.delete(options as never);
    },
    patch: (body: PatchOperation[] | { operations: PatchOperation[] }, options?: unknown) => {
      const operations = Array.isArray(body) ? body : body.operations;
      if (fault === "drop-counter" && isIncrementOnly(operations)) return dropped();
      if (fault === "drop-copy" && state.depth > 0 && isSetOnly(operations)) return dropped();
      return item.patch(body, options as never);
    },
  });
}

function faultyItems(items: Items, fault: VerifyFault, state: MaintenanceState): Items {
  return bindAll(items, {
    upsert: (body: Record<string, unknown>, options?: unknown) => {
      if (fault === "drop-copy" && state.depth > 0) {
        return Promise.resolve({ resource: body, requestCharge: 0, statusCode: 200 });
      }
      return items.upsert(body, options as never);
    },
    batch: (operations: OperationInput[], partitionKey?: unknown, options?: unknown) => {
      const kept =
        fault === "drop-counter"
          ? operations.filter((operation) => {
              if (operation.operationType !== "Patch") return true;
              const body = operation.resourceBody as { operations?: PatchOperation[] };
              return !isIncrementOnly(body.operations ?? []);
            })
          : operations;
      return items.batch(kept, partitionKey as never, options as never);
    },
  });
}

function faultyContainer(container: Container, fault: VerifyFault, state: MaintenanceState): Container {
  return bindAll(container, {
    item: (id: string, partitionKey?: unknown) =>
      faultyItem(container.item(id, partitionKey as never), fault, state),
    items: faultyItems(container.items, fault, state),
  });
}

/** The database as the generated module sees it: unchanged without a fault. */
export function databaseWithFault(
  database: Database,
  fault: VerifyFault | undefined,
  state: MaintenanceState,
): Database {
  if (fault === undefined) return database;
  return bindAll(database, {
    container: (name: string) => faultyContainer(database.container(name), fault, state),
  });
}
