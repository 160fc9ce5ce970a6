/** Parsed `--name value` / `--flag` arguments after the command words. */
export interface ParsedArgs {
  words: string[];
  options: Map<string, string | true>;
}

/** A command line the CLI cannot run: answered with the usage and exit code 2. */
export class UsageError extends Error {}

export function parseArgs(argv: string[]): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--')) {
      // Only the first = separates: a value may hold more (`--pos-reference=a=b`).
      const equals = arg.indexOf('=');
      if (equals >= 0) options.set(arg.slice(2, equals), arg.slice(equals + 1));
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) options.set(arg.slice(2), argv[++i]);
      else options.set(arg.slice(2), true);
    } else {
      words.push(arg);
    }
  }
  return { words, options };
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options.get(name);
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
}

/** A value the command cannot run without. */
export function requiredOption(args: ParsedArgs, name: string): string {
  const value = stringOption(args, name);
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function flagOption(args: ParsedArgs, name: string): boolean {
  const value = args.options.get(name);
  if (value === undefined) return false;
  if (value === true || value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`--${name} is a flag (no value, or true/false)`);
}

/** Refuses an option the command does not take (a misspelt `--ammount` must not be ignored). */
export function acceptOnly(args: ParsedArgs, names: readonly string[]): void {
  const unknown = [...args.options.keys()].filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new UsageError(`unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `--${name}`).join(', ')}`);
}

/** Whether the command line asks for help: `--help`, `-h` or the word `help` anywhere. */
export function wantsHelp(args: ParsedArgs): boolean {
  return args.options.has('help') || args.words.includes('-h') || args.words[0] === 'help';
}
