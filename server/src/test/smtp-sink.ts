import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on loopback that keeps every mail it gets, parsed with `mailparser`. */
export class SmtpSink {
  readonly mails: ParsedMail[] = [];
  private readonly server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onData: (stream, _session, callback) => {
      simpleParser(stream).then((mail) => { this.mails.push(mail); callback(); }, (err: Error) => callback(err));
    },
  });

  /** Listens; returns the `SMTP_URL` to configure. */
  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => this.server.server.once('listening', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` mails arrived (or fails after `timeoutMs`). */
  async waitFor(count: number, timeoutMs = 15_000): Promise<ParsedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.mails.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} mails, got ${this.mails.length}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.mails;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
