import { PassThrough } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BoundedStdioTransport } from "./stdio-transport.js";

/** Feeds `input` to a transport in the given chunk sizes; returns messages received and lines written. */
async function feed(input: string, chunks: readonly number[], max: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: string[] = [];
  stdout.setEncoding("utf8");
  stdout.on("data", (chunk: string) => written.push(...chunk.split("\n").filter((l) => l !== "")));
  const transport = new BoundedStdioTransport(stdin, stdout, { maxMessageBytes: max });
  const messages: unknown[] = [];
  transport.onmessage = (message) => messages.push(message);
  await transport.start();
  const bytes = Buffer.from(input, "utf8");
  let offset = 0;
  for (const size of chunks) {
    if (offset >= bytes.length) break;
    stdin.write(bytes.subarray(offset, offset + size));
    offset += size;
  }
  if (offset < bytes.length) stdin.write(bytes.subarray(offset));
  await new Promise((r) => setImmediate(r));
  return { messages, errors: written.map((l) => JSON.parse(l) as { id: unknown; error: { code: number } }) };
}

const ping = (id: number | string) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });

describe("BoundedStdioTransport", () => {
  it("delivers the same messages and errors however the input is split into chunks", async () => {
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { x: "y".repeat(300) },
    });
    const input = [ping(1), big, "not json", ping("two"), JSON.stringify({ jsonrpc: "2.0", id: 3 }), ""].join(
      "\n",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 40 }), async (chunks) => {
        const { messages, errors } = await feed(input, chunks, 200);
        expect(messages).toEqual([
          { jsonrpc: "2.0", id: 1, method: "ping" },
          { jsonrpc: "2.0", id: "two", method: "ping" },
        ]);
        expect(errors.map((e) => [e.id, e.error.code])).toEqual([
          [7, -32600], // over 200 bytes: the id is found although the line was not kept
          [null, -32700],
          [3, -32600],
        ]);
      }),
      { numRuns: 60 },
    );
  });

  it("answers a tool call whose arguments are not an object with invalid params (-32602), not an internal error", async () => {
    const call = (id: number, params: unknown) =>
      JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });
    const input = [
      call(1, { name: "check-workload", arguments: null }),
      call(2, { name: "check-workload", arguments: [1] }),
      call(3, { arguments: {} }),
      call(4, { name: "check-workload", arguments: { workload: "w.yaml" } }),
      call(5, { name: "check-workload" }),
      "",
    ].join("\n");
    const { messages, errors } = await feed(input, [input.length], 100_000);
    expect(errors.map((e) => [e.id, e.error.code])).toEqual([
      [1, -32602],
      [2, -32602],
      [3, -32602],
    ]);
    expect(messages.map((m) => (m as { id: number }).id)).toEqual([4, 5]);
  });

  it("finds the id of an oversized message at its start or its end (the SDK client puts it last)", async () => {
    const pad = "z".repeat(5000);
    const first = `{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"t":"${pad}"}}`;
    const last = `{"method":"tools/call","params":{"t":"${pad}","nested":{"id":99}},"jsonrpc":"2.0","id":12}`;
    const nestedOnly = `{"method":"tools/call","params":{"t":"${pad}","nested":{"id":99}}}`;
    const { errors } = await feed([first, last, nestedOnly, ""].join("\n"), [], 1000);
    expect(errors.map((e) => e.id)).toEqual(["a-1", 12, null]);
  });
});
