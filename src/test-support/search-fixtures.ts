/**
 * The chunk item type the search tests share: one item per chunk, keyed by its tenant (the
 * documents' chunks of a retrieval application, issue 31).
 */
import type { ItemType } from "../model/types.js";

export const CHUNK_ITEM: ItemType = {
  type: "chunk",
  entity: "Chunk",
  id: "{chunkId}",
  partitionKey: ["{tenantId}"],
  truncate: [],
  embeds: [],
  copies: [],
  counts: [],
};
