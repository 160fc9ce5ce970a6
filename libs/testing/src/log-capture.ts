import { ConsoleLogger, LogLevel } from '@nestjs/common';

/**
 * Nest's console logger at every level (verbose and debug included), writing what it would print
 * (the same formatted lines, stack traces and inspected objects) into memory instead of stdout and
 * stderr: a test reads every log line the application wrote, e.g. to look for card data in it.
 * Given to the app as its logger, it also takes the lines of every `new Logger(context)`.
 */
export class CapturedConsoleLogger extends ConsoleLogger {
  private readonly chunks: string[] = [];

  constructor() {
    super({ logLevels: ['verbose', 'debug', 'log', 'warn', 'error', 'fatal'], colors: false });
  }

  /** Everything logged so far, as it would have been printed. */
  get text(): string {
    return this.chunks.join('');
  }

  protected override printMessages(messages: unknown[], context?: string, logLevel?: LogLevel, writeStreamType?: 'stdout' | 'stderr', errorStack?: unknown): void {
    this.capturing(() => super.printMessages(messages, context, logLevel, writeStreamType, errorStack));
  }

  protected override printStackTrace(stack: string): void {
    this.capturing(() => super.printStackTrace(stack));
  }

  /** Runs `print` (synchronous) with stdout and stderr writing here. */
  private capturing(print: () => void): void {
    const { stdout, stderr } = process;
    const writes = [stdout.write, stderr.write] as const;
    const keep = ((chunk: string | Uint8Array) => {
      this.chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof stdout.write;
    stdout.write = keep;
    stderr.write = keep;
    try {
      print();
    } finally {
      [stdout.write, stderr.write] = writes;
    }
  }
}
