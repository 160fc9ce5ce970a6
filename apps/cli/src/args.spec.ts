import fc from 'fast-check';
import { acceptOnly, flagOption, parseArgs, requiredOption, stringOption, UsageError, wantsHelp } from './args';

/** Option names as commands spell them: lower-case words joined by dashes. */
const optionName = () => fc.stringMatching(/^[a-z][a-z0-9]{0,8}(-[a-z0-9]{1,8}){0,2}$/);
/** A value that cannot be read as an option itself. */
const optionValue = () => fc.string({ minLength: 1, maxLength: 20 }).filter((text) => !text.startsWith('--'));

describe('parseArgs', () => {
  it('should read command words, --name value, --name=value and bare flags', () => {
    const args = parseArgs(['sale', '--amount', '12.50', '--card=amex', '--auth', '--currency', 'MYR']);

    expect(args.words).toEqual(['sale']);
    expect(Object.fromEntries(args.options)).toEqual({ amount: '12.50', card: 'amex', auth: true, currency: 'MYR' });
  });

  it('should give back every option with its value, in either spelling, after any words', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 3 }),
        fc.uniqueArray(fc.tuple(optionName(), optionValue(), fc.boolean()), { selector: ([name]) => name, maxLength: 6 }),
        (words, options) => {
          const argv = [...words, ...options.flatMap(([name, value, inline]) => (inline ? [`--${name}=${value}`] : [`--${name}`, value]))];

          const args = parseArgs(argv);

          expect(args.words).toEqual(words);
          expect(Object.fromEntries(args.options)).toEqual(Object.fromEntries(options.map(([name, value]) => [name, value])));
        },
      ),
    );
  });

  it('should take a value that starts with one dash (a negative number is a value, and refused later by its command)', () => {
    expect(parseArgs(['sale', '--amount', '-5']).options.get('amount')).toBe('-5');
  });

  it('should keep what follows the first = of an inline value', () => {
    expect(parseArgs(['--pos-reference=a=b']).options.get('pos-reference')).toBe('a=b');
  });
});

describe('options', () => {
  const args = (argv: string[]) => parseArgs(argv);

  it('should answer a string option, undefined when absent, and refuse one given without a value', () => {
    expect(stringOption(args(['--card', 'visa']), 'card')).toBe('visa');
    expect(stringOption(args([]), 'card')).toBeUndefined();
    expect(() => stringOption(args(['--card']), 'card')).toThrow(new UsageError('--card needs a value'));
  });

  it('should refuse a required option that is missing, empty or without a value', () => {
    expect(requiredOption(args(['--amount', '1.00']), 'amount')).toBe('1.00');
    for (const argv of [[], ['--amount='], ['--amount']]) expect(() => requiredOption(args(argv), 'amount')).toThrow(UsageError);
    expect(() => requiredOption(args([]), 'amount')).toThrow('--amount is required');
  });

  it('should read a flag as present, true or false, and refuse any other value', () => {
    expect([[], ['--auth'], ['--auth=true'], ['--auth=false']].map((argv) => flagOption(args(argv), 'auth'))).toEqual([false, true, true, false]);
    expect(() => flagOption(args(['--auth', 'yes']), 'auth')).toThrow(new UsageError('--auth is a flag (no value, or true/false)'));
  });

  it('should refuse options the command does not take, naming them', () => {
    expect(() => acceptOnly(args(['sale', '--amount', '1', '--card', 'visa']), ['amount', 'card'])).not.toThrow();
    expect(() => acceptOnly(args(['sale', '--ammount', '1']), ['amount'])).toThrow(new UsageError('unknown option --ammount'));
    expect(() => acceptOnly(args(['--a', '--b', '--amount', '1']), ['amount'])).toThrow(new UsageError('unknown options --a, --b'));
  });

  it('should see a request for help in --help, -h or the word help, and not elsewhere', () => {
    expect([['--help'], ['sale', '--help'], ['-h'], ['help'], ['device', 'activate', '-h']].map((argv) => wantsHelp(args(argv)))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([[], ['sale', '--amount', '1'], ['pbo', 'create', '--name', 'help']].map((argv) => wantsHelp(args(argv)))).toEqual([false, false, false]);
  });
});
