/**
 * Tool results of the MCP server: readable text plus the same data as `structuredContent`
 * (also serialized as a second text block for clients that ignore structured content), and
 * `isError` results for domain failures such as an invalid workload or a refused step.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** An issue as JSON (`JsonIssue` of src/common/issues.ts: path formatted, then the code's payload). */
export const issueSchema = z.looseObject({
  code: z.string(),
  severity: z.enum(["error", "warning", "info"]),
  path: z.string(),
  message: z.string(),
  file: z.string().optional(),
  line: z.number().optional(),
  suggestion: z.string().optional(),
});

/** A successful result: `text` for people, `data` as structured content. */
export function success(text: string, data: Record<string, unknown>): CallToolResult {
  return {
    content: [
      { type: "text", text },
      { type: "text", text: JSON.stringify(data) },
    ],
    structuredContent: data,
  };
}

/**
 * A domain failure the assistant should read and act on (not a protocol error). Clients check
 * structured content against the tool's output schema even on errors, so the details travel as
 * a second text block (JSON) instead.
 */
export function failure(text: string, details?: Record<string, unknown>): CallToolResult {
  return {
    isError: true,
    content: [
      { type: "text", text },
      ...(details === undefined ? [] : [{ type: "text" as const, text: JSON.stringify(details) }]),
    ],
  };
}
