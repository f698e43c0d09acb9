import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decimalsFor, formatDecimal, formatFigure, formatInteger, formatUsd } from "./format-number.js";

/** The value a printed figure stands for and the half-width of its last digit. */
function parseFigure(text: string): { value: number; halfUlp: number } {
  const plain = text.replace(/,/g, "");
  const decimals = plain.includes(".") ? (plain.split(".")[1] ?? "").length : 0;
  return { value: Number(plain), halfUlp: 0.5 * 10 ** -decimals };
}

describe("formatFigure", () => {
  it("keeps small values (the audit's 0.005 printed as 0.01 in one document and <0.01 in the other)", () => {
    expect(formatFigure(0.005, { decimals: 2 })).toBe("0.005");
    expect(formatFigure(0.0051234, { decimals: 2 })).toBe("0.0051");
    expect(formatFigure(0.05, { decimals: 2 })).toBe("0.05");
    expect(formatDecimal(0.005)).toBe("0.005");
  });
  it("prints thousands separators and at most the decimals asked for large values", () => {
    expect(formatFigure(12345.67)).toBe("12,345.7");
    expect(formatFigure(12345.67, { decimals: 0 })).toBe("12,346");
    expect(formatFigure(2.5, { decimals: 0 })).toBe("2.5");
    expect(formatFigure(0)).toBe("0");
    expect(formatFigure(-0.005, { decimals: 2 })).toBe("-0.005");
  });
  it("says < only for a value truly under the floor", () => {
    expect(formatFigure(0.00005)).toBe("0.00005");
    expect(formatFigure(0.0000001)).toBe("<0.000001");
    expect(formatFigure(0.00001, { floor: 0.0001 })).toBe("<0.0001");
    expect(formatFigure(0.0001, { floor: 0.0001 })).toBe("0.0001");
    expect(formatFigure(-0.0000001)).toBe(">-0.000001");
    expect(formatFigure(0.004, { floor: 0.01 })).toBe("<0.01");
  });
  it("prints every finite value within half its last digit, never a non-zero as 0, < only below the floor", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e12, max: 1e12, noNaN: true }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        (value, decimals, significant) => {
          const text = formatFigure(value, { decimals, significant });
          if (text.startsWith("<")) {
            expect(value > 0 && value < Number(text.slice(1))).toBe(true);
            return;
          }
          if (text.startsWith(">-")) {
            expect(value < 0 && -value < Number(text.slice(2))).toBe(true);
            return;
          }
          const { value: shown, halfUlp } = parseFigure(text);
          // Doubles hold about 16 significant digits: allow for that in the parse back.
          expect(Math.abs(shown - value)).toBeLessThanOrEqual(halfUlp * (1 + 1e-9) + Math.abs(value) * 1e-15);
          if (value !== 0) {
            expect(shown).not.toBe(0);
            // Significant digits: the printed value is off by at most half a unit of the last one.
            expect(Math.abs(shown - value) / Math.abs(value)).toBeLessThanOrEqual(
              0.5 * 10 ** (1 - significant) + 1e-9,
            );
          }
          expect(decimalsFor(value, { decimals, significant })).toBeGreaterThanOrEqual(decimals);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("formatInteger and formatUsd", () => {
  it("round to whole numbers and cents", () => {
    expect(formatInteger(9987.6)).toBe("9,988");
    expect(formatUsd(25241.811, true)).toBe("$25,241.81");
    expect(formatUsd(25241.811)).toBe("$25,242");
  });
});

describe("whole numbers without Intl", () => {
  it("print exactly as Intl's en-US format does, for every kind of double", () => {
    const intl = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
    const edges = [
      0,
      -0,
      0.5,
      -0.5,
      1.5,
      -1.5,
      2.5,
      -2.5,
      0.49999999999999994,
      -0.49999999999999994,
      999,
      1000,
      -1000,
      999_999.5,
      1e15 + 0.5,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      2 ** 53 + 2,
      1e21,
      -1e21,
      1.7976931348623157e308,
      5e-324,
      -5e-324,
      Number.NaN,
      Infinity,
      -Infinity,
    ];
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...edges), fc.double(), fc.integer(), fc.double({ min: -1e7, max: 1e7 })),
        (value) => {
          expect(formatInteger(value)).toBe(intl.format(Math.round(value)));
          expect(formatUsd(value)).toBe(`$${intl.format(value)}`);
        },
      ),
      { numRuns: 5_000, seed: 29 },
    );
  });
});
