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

/**
 * Structured content up to this size is also sent as JSON text, for clients that read only the
 * text (the MCP specification's backwards compatibility); a larger one is sent once, as
 * structured content, so that a result is not twice its size in an assistant's context.
 */
const JSON_TEXT_BYTES = 16_384;

/** A successful result: `text` for people, `data` as structured content (and as JSON when small). */
export function success(text: string, data: Record<string, unknown>): CallToolResult {
  const json = JSON.stringify(data);
  return {
    content: [
      { type: "text", text },
      ...(json.length <= JSON_TEXT_BYTES ? [{ type: "text" as const, text: json }] : []),
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
