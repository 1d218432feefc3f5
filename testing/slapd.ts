import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Attribute, Change, Client } from "ldapts";
import type { Role } from "../lib/auth/roles";
import { freePort } from "./free-port";

/**
 * A real OpenLDAP server (Debian's slapd) for the tests: a throw-away directory on a loopback port
 * with people and the console's three groups. `.ci/run` installs slapd.
 */
export const SLAPD = "/usr/sbin/slapd";
export const slapdAvailable = () => existsSync(SLAPD);

const BASE_DN = "dc=registry,dc=test";
const PEOPLE_DN = `ou=people,${BASE_DN}`;
const ROOT_DN = `cn=admin,${BASE_DN}`;
const ROOT_PASSWORD = "directory-root-secret";
/** A service account that may search people (search-then-bind). */
const SERVICE_DN = `cn=console,${BASE_DN}`;
const SERVICE_PASSWORD = "service-account-secret";
const groupDn = (role: Role) => `cn=console-${role},ou=groups,${BASE_DN}`;
export const personDn = (uid: string) => `uid=${uid},${PEOPLE_DN}`;

export interface Person {
  uid: string;
  password: string;
  name: string;
  groups: Role[];
}

function ldif(people: Person[]): string {
  const entries = [
    `dn: ${BASE_DN}\nobjectClass: dcObject\nobjectClass: organization\no: Registry\ndc: registry`,
    `dn: ${PEOPLE_DN}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${BASE_DN}\nobjectClass: organizationalUnit\nou: groups`,
    `dn: ${SERVICE_DN}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: console\nuserPassword: ${SERVICE_PASSWORD}`,
    ...people.map(
      (p) => `dn: ${personDn(p.uid)}\nobjectClass: inetOrgPerson\nuid: ${p.uid}\ncn: ${p.name}\nsn: ${p.name}\nuserPassword: ${p.password}`,
    ),
    // groupOfNames needs a member: the service account holds every group open.
    ...(["admin", "operator", "support"] as Role[]).map(
      (role) =>
        `dn: ${groupDn(role)}\nobjectClass: groupOfNames\ncn: console-${role}\nmember: ${SERVICE_DN}\n` +
        people
          .filter((p) => p.groups.includes(role))
          .map((p) => `member: ${personDn(p.uid)}`)
          .join("\n"),
    ),
  ];
  return `${entries.map((e) => e.trimEnd()).join("\n\n")}\n`;
}

/** Where a running test directory is, for another process (the end-to-end specs) to control it. */
export interface SlapdInfo {
  url: string;
  /** ldaps:// beside ldap:// (which also offers StartTLS), when started with TLS. */
  ldapsUrl?: string;
  conf: string;
  pidfile: string;
}

/** Starts, stops and regroups the slapd that `info` names (it runs as a daemon: any process may). */
export function slapdControl(info: SlapdInfo) {
  const running = () => {
    try {
      const pid = Number(readFileSync(info.pidfile, "utf8").trim());
      process.kill(pid, 0);
      return pid;
    } catch {
      return null;
    }
  };
  const answers = async () => {
    const client = new Client({ url: info.url, connectTimeout: 500 });
    try {
      await client.bind(ROOT_DN, ROOT_PASSWORD);
      return true;
    } catch {
      return false;
    } finally {
      await client.unbind().catch(() => {});
    }
  };
  /** Sends `signal` to a running slapd at once (an exit handler cannot wait); false when none runs. */
  const signal = (name: NodeJS.Signals): boolean => {
    const pid = running();
    if (pid) process.kill(pid, name);
    return pid !== null;
  };
  return {
    info,
    signal,
    async start() {
      if (running()) return;
      const urls = [`${info.url}/`, ...(info.ldapsUrl ? [`${info.ldapsUrl}/`] : [])].join(" ");
      const started = spawnSync(SLAPD, ["-f", info.conf, "-h", urls], { encoding: "utf8" });
      if (started.status !== 0) throw new Error(`slapd did not start: ${started.stderr}`);
      for (let attempt = 0; !(await answers()); attempt++) {
        if (attempt > 100) throw new Error(`slapd does not answer on ${info.url}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (!signal("SIGTERM")) return;
      for (let attempt = 0; running(); attempt++) {
        if (attempt > 100) throw new Error("slapd does not stop");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    /** Makes `uid` a member of exactly the groups of `roles`. */
    async setGroups(uid: string, roles: Role[]) {
      const client = new Client({ url: info.url });
      try {
        await client.bind(ROOT_DN, ROOT_PASSWORD);
        for (const role of ["admin", "operator", "support"] as Role[]) {
          const member = new Attribute({ type: "member", values: [personDn(uid)] });
          await client
            .modify(groupDn(role), new Change({ operation: roles.includes(role) ? "add" : "delete", modification: member }))
            // Already (not) a member.
            .catch(() => {});
        }
      } finally {
        await client.unbind();
      }
    },
  };
}

export interface Slapd {
  url: string;
  info: SlapdInfo;
  /** With TLS: the PEM file of the CA that signed the directory's certificate. */
  caFile: string;
  /** The environment that points the console at this directory (direct bind by DN template). */
  env: Record<string, string>;
  /** The same, finding people by a search as the service account. */
  searchEnv: Record<string, string>;
  setGroups(uid: string, groups: Role[]): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

/** Starts slapd with `people` in its directory. */
/**
 * A throw-away CA and a certificate it signs for 127.0.0.1, made with openssl in `dir`: ca.pem,
 * server.pem, server.key.
 */
function makeCertificates(dir: string): void {
  const run = (args: string[]) => {
    const result = spawnSync("openssl", args, { cwd: dir, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr}`);
  };
  run([
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=Test registry CA",
  ]);
  run(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"]);
  writeFileSync(path.join(dir, "ext.cnf"), "subjectAltName=IP:127.0.0.1\n");
  run([
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "server.pem",
    "-days",
    "2",
    "-extfile",
    "ext.cnf",
  ]);
}

/** A CA certificate (PEM file) that signed nothing the test directory presents. */
export function strangerCa(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "rsc-ca-"));
  const result = spawnSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Another CA"],
    { cwd: dir, encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`openssl failed: ${result.stderr}`);
  return path.join(dir, "ca.pem");
}

export async function startSlapd(people: Person[], options: { tls?: boolean } = {}): Promise<Slapd> {
  if (!slapdAvailable())
    throw new Error(`${SLAPD} is missing: the directory sign-in tests need OpenLDAP's server (Debian: apt-get install slapd)`);
  const dir = mkdtempSync(path.join(tmpdir(), "rsc-slapd-"));
  const data = path.join(dir, "data");
  mkdirSync(data);
  const conf = path.join(dir, "slapd.conf");
  writeFileSync(
    conf,
    [
      ...["core", "cosine", "inetorgperson", "nis"].map((schema) => `include /etc/ldap/schema/${schema}.schema`),
      "modulepath /usr/lib/ldap",
      "moduleload back_mdb",
      `pidfile ${path.join(dir, "slapd.pid")}`,
      "database mdb",
      "maxsize 10485760",
      `suffix "${BASE_DN}"`,
      `rootdn "${ROOT_DN}"`,
      `rootpw ${ROOT_PASSWORD}`,
      `directory ${data}`,
      ...(options.tls
        ? [
            `TLSCACertificateFile ${path.join(dir, "ca.pem")}`,
            `TLSCertificateFile ${path.join(dir, "server.pem")}`,
            `TLSCertificateKeyFile ${path.join(dir, "server.key")}`,
          ]
        : []),
      // Passwords are readable by no one but the entry itself (for its bind); the rest by anyone bound.
      "access to attrs=userPassword by self write by anonymous auth by * none",
      "access to * by users read by * none",
      "",
    ].join("\n"),
  );
  if (options.tls) makeCertificates(dir);
  const load = spawnSync("/usr/sbin/slapadd", ["-f", conf], { input: ldif(people), encoding: "utf8" });
  if (load.status !== 0) throw new Error(`slapadd failed: ${load.stderr}`);
  const port = await freePort();
  const control = slapdControl({
    url: `ldap://127.0.0.1:${port}`,
    ldapsUrl: options.tls ? `ldaps://127.0.0.1:${await freePort()}` : undefined,
    conf,
    pidfile: path.join(dir, "slapd.pid"),
  });
  await control.start();
  // A test process that ends without stopping it does not leave it running.
  const kill = () => control.signal("SIGTERM");
  process.once("exit", kill);
  const url = control.info.url;

  const groups = { LDAP_ADMIN_GROUP: groupDn("admin"), LDAP_OPERATOR_GROUP: groupDn("operator"), LDAP_SUPPORT_GROUP: groupDn("support") };
  return {
    url,
    env: { LDAP_URL: url, LDAP_USER_DN: `uid={username},${PEOPLE_DN}`, ...groups, LDAP_TIMEOUT_MS: "2000" },
    searchEnv: {
      LDAP_URL: url,
      LDAP_SEARCH_BASE: PEOPLE_DN,
      LDAP_SEARCH_FILTER: "(&(objectClass=inetOrgPerson)(uid={username}))",
      LDAP_BIND_DN: SERVICE_DN,
      LDAP_BIND_PASSWORD: SERVICE_PASSWORD,
      ...groups,
      LDAP_TIMEOUT_MS: "2000",
    },
    info: control.info,
    caFile: path.join(dir, "ca.pem"),
    setGroups: control.setGroups,
    stop: control.stop,
    start: control.start,
    async remove() {
      await control.stop();
      process.off("exit", kill);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
