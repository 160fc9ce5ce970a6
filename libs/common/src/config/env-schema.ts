/**
 * A small schema for environment variables (docs/decisions.md, "One configuration"): each
 * variable says how its text becomes a typed value and whether it is a secret. An app's schema
 * is run once at start through `@nestjs/config`'s `validate`; every bad variable is reported at
 * once, each by its name, and the effective settings can be printed with secrets masked.
 */

/** The environment as the process (or a test) gives it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** How one variable is printed: in full, hidden, or (a URL, or a comma-separated list of them) with its password hidden. */
export type Masking = 'none' | 'secret' | 'credentials' | 'credentials-list';

/** One environment variable of a schema. */
export interface Variable<T> {
  /** `text` is undefined when the variable is unset or blank; throws a message without the name. */
  read(text: string | undefined): T;
  masking: Masking;
}

/** Configuration that cannot be used; the message names every variable at fault. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
    this.name = 'ConfigError';
  }
}

/** Fails a variable's read; the schema puts the variable's name in front. */
class Invalid extends Error {}

function invalid(message: string): never {
  throw new Invalid(message);
}

function variable<T>(read: (text: string | undefined) => T, masking: Masking = 'none'): Variable<T> {
  return { read, masking };
}

/** A whole number from `min` to `max`; `fallback` when unset. */
export function integer(fallback: number, min: number, max: number): Variable<number> {
  return variable((text) => {
    if (text === undefined) return fallback;
    if (!/^[0-9]+$/.test(text.trim())) invalid(`must be a whole number, got "${text}"`);
    const value = Number(text);
    if (value < min || value > max) invalid(`must be from ${min} to ${max}, got ${value}`);
    return value;
  });
}

/** Free text; `fallback` when unset. */
export function text(fallback: string): Variable<string>;
export function text(): Variable<string | undefined>;
export function text(fallback?: string): Variable<string | undefined> {
  return variable((value) => value ?? fallback);
}

/** A secret (printed masked); undefined when unset. */
export function secret(): Variable<string | undefined> {
  return variable((value) => value, 'secret');
}

/**
 * Comma-separated server URLs (NATS_URL) whose users and passwords are masked when printed;
 * an entry without a scheme (`host:4222`) is taken as it is.
 */
export function serverList(): Variable<string | undefined> {
  return variable((value) => value, 'credentials-list');
}

/** A URL whose user and password are masked when printed (DATABASE_URL, SMTP_URL). */
export function urlWithCredentials(): Variable<string | undefined> {
  return variable((value) => {
    if (value !== undefined && !URL.canParse(value)) invalid(`must be a URL, got "${maskCredentials(value)}"`);
    return value;
  }, 'credentials');
}

/** `true` or `false`; `fallback` when unset. */
export function flag(fallback: boolean): Variable<boolean> {
  return variable((value) => {
    if (value === undefined) return fallback;
    if (value !== 'true' && value !== 'false') invalid(`must be true or false, got "${value}"`);
    return value === 'true';
  });
}

/** One of a fixed list; `fallback` when unset. */
export function oneOf<const T extends string>(values: readonly T[], fallback: T): Variable<T> {
  return variable((value) => {
    if (value === undefined) return fallback;
    if (!(values as readonly string[]).includes(value)) invalid(`must be one of ${values.join(', ')}, got "${value}"`);
    return value as T;
  });
}

/** Text matching `pattern` (described in words for the message); `fallback` when unset. */
export function matching(pattern: RegExp, description: string, fallback: string): Variable<string> {
  return variable((value) => {
    const result = value ?? fallback;
    if (!pattern.test(result)) invalid(`must be ${description}, got "${result}"`);
    return result;
  });
}

/** A variable read by `read` (which throws a message without the name). */
export function custom<T>(read: (text: string | undefined) => T, masking: Masking = 'none'): Variable<T> {
  return variable((value) => {
    try {
      return read(value);
    } catch (error) {
      invalid(error instanceof Error ? error.message : String(error));
    }
  }, masking);
}

/** The variables of a schema, by name. */
export type Variables = Record<string, Variable<unknown>>;

/** The values a schema reads, by variable name. */
export type ValuesOf<V extends Variables> = { [K in keyof V]: V[K] extends Variable<infer T> ? T : never };

/** A set of variables read together: every problem is collected, each named. */
export class EnvSchema<V extends Variables> {
  constructor(readonly variables: V) {}

  /** Reads every variable (blank counts as unset, other text is passed as is); throws one {@link ConfigError} naming each bad one. */
  read(env: Env): ValuesOf<V> {
    const values: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const [name, definition] of Object.entries(this.variables)) {
      const raw = env[name];
      try {
        values[name] = definition.read(raw === undefined || raw.trim() === '' ? undefined : raw);
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        // A parser of the variable's own (parseSmtpUrl, parseMailbox) may name it already.
        if (error.message.startsWith(`${name} `)) problems.push(error.message);
        else problems.push(error.message.startsWith('must ') ? `${name} ${error.message}` : `${name}: ${error.message}`);
      }
    }
    if (problems.length > 0) throw new ConfigError(problems);
    return values as ValuesOf<V>;
  }

  /** A schema with more variables (an app's own on top of the platform's). */
  extend<W extends Variables>(more: W): EnvSchema<V & W> {
    return new EnvSchema({ ...this.variables, ...more });
  }

  /** Only the named variables (an app that uses part of the platform). */
  pick<K extends keyof V>(...names: K[]): EnvSchema<Pick<V, K>> {
    const picked = {} as Pick<V, K>;
    for (const name of names) picked[name] = this.variables[name];
    return new EnvSchema(picked);
  }

  /**
   * The effective settings on one line, `NAME=value` in schema order, secrets as `[set]` or
   * `[unset]` and URLs without their password: for the start-up log.
   */
  describe(values: ValuesOf<V>): string {
    return Object.entries(this.variables)
      .map(([name, definition]) => `${name}=${printable(values[name as keyof V], definition.masking)}`)
      .join(' ');
  }
}

export function envSchema<V extends Variables>(variables: V): EnvSchema<V> {
  return new EnvSchema(variables);
}

function printable(value: unknown, masking: Masking): string {
  if (value === undefined) return masking === 'secret' ? '[unset]' : '-';
  switch (masking) {
    case 'secret':
      return '[set]';
    case 'credentials':
      return JSON.stringify(maskCredentials(String(value)));
    case 'credentials-list':
      return JSON.stringify(maskServerList(String(value)));
    case 'none':
      return Buffer.isBuffer(value) ? '[set]' : JSON.stringify(value);
  }
}

/** Each entry of a comma-separated server list masked; an entry that is no URL loses what comes before its last `@`. */
export function maskServerList(list: string): string {
  return list
    .split(',')
    .map((entry) => {
      const trimmed = entry.trim();
      // `user:pass@host:4222` parses as a URL of scheme `user:`: only `scheme://` makes a URL here.
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) && URL.canParse(trimmed)) return maskCredentials(trimmed);
      const at = trimmed.lastIndexOf('@');
      return at < 0 ? trimmed : `***${trimmed.slice(at)}`;
    })
    .join(',');
}

/** `scheme://user:***@host/…`: the password (and a user without one) hidden. */
export function maskCredentials(url: string): string {
  if (!URL.canParse(url)) return '[unparsable URL]';
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  else if (parsed.username) parsed.username = '***';
  return parsed.toString();
}
