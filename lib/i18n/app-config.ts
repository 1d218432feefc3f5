import type { Locale } from "./config";
import type { Messages } from "./messages";

// Message keys and their placeholders are type-checked against the English catalogue.
declare module "use-intl/core" {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}
