import { english, type Text } from "./message";

/**
 * Bad input: nothing was changed. Field errors name the form fields at fault. The message is
 * English (logs, the audit log, tests); `text` and `fieldErrors` are said in the request's
 * language by toActionResult.
 */
export class InputError extends Error {
  override name = "InputError";
  readonly text: Text;
  constructor(
    message: Text,
    readonly fieldErrors: Record<string, Text[]> = {},
  ) {
    super(english(message));
    this.text = message;
  }
}
