/**
 * Numbers as people type them in an interview: "2.75M", "100k", "3 KB", "1.5 MB", "250/s",
 * "1,000,000". Sizes use binary multiples (1 KB = 1,024 bytes) as Cosmos DB's limits do
 * (2 MB item = 2,097,152 bytes).
 */

export type QuantityUnit = "count" | "bytes" | "requests/s" | "seconds" | "milliseconds" | "months" | "share";

export type QuantityResult =
  { readonly ok: true; readonly value: number } | { readonly ok: false; readonly message: string };

const COUNT_SUFFIXES: Readonly<Record<string, number>> = { k: 1e3, m: 1e6, b: 1e9, g: 1e9 };
const BYTE_SUFFIXES: Readonly<Record<string, number>> = {
  b: 1,
  byte: 1,
  bytes: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
};
const SECOND_SUFFIXES: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hour: 3600,
  hours: 3600,
  d: 86_400,
  day: 86_400,
  days: 86_400,
};

const MILLISECOND_SUFFIXES: Readonly<Record<string, number>> = {
  ms: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  second: 1000,
  seconds: 1000,
};

/**
 * Parses a quantity in `unit`, signed ("-5" is the number -5: whether it is allowed is the
 * question's range, which then says so); rejects what is not a number, and numbers too large to
 * be finite, with a message.
 * @example parseQuantity("3 KB", "bytes") // { ok: true, value: 3072 }
 */
export function parseQuantity(text: string, unit: QuantityUnit): QuantityResult {
  const cleaned = text.trim().toLowerCase().replace(/,/g, "").replace(/_/g, "").replace(/%$/, " percent");
  const withoutRate =
    unit === "requests/s" ? cleaned.replace(/\s*(\/\s*s(ec(ond)?)?|rps|per second)$/, "") : cleaned;
  const match = /^([+-]?)\s*(\d+(?:\.\d*)?|\.\d+)(?:e([+-]?\d+))?\s*([a-z]*)$/.exec(withoutRate);
  if (match === null) return { ok: false, message: `"${text}" is not a number${hint(unit)}` };
  const sign = match[1] === "-" ? -1 : 1;
  const base = sign * Number(`${match[2] ?? "0"}e${match[3] ?? "0"}`);
  const suffix = match[4] ?? "";
  const multiplier = multiplierOf(suffix, unit);
  if (multiplier === undefined)
    return { ok: false, message: `"${suffix}" is not a unit I know${hint(unit)}` };
  const value = base * multiplier;
  if (!Number.isFinite(value)) return { ok: false, message: `"${text}" is too large${hint(unit)}` };
  return { ok: true, value };
}

function multiplierOf(suffix: string, unit: QuantityUnit): number | undefined {
  if (suffix === "") return 1;
  switch (unit) {
    case "count":
    case "requests/s":
      return COUNT_SUFFIXES[suffix];
    case "bytes":
      return BYTE_SUFFIXES[suffix];
    case "seconds":
      return SECOND_SUFFIXES[suffix];
    case "milliseconds":
      return MILLISECOND_SUFFIXES[suffix];
    case "share":
      return suffix === "percent" ? 0.01 : undefined;
    case "months":
      return suffix === "y" || suffix === "year" || suffix === "years"
        ? 12
        : suffix.startsWith("mo")
          ? 1
          : undefined;
    default:
      unit satisfies never;
      return undefined;
  }
}

function hint(unit: QuantityUnit): string {
  switch (unit) {
    case "count":
      return " (examples: 5000, 2.5k, 3M)";
    case "bytes":
      return " (examples: 800, 3 KB, 1.5 MB)";
    case "requests/s":
      return " (examples: 20, 1.5k, 300/s)";
    case "seconds":
      return " (examples: 900, 15 min, 24 h, 30 d)";
    case "milliseconds":
      return " (examples: 50, 50 ms, 1 s)";
    case "share":
      return " (examples: 0.15, 15%)";
    case "months":
      return " (examples: 12, 3 years)";
    default:
      unit satisfies never;
      return "";
  }
}
