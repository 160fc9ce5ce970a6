import { acceptOnly, parseArgs, UsageError, wantsHelp } from './args';

/** What the host connector's terminal claims are listed and released by. */
const CLAIM_FILTERS = ['group-id', 'format', 'address', 'mid', 'tid', 'pending', 'confirmed'] as const;

/** Each command and the options it takes (anything else is refused, so a misspelt option is never ignored). */
const COMMANDS = {
  'pbo create': ['name', 'time-zone', 'qr-enabled', 'gateway-format', 'enabler-params'],
  token: ['group-id', 'ttl'],
  'claims list': CLAIM_FILTERS,
  'claims release': CLAIM_FILTERS,
  'reversals list': ['id', 'request-id', 'format', 'tid', 'status'],
  'reversals end': ['id', 'as', 'note'],
  'device activate': ['code', 'url'],
  'device config': ['url'],
  sale: ['amount', 'card', 'currency', 'auth', 'pos-reference', 'idempotency-key', 'url'],
} as const;
type Command = keyof typeof COMMANDS;

const USAGE = `usage: npm run -s cli -- <command> [options]

Operator (straight in the database: merchant-management's PBOs, the host connector's claims and reversals):
  pbo create --name NAME [--time-zone Asia/Kuala_Lumpur] [--qr-enabled] [--gateway-format MOCK]
             [--enabler-params acqMid,acqTid]
      creates a PBO and prints {"groupId": "...", "token": "..."} (token valid 24h)
  token --group-id ID [--ttl 24h]
      prints a bearer token for an existing PBO
  claims list [--group-id ID] [--format ISO8583] [--address IP:PORT] [--mid MID] [--tid TID]
              [--pending | --confirmed]
      prints {"claims": [...]}: the host connector's terminal claims (one owner PBO per terminal
      at an ip:port); pending ones wait for the host's first answer, confirmed ones stay
  claims release <the same filters, at least one>
      deletes the matching claims and prints {"released": [...]}; connectors see it within 30 s
  reversals list [--id ID] [--request-id ID] [--format ISO8583] [--tid TID]
                 [--status PENDING|ACKNOWLEDGED|ABANDONED]
      prints {"reversals": [...]}: the host connector's reversal queue, newest first (at most 200);
      requestId is the gateway's action id
  reversals end --id ID --as acknowledged|abandoned --note "what the acquirer said"
      ends a PENDING reversal the host keeps refusing, once the acquirer has told you: acknowledged
      (the host did it: a void sent as a reversal is then done) or abandoned (not needed: the
      transaction stands); prints {"ended": {...}}; the gateway shows it within seconds
  Database: DATABASE_URL, else the embedded PostgreSQL under DATA_DIR (default ./data), shared with a
  running \`npm start\`. Tokens are signed with AUTH_JWT_SECRET (standalone's development secret when
  unset, outside production).

The phone (over HTTP, as the SoftPOS app; the device is kept in DATA_DIR/cli/device.json, mode 0600):
  device activate --code 123456789012 [--url http://127.0.0.1:3000]
      activates with an activation code and prints {"deviceId", "namespace", "profileId", "file"}
  device config [--url URL]
      pulls the device's configuration again (profile, EMV parameters, a renewed token)
  sale --amount 12.50 [--card visa|mastercard|unionpay|amex|jcb|discover] [--currency MYR] [--auth]
       [--pos-reference REF] [--idempotency-key KEY] [--url URL]
      taps a test card (default: the scheme of the device's first AID) and prints the gateway's
      Transaction; --auth asks for a pre-authorisation; the currency defaults to the device's.
      Test amounts: minor units ending in 51 are declined, in 91 time out and are reversed.

  --help prints this.`;

function isCommand(command: string): command is Command {
  return Object.prototype.hasOwnProperty.call(COMMANDS, command);
}

async function run(argv: string[]): Promise<string> {
  const args = parseArgs(argv);
  if (wantsHelp(args)) return USAGE;
  const command = args.words.join(' ');
  if (command === '') throw new UsageError('no command given');
  if (!isCommand(command)) throw new UsageError(`unknown command "${command}"`);
  acceptOnly(args, COMMANDS[command]);
  // Loaded on demand: the phone commands need neither Nest's database modules nor merchant-management.
  if (command === 'pbo create' || command === 'token') return (await import('./admin-commands')).runAdminCommand(command, args);
  if (command === 'claims list' || command === 'claims release') return (await import('./claim-commands')).runClaimCommand(command, args);
  if (command === 'reversals list' || command === 'reversals end') return (await import('./reversal-commands')).runReversalCommand(command, args);
  return (await import('./phone-commands')).runPhoneCommand(command, args);
}

run(process.argv.slice(2)).then(
  (output) => {
    process.stdout.write(`${output}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof UsageError) process.stderr.write(`${USAGE}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
