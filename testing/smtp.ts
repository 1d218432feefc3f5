import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A local SMTP server: the mails it received, decoded from quoted-printable. */
export async function startSmtp(
  onMail?: (mails: { to: string[]; text: string }[]) => void,
): Promise<{ url: string; mails: { to: string[]; text: string }[]; close: () => Promise<void> }> {
  const mails: { to: string[]; text: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("latin1");
        const unfolded = raw.replace(/=\r?\n/g, "");
        const bytes = Buffer.from(
          unfolded.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
          "latin1",
        );
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text: bytes.toString("utf8") });
        onMail?.(mails);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
