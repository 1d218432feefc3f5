import { admin } from "./admin";
import { auth } from "./auth";
import { common } from "./common";
import { dashboard } from "./dashboard";
import { object } from "./object";
import { objects } from "./objects";
import { reasons } from "./reasons";
import { requests } from "./requests";
import { server } from "./server";

/** The console's Czech messages: the English catalogue's keys, translated. */
export const cs = { common, auth, dashboard, objects, object, reasons, requests, admin, server } as const;
