// `npm run serve`: the production build as it is (see `npm start` for building it first), with the
// server's memory settings (scripts/next-server.ts).
import { serveInForeground } from "./next-server";

serveInForeground(process.argv.slice(2));
