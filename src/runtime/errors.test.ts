/**
 * What the runtime reads from the failures of `@azure/cosmos`: the code by status (also when the
 * SDK dropped the status of a batch or bulk error), network errors as transient, the service's
 * delay, and messages without secrets.
 */
import { ErrorResponse } from "@azure/cosmos";
import { describe, expect, it } from "vitest";
import {
  DataAccessError,
  chargeOf,
  isTransient,
  redactSecrets,
  statusOf,
  toDataAccessError,
} from "./errors.js";

function serviceError(code: number, headers: Record<string, string> = {}): ErrorResponse {
  const error = new ErrorResponse(
    `Message: {"Errors":["status ${code}"]}\r\nActivityId: 1, Request URI: /dbs/x`,
  );
  error.code = code;
  error.headers = headers;
  return error;
}

describe("toDataAccessError", () => {
  it("gives each status its code and keeps what the service said", () => {
    const codes = Object.fromEntries(
      [400, 401, 403, 404, 408, 409, 410, 412, 413, 429, 449, 500, 503].map((status) => [
        status,
        toDataAccessError(serviceError(status), "read posts/p1").code,
      ]),
    );
    expect(codes).toEqual({
      400: "requestFailed",
      401: "requestFailed",
      403: "requestFailed",
      404: "notFound",
      408: "transient",
      409: "conflict",
      410: "transient",
      412: "precondition",
      413: "tooLarge",
      429: "throttled",
      449: "transient",
      500: "transient",
      503: "transient",
    });
    const error = serviceError(429, {
      "x-ms-request-charge": "0.38",
      "x-ms-activity-id": "0f6a2b4c-1d2e-4f50-8a9b-0c1d2e3f4a5b",
      "x-ms-retry-after-ms": "215",
      "x-ms-substatus": "3200",
    });
    const typed = toDataAccessError(error, "read posts/p1", { id: "p1" });
    expect(typed).toMatchObject({
      code: "throttled",
      statusCode: 429,
      substatus: 3200,
      activityId: "0f6a2b4c-1d2e-4f50-8a9b-0c1d2e3f4a5b",
      requestCharge: 0.38,
      retryAfterMs: 215,
      context: { id: "p1" },
    });
    expect(typed.cause).toBe(error);
    expect(typed.message).toMatch(/^read posts\/p1: 429\/3200 throttled \(activity 0f6a2b4c/);
    // A DataAccessError still answers the helpers the runtime's callers use.
    expect(statusOf(typed)).toBe(429);
    expect(chargeOf(typed)).toBe(0.38);
    expect(toDataAccessError(typed, "again")).toBe(typed);
  });

  it("reads the status the SDK leaves only in the message of a batch or bulk error", () => {
    const batch = new Error(
      'Batch request error: Message: {"Errors":["Request rate is large. More Request Units may be needed"]}\r\nActivityId: 0f6a2b4c-1d2e-4f50-8a9b-0c1d2e3f4a5b',
    );
    expect(toDataAccessError(batch, "batch")).toMatchObject({
      code: "throttled",
      statusCode: 429,
      activityId: "0f6a2b4c-1d2e-4f50-8a9b-0c1d2e3f4a5b",
    });
    expect(
      toDataAccessError(new Error("Bulk request errored with: Request size is too large"), "bulk").code,
    ).toBe("tooLarge");
    // Other plain errors are not guessed at.
    expect(toDataAccessError(new Error("Request rate is large"), "x").code).toBe("requestFailed");
  });

  it("makes network failures transient, also when they are the cause", () => {
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    expect(toDataAccessError(reset, "read posts/p1")).toMatchObject({
      code: "transient",
      statusCode: undefined,
    });
    const wrapped = Object.assign(new Error("send failed"), { code: "REQUEST_SEND_ERROR", cause: reset });
    expect(toDataAccessError(wrapped, "read").code).toBe("transient");
    expect(isTransient(reset)).toBe(true);
    expect(isTransient(serviceError(503))).toBe(true);
    expect(isTransient(serviceError(409))).toBe(false);
    expect(isTransient(new DataAccessError("throttled", "x"))).toBe(true);
    expect(isTransient(new DataAccessError("conflict", "x", { statusCode: 409 }))).toBe(false);
  });

  it("keeps account keys and request signatures out of messages", () => {
    const text =
      "AccountEndpoint=https://a.documents.azure.com:443/;AccountKey=c2VjcmV0PT0=; authorization=type%3Dmaster%26ver%3D1.0%26sig%3DExdjZ%2Flr; masterKey: abc123";
    const redacted = redactSecrets(text);
    expect(redacted).not.toMatch(/c2VjcmV0PT0|ExdjZ|abc123/);
    expect(redacted).toContain("AccountEndpoint=https://a.documents.azure.com:443/");
    const error = toDataAccessError(Object.assign(new Error(text), { code: 401 }), "read");
    expect(error.message).not.toMatch(/c2VjcmV0PT0|ExdjZ|abc123/);
  });
});
