import type { SecretHasher } from '../keys/hasher.ts';
import type { KeyService } from '../keys/key-service.ts';
import type { KeyStore } from '../store/store.ts';

/** What a CLI command may touch: its output streams and stdin, and nothing global. */
export interface CliIo {
  env: Record<string, string | undefined>;
  /** The OS user running the CLI; changes are attributed to the administrator `cli:<osUser>`. */
  osUser: string;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Reads all of stdin as text. */
  readStdin(): Promise<string>;
  /** Asks a question on the terminal and reads one line of answer; absent where there is no terminal. */
  readLine?(question: string): Promise<string>;
}

/** The opened store and services a command works with. */
export interface CliServices {
  store: KeyStore;
  hasher: SecretHasher;
  keyService: KeyService;
  clock: () => number;
  /** Closes the store and its connections. */
  close(): Promise<void>;
}

/** A usage mistake (unknown command, missing flag): reported on one line, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Writes a value as pretty JSON followed by a newline. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Opens the store and services on first use. */
export type OpenServices = () => Promise<CliServices>;
