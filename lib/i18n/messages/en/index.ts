import { admin } from "./admin";
import { auth } from "./auth";
import { common } from "./common";
import { dashboard } from "./dashboard";
import { object } from "./object";
import { objects } from "./objects";
import { reasons } from "./reasons";
import { requests } from "./requests";
import { server } from "./server";

/** The console's English messages (ICU message syntax), one namespace per part of the interface. */
export const en = { common, auth, dashboard, objects, object, reasons, requests, admin, server } as const;
