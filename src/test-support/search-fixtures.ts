/**
 * The chunk item type the search tests share: one item per chunk, keyed by its tenant (the
 * documents' chunks of a retrieval application, issue 31).
 */
import type { ItemType, Model } from "../model/types.js";

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

/** A model of the chunks alone: one container keyed by the tenant, indexing derived. */
export const CHUNKS_MODEL: Model = {
  version: 1,
  containers: [
    {
      name: "chunks",
      partitionKey: ["/tenantId"],
      uniqueKeys: [],
      indexing: { kind: "derived" },
      items: [CHUNK_ITEM],
    },
  ],
};
