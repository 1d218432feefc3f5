import nodemailer, { type Transporter } from "nodemailer";
import { readConfig } from "./config";

/**
 * Mail to people about their own account (lib/users/notices.ts), through the SMTP server of
 * SMTP_URL, from SMTP_FROM; without them nothing is sent. A mail never holds up or undoes the
 * change it tells of: it is sent after the change committed, in the background, with short
 * timeouts, and a failure is logged.
 */
const TIMEOUT_MS = 10_000;
const transports = new Map<string, Transporter>();
const pending = new Set<Promise<void>>();

function transportOf(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport({ url, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS });
    transports.set(url, transport);
  }
  return transport;
}

/** Runs `work` (which prepares and sends mail) in the background; mailSettled waits for it. It never throws. */
export function inBackground(work: () => Promise<void>, what: string): void {
  const running = work().catch((error: Error) => console.error(`${what}: ${error.message}`));
  pending.add(running);
  void running.finally(() => pending.delete(running));
}

/** Whether mail can be sent: SMTP_URL and SMTP_FROM are set. */
export function mailConfigured(): boolean {
  return readConfig().mail !== null;
}

/** Sends a plain-text mail (call it in inBackground); a failure is logged, never thrown. */
export async function sendMail(message: { to: string; subject: string; text: string }): Promise<boolean> {
  const config = readConfig().mail;
  if (!config) return false;
  try {
    await transportOf(config.url).sendMail({ from: config.from, ...message });
    return true;
  } catch (error) {
    console.error(`mail to ${message.to} (“${message.subject}”) was not sent: ${(error as Error).message}`);
    return false;
  }
}

/** Resolves when every mail started so far was sent or given up (tests, shutdown). */
export async function mailSettled(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
