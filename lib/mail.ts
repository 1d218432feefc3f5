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

/** Sends a plain-text mail in the background; false when no SMTP server is configured. */
export function sendMail(message: { to: string; subject: string; text: string }): boolean {
  const config = readConfig().mail;
  if (!config) return false;
  const sending = transportOf(config.url)
    .sendMail({ from: config.from, ...message })
    .then(
      () => {},
      (error: Error) => console.error(`mail to ${message.to} (“${message.subject}”) was not sent: ${error.message}`),
    );
  pending.add(sending);
  void sending.finally(() => pending.delete(sending));
  return true;
}

/** Resolves when every mail started so far was sent or given up (tests, shutdown). */
export async function mailSettled(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
