/**
 * What Cosmos DB accepts as an item id and a partition key value, checked before any request: a
 * request the service would refuse, or an item it would store but no point read could address,
 * fails with `badKey` instead. The same limits are in src/cosmos/limits.ts for the design checks
 * (this folder ships on its own, so it keeps its own copy; a test keeps them equal).
 */
import { DataAccessError } from "./errors.js";

/**
 * Longest item id: 1,023 bytes of UTF-8.
 * Source: https://learn.microsoft.com/azure/cosmos-db/concepts-limits#per-item-limits (checked 2026-11-28).
 */
export const MAX_ID_BYTES = 1023;

/**
 * Longest partition key value: 2,048 bytes (containers with large partition keys, the
 * `version: 2` key definition the generated infrastructure creates; 101 bytes otherwise), for
 * each value of a hierarchical key.
 * Source: https://learn.microsoft.com/azure/cosmos-db/concepts-limits#per-item-limits (checked 2026-11-28).
 */
export const MAX_PARTITION_KEY_VALUE_BYTES = 2048;

/**
 * Characters an item id may not hold: the SDKs put the id in the request's URL, so the service
 * stores such an item but no read, replace or delete by id finds it.
 * Source: https://learn.microsoft.com/dotnet/api/microsoft.azure.documents.resource.id (remarks),
 * and Azure/azure-cosmos-dotnet-v3#2606, #4129 (checked 2026-11-28).
 */
export const FORBIDDEN_ID_CHARACTERS: readonly string[] = ["/", "\\", "#", "?"];

/**
 * An id ending in a space is stored, but requests addressing it fail to authenticate (the
 * signed resource link loses the space).
 * Source: Azure/azure-cosmos-dotnet-v2#751 (checked 2026-11-28).
 */
const TRAILING_SPACE = / $/;

const encoder = new TextEncoder();

/** Bytes of a string in UTF-8. */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

/**
 * What is wrong with an item id, or undefined when Cosmos DB can store and address it.
 * @example idProblem("a/b") // 'contains "/", which Cosmos DB does not allow in an id'
 */
export function idProblem(id: string): string | undefined {
  if (id === "") return "is empty";
  const forbidden = FORBIDDEN_ID_CHARACTERS.find((char) => id.includes(char));
  if (forbidden !== undefined) return `contains "${forbidden}", which Cosmos DB does not allow in an id`;
  if (TRAILING_SPACE.test(id)) return "ends with a space, which Cosmos DB cannot address";
  const bytes = utf8Bytes(id);
  if (bytes > MAX_ID_BYTES) return `is ${bytes} bytes long, more than the ${MAX_ID_BYTES} of an id`;
  return undefined;
}

/** What is wrong with a partition key value, or undefined when Cosmos DB accepts it. */
export function partitionKeyProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const bytes = utf8Bytes(value);
  return bytes > MAX_PARTITION_KEY_VALUE_BYTES
    ? `is ${bytes} bytes long, more than the ${MAX_PARTITION_KEY_VALUE_BYTES} of a partition key value`
    : undefined;
}

/** A value for a message: quoted, and cut after 80 characters. */
export function shownValue(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

/**
 * Throws `badKey` when an id or a partition key value of a request cannot be stored or addressed.
 * `operation` names the request for the message. Partition key values come as the SDK takes
 * them: one value, or an array (hierarchical keys).
 */
export function checkRequestKey(operation: string, id: unknown, partitionKey?: unknown): void {
  if (typeof id === "string") {
    const problem = idProblem(id);
    if (problem !== undefined) {
      throw new DataAccessError("badKey", `${operation}: the item id ${shownValue(id)} ${problem}`, {
        context: { id },
      });
    }
  }
  const values: readonly unknown[] = Array.isArray(partitionKey) ? partitionKey : [partitionKey];
  for (const value of values) {
    const problem = partitionKeyProblem(value);
    if (problem !== undefined) {
      throw new DataAccessError(
        "badKey",
        `${operation}: the partition key value ${shownValue(value)} ${problem}`,
        { context: { partitionKey: value } },
      );
    }
  }
}
