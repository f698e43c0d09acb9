/**
 * The prompts of the terminal interview, over @inquirer/prompts: text, choices, yes/no, and
 * quantities with units (validated as they are typed).
 */
import { confirm, input, select } from "@inquirer/prompts";
import { parseQuantity, type QuantityUnit } from "../../session/quantity.js";

/** Where prompts read keys and draw; the terminal by default, streams in tests. */
export interface PromptContext {
  readonly input?: NodeJS.ReadableStream;
  readonly output?: NodeJS.WritableStream;
}

/** The few prompt shapes the interview needs. */
export class Prompter {
  constructor(private readonly context: PromptContext = {}) {}

  /** Writes a line of text (not a prompt). */
  print(text: string): void {
    (this.context.output ?? process.stdout).write(`${text}\n`);
  }

  /** Free text, validated as typed. */
  text(
    message: string,
    options: { default?: string; validate?: (value: string) => string | true } = {},
  ): Promise<string> {
    return input(
      {
        message,
        ...(options.default === undefined ? {} : { default: options.default }),
        ...(options.validate === undefined ? {} : { validate: options.validate }),
      },
      this.context as never,
    );
  }

  /** One of `choices`, picked with the arrow keys. */
  choose<T extends string>(
    message: string,
    choices: readonly { value: T; name: string }[],
    defaultValue?: T,
  ): Promise<T> {
    return select<T>(
      {
        message,
        choices: [...choices],
        ...(defaultValue === undefined ? {} : { default: defaultValue }),
        pageSize: 12,
      },
      this.context as never,
    );
  }

  /** Yes or no. */
  yes(message: string, defaultValue: boolean): Promise<boolean> {
    return confirm({ message, default: defaultValue }, this.context as never);
  }

  /** A quantity with its unit; `blank` is returned for an empty answer when allowed, words listed in `words` as themselves. */
  async quantity(
    message: string,
    unit: QuantityUnit,
    options: { integer?: boolean; allowBlank?: boolean; words?: readonly string[] } = {},
  ): Promise<number | string | undefined> {
    const words = (options.words ?? []).map((word) => word.toLowerCase());
    const answer = await this.text(message, {
      validate: (value) => {
        const trimmed = value.trim().toLowerCase();
        if (trimmed === "") return options.allowBlank === true ? true : "an answer is needed";
        if (words.includes(trimmed)) return true;
        const parsed = parseQuantity(value, unit);
        if (!parsed.ok)
          return `${parsed.message}${words.length === 0 ? "" : `, or ${words.map((w) => `"${w}"`).join(" or ")}`}`;
        if (options.integer === true && !Number.isInteger(parsed.value)) return "expected a whole number";
        return true;
      },
    });
    const trimmed = answer.trim().toLowerCase();
    if (trimmed === "") return undefined;
    if (words.includes(trimmed)) return trimmed;
    const parsed = parseQuantity(answer, unit);
    return parsed.ok ? parsed.value : undefined;
  }
}
