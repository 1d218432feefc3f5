import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { StartupError } from "./errors";

interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(lockPath: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(lockPath, "utf8")) as LockHolder;
  } catch {
    return undefined;
  }
}

/**
 * PGlite is a single-process database: two processes writing one data directory corrupt it.
 * A lock file beside the directory (not inside it, where initdb expects an empty folder) records
 * the owner; a lock left by a process that no longer runs is taken over.
 */
function lockDataDirectory(dataDir: string): () => void {
  const lockPath = `${dataDir}.lock`;
  mkdirSync(path.dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
      writeSync(fd, JSON.stringify(holder));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        try {
          unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readHolder(lockPath);
      if (holder && (holder.host !== hostname() || isAlive(holder.pid))) {
        throw new StartupError(
          `the embedded database ${dataDir} is already open in another process (pid ${holder.pid} on ${holder.host} since ${holder.since}). ` +
            "Stop that process first, or set PGLITE_DIR to another directory, or use DATABASE_URL for a shared PostgreSQL.",
        );
      }
      try {
        unlinkSync(lockPath);
      } catch {
        // another process removed the stale lock first; retry
      }
    }
  }
  throw new StartupError(`could not lock the embedded database ${dataDir}; remove ${lockPath} if no console is running.`);
}

export async function openPglite(dataDir: string): Promise<{ db: PGlite; release: () => void }> {
  const release = lockDataDirectory(dataDir);
  try {
    mkdirSync(dataDir, { recursive: true });
    const db = await PGlite.create(dataDir, { extensions: { btree_gist, pg_trgm } });
    return { db, release };
  } catch (error) {
    release();
    if (error instanceof StartupError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new StartupError(`cannot open the embedded database ${dataDir}: ${detail}`);
  }
}
