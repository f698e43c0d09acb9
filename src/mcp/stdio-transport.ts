/**
 * The MCP server's stdio transport: newline-delimited JSON-RPC on standard input and output, like
 * the SDK's `StdioServerTransport`, but it cannot be stopped or starved by what a client sends.
 * - A line longer than `maxMessageBytes` is skipped as it arrives (never buffered whole) and
 *   answered with a JSON-RPC error naming the limit; the server keeps running.
 * - Every line that is not a valid JSON-RPC message gets the error JSON-RPC 2.0 prescribes:
 *   -32700 when it is not JSON, -32600 (invalid request) with the request's id when it has one,
 *   with `id: null` when it has none. Only notifications, which take no answer, go unanswered.
 * The SDK's own transport closes the connection on a line over 10 MiB and drops invalid
 * requests silently (https://www.jsonrpc.org/specification, section 5.1, checked 2025-05).
 */
import process from "node:process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Largest JSON-RPC message accepted: room for a 10 MB inline workload once escaped in JSON. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Bytes of an oversized line kept at each end to find its id. */
const ID_WINDOW = 512;

type RequestId = string | number;

interface TransportOptions {
  readonly maxMessageBytes?: number;
}

/** A JSON-RPC error response (not an `McpError`: it goes straight to the wire). */
function errorResponse(id: RequestId | null, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`;
}

/** The top-level id of a message that is not kept whole: the first key of the object or its last. */
function idOfTruncated(head: string, tail: string): RequestId | null {
  const value = (text: string): RequestId | null => {
    if (text.startsWith('"')) {
      try {
        return JSON.parse(text) as string;
      } catch {
        return null;
      }
    }
    const number = Number(text);
    return Number.isFinite(number) ? number : null;
  };
  // {"jsonrpc":"2.0","id":7,...  or  {"id":7,...
  const first =
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"]*"\s*,\s*)?"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")/.exec(head);
  if (first?.[1] !== undefined) return value(first[1]);
  // ...,"jsonrpc":"2.0","id":7}  (the SDK's client puts the id last); one closing brace: top level
  const last =
    /,\s*"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")\s*(?:,\s*"jsonrpc"\s*:\s*"[^"]*"\s*)?\}\s*$/.exec(
      tail,
    );
  return last?.[1] === undefined ? null : value(last[1]);
}

/** Server transport over standard input and output with a message size limit. */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly max: number;
  private parts: Buffer[] = [];
  private size = 0;
  /** While skipping an oversized line: its first bytes, its last bytes and its length. */
  private skipping: { head: Buffer; tail: Buffer; bytes: number } | undefined;
  private started = false;
  private closed = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    options: TransportOptions = {},
  ) {
    this.max = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    for (;;) {
      const newline = data.indexOf(0x0a, start);
      const end = newline < 0 ? data.length : newline;
      this.take(data.subarray(start, end));
      if (newline < 0) return;
      this.endLine();
      start = newline + 1;
    }
  };

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private take(segment: Buffer): void {
    if (segment.length === 0) return;
    if (this.skipping !== undefined) {
      const skipping = this.skipping;
      skipping.bytes += segment.length;
      skipping.tail = Buffer.concat([skipping.tail, segment]).subarray(-ID_WINDOW);
      return;
    }
    if (this.size + segment.length <= this.max) {
      this.parts.push(segment);
      this.size += segment.length;
      return;
    }
    // Over the limit: keep both ends to find the id, drop the rest as it arrives.
    const all = Buffer.concat([...this.parts, segment]);
    this.skipping = { head: all.subarray(0, ID_WINDOW), tail: all.subarray(-ID_WINDOW), bytes: all.length };
    this.parts = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.skipping !== undefined) {
      const { head, tail, bytes } = this.skipping;
      this.skipping = undefined;
      const id = idOfTruncated(head.toString("utf8"), tail.toString("utf8"));
      this.write(
        errorResponse(
          id,
          ErrorCode.InvalidRequest,
          `Request too large: ${bytes.toLocaleString("en-US")} bytes, more than the limit of ${this.max.toLocaleString("en-US")} bytes per message. Nothing was done; send smaller arguments (for a large workload, write it to a file in the session folder and pass its path).`,
        ),
      );
      return;
    }
    const line = Buffer.concat(this.parts).toString("utf8").replace(/\r$/, "");
    this.parts = [];
    this.size = 0;
    if (line.trim() === "") return;
    this.handleLine(line);
  }

  private handleLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.write(
        errorResponse(
          null,
          ErrorCode.ParseError,
          `Parse error: the message is not JSON (${error instanceof Error ? error.message : String(error)})`,
        ),
      );
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      const params = invalidToolParams(parsed.data);
      if (params !== undefined) {
        this.write(errorResponse(params.id, ErrorCode.InvalidParams, params.message));
        return;
      }
      this.onmessage?.(parsed.data);
      return;
    }
    const object = value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
    const raw = object === undefined ? undefined : (object as { id?: unknown; method?: unknown });
    const id = typeof raw?.id === "string" || typeof raw?.id === "number" ? raw.id : null;
    // A notification (a method without an id) takes no answer, not even an error.
    if (raw !== undefined && !("id" in raw) && typeof raw.method === "string") {
      this.onerror?.(new Error(`invalid notification ${raw.method} ignored`));
      return;
    }
    const problem = Array.isArray(value)
      ? "batches are not supported; send one message per line"
      : object === undefined
        ? "expected a JSON-RPC object"
        : parsed.error.issues
            .slice(0, 5)
            .map((issue) => `${issue.path.length === 0 ? "message" : issue.path.join(".")}: ${issue.message}`)
            .join("; ");
    this.write(
      errorResponse(
        id,
        ErrorCode.InvalidRequest,
        `Invalid request: ${problem}. Expected {"jsonrpc": "2.0", "id": <string or number>, "method": "...", "params": {...}}.`,
      ),
    );
  }

  private write(text: string): void {
    if (!this.closed) this.stdout.write(text);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("BoundedStdioTransport already started");
    this.started = true;
    this.stdin.on("data", this.onData);
    this.stdin.on("end", this.onEnd);
    this.stdin.on("error", this.onStreamError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off("data", this.onData);
    this.stdin.off("end", this.onEnd);
    this.stdin.off("error", this.onStreamError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.parts = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolvePromise) => {
      if (this.closed) {
        resolvePromise();
        return;
      }
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolvePromise();
      else this.stdout.once("drain", () => resolvePromise());
    });
  }
}

/**
 * A `tools/call` request whose `name` is not a string or whose `arguments` is present but not an
 * object (`null`, a list, a number): invalid params (-32602) with what would be valid, rather
 * than the SDK's internal error (-32603) when its schema refuses the request.
 */
function invalidToolParams(
  message: unknown,
): { readonly id: string | number; readonly message: string } | undefined {
  const request = message as { id?: unknown; method?: unknown; params?: unknown };
  if (request.method !== "tools/call") return undefined;
  if (typeof request.id !== "string" && typeof request.id !== "number") return undefined;
  const params = request.params;
  const problems: string[] = [];
  if (params === null || typeof params !== "object" || Array.isArray(params))
    problems.push("params: expected an object { name, arguments }");
  else {
    const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
    if (typeof name !== "string") problems.push("params.name: expected the tool's name (a string)");
    if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args)))
      problems.push(
        `params.arguments: expected an object of the tool's arguments (or no arguments field), got ${args === null ? "null" : Array.isArray(args) ? "a list" : typeof args}`,
      );
  }
  return problems.length === 0
    ? undefined
    : { id: request.id, message: `Invalid params: ${problems.join("; ")}` };
}
