import { enClient } from "./client";
import { reasons } from "./reasons";
import { server } from "./server";

/** The console's English messages (ICU message syntax), one namespace per part of the interface. */
export const en = { ...enClient, reasons, server } as const;
