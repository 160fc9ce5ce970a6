/** Parsed `--name value` / `--flag` arguments after the command words. */
export interface ParsedArgs {
  words: string[];
  options: Map<string, string | true>;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2);
      if (inline !== undefined) options.set(name, inline);
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) options.set(name, argv[++i]);
      else options.set(name, true);
    } else {
      words.push(arg);
    }
  }
  return { words, options };
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options.get(name);
  if (value === true) throw new Error(`--${name} needs a value`);
  return value;
}

export function flagOption(args: ParsedArgs, name: string): boolean {
  const value = args.options.get(name);
  if (value === undefined) return false;
  if (value === true || value === 'true') return true;
  if (value === 'false') return false;
  throw new Error(`--${name} is a flag (no value, or true/false)`);
}
