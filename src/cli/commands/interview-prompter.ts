/**
 * The prompts of the terminal interview, over @inquirer/prompts: text, choices, yes/no, and
 * quantities with units (validated as they are typed).
 */
import { confirm, input, select } from "@inquirer/prompts";
import { parseQuantity, type QuantityUnit } from "../../session/quantity.js";
import { rangeProblem, type NumberRange } from "../../session/value-ranges.js";
import type { Change } from "../../session/changes.js";
import type { LineResult } from "./interview-lines.js";

/** Typed at any question of a turn: leave the questions for the menu (edit, summary, design, quit). */
export const MENU_WORD = "/menu";
const MENU_CHOICE = "\u0000menu";

/** Where prompts read keys and draw; the terminal by default, streams in tests. */
export interface PromptContext {
  readonly input?: NodeJS.ReadableStream;
  readonly output?: NodeJS.WritableStream;
}

/** Thrown by a prompt when the user typed `/menu` (or chose the menu) while answering the questions. */
export class MenuRequested extends Error {
  constructor() {
    super("the menu was asked for");
    this.name = "MenuRequested";
  }
}

/** Typed at a text question of a turn: change one value at once (`/set Q1 peak 60/s`). */
export const SET_WORD = "/set";

/** Thrown by a prompt when the user typed `/set ...`: the change it means. */
export class EditRequested extends Error {
  constructor(readonly change: Change) {
    super("a one-line edit was typed");
    this.name = "EditRequested";
  }
}

/** The few prompt shapes the interview needs. */
export class Prompter {
  /** While true, every prompt offers the menu: `/menu` in text, a last choice in lists. */
  menu = false;
  /** Reads a one-line edit (`Q1 peak 60/s`); while set, text questions of a turn accept `/set ...`. */
  editParser: ((text: string) => LineResult<Change>) | undefined;

  constructor(private readonly context: PromptContext = {}) {}

  /** Writes a line of text (not a prompt). */
  print(text: string): void {
    (this.context.output ?? process.stdout).write(`${text}\n`);
  }

  /** Free text, validated as typed. */
  async text(
    message: string,
    options: { default?: string; validate?: (value: string) => string | true } = {},
  ): Promise<string> {
    const menu = this.menu;
    const validate = options.validate;
    const edit = menu ? this.editParser : undefined;
    const editOf = (value: string): LineResult<Change> | undefined => {
      const match = new RegExp(`^${SET_WORD}(?:\\s+(.*))?$`).exec(value.trim());
      return match === null || edit === undefined ? undefined : edit(match[1] ?? "");
    };
    const answer = await input(
      {
        message,
        ...(options.default === undefined ? {} : { default: options.default }),
        ...(validate === undefined && !menu
          ? {}
          : {
              validate: (value: string) => {
                if (menu && value.trim() === MENU_WORD) return true;
                const edited = editOf(value);
                if (edited !== undefined) return edited.ok ? true : edited.problems.join("; ");
                return validate?.(value) ?? true;
              },
            }),
      },
      this.context as never,
    );
    if (menu && answer.trim() === MENU_WORD) throw new MenuRequested();
    const edited = editOf(answer);
    if (edited?.ok === true) throw new EditRequested(edited.value);
    return answer;
  }

  /** One of `choices`, picked with the arrow keys (and, while answering questions, the menu last). */
  async choose<T extends string>(
    message: string,
    choices: readonly { value: T; name: string }[],
    defaultValue?: T,
  ): Promise<T> {
    const menuChoice = { value: MENU_CHOICE, name: "(menu: edit, summary, design, quit)" };
    const answer = await select<string>(
      {
        message,
        choices: this.menu ? [...choices, menuChoice] : [...choices],
        ...(defaultValue === undefined ? {} : { default: defaultValue }),
        pageSize: 12,
      },
      this.context as never,
    );
    if (answer === MENU_CHOICE) throw new MenuRequested();
    return answer as T;
  }

  /** Yes or no. */
  yes(message: string, defaultValue: boolean): Promise<boolean> {
    return confirm({ message, default: defaultValue }, this.context as never);
  }

  /**
   * A quantity with its unit, checked as it is typed against `range` (signed input is read as
   * signed, and the range says what is allowed); `blank` is returned as undefined when allowed,
   * words listed in `words` as themselves.
   */
  async quantity(
    message: string,
    unit: QuantityUnit,
    options: {
      range: NumberRange;
      allowBlank?: boolean;
      words?: readonly string[];
      /** A further check of the number (e.g. a peak not below its average): why it is refused. */
      check?: (value: number) => string | undefined;
      /** Shown, and taken when the user presses Enter. */
      default?: string;
    },
  ): Promise<number | string | undefined> {
    const words = (options.words ?? []).map((word) => word.toLowerCase());
    const alternatives = words.filter((word) => word !== MENU_WORD);
    const answer = await this.text(message, {
      ...(options.default === undefined ? {} : { default: options.default }),
      validate: (value) => {
        const trimmed = value.trim().toLowerCase();
        if (trimmed === "") return options.allowBlank === true ? true : "an answer is needed";
        if (words.includes(trimmed)) return true;
        const parsed = parseQuantity(value, unit);
        const or = alternatives.length === 0 ? "" : `, or ${alternatives.map((w) => `"${w}"`).join(" or ")}`;
        if (!parsed.ok) return `${parsed.message}${or}`;
        const outside = rangeProblem(parsed.value, options.range) ?? options.check?.(parsed.value);
        return outside === undefined ? true : `${outside}${or}`;
      },
    });
    const trimmed = answer.trim().toLowerCase();
    if (trimmed === "") return undefined;
    if (words.includes(trimmed)) return trimmed;
    const parsed = parseQuantity(answer, unit);
    return parsed.ok ? parsed.value : undefined;
  }
}
