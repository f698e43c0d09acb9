/**
 * The one error class for real failures (not input problems, which are `Issue`s):
 * a namespaced code, a message that says what to do, and the original error as `cause`.
 */
export class CosmosModelerError extends Error {
  readonly code: string;
  readonly context: Readonly<Record<string, unknown>>;

  constructor(
    code: string,
    message: string,
    options: { cause?: unknown; context?: Readonly<Record<string, unknown>> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CosmosModelerError";
    this.code = code;
    this.context = options.context ?? {};
  }
}
