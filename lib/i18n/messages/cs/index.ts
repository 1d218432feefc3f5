import { csClient } from "./client";
import { reasons } from "./reasons";
import { server } from "./server";

/** The console's Czech messages: the English catalogue's keys, translated. */
export const cs = { ...csClient, reasons, server } as const;
