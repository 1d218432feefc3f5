import { admin } from "./admin";
import { auth } from "./auth";
import { cases } from "./cases";
import { common } from "./common";
import { dashboard } from "./dashboard";
import { object } from "./object";
import { objects } from "./objects";
import { requests } from "./requests";
import { shadow } from "./shadow";

/**
 * The namespaces of the Czech catalogue that client components translate from (../client.ts picks
 * their parts): the browser's bundle holds these, not the server's own messages.
 */
export const csClient = { common, auth, dashboard, objects, object, requests, admin, shadow, cases } as const;
