import { HostMessageFormat, isHostMessageFormat, isIsoHostFormat, IsoHostFormat } from '@app/contracts';
import { MessageSpec, PRESETS } from '@app/iso8583';
import { HostDialect, HostProtocolError, IsoDialect, JsonDialect } from './dialect';
import { IsoHostDialect } from './iso/iso-dialect';
import { EzAioDialect } from './json/ez-aio';
import { EzWalletDialect } from './json/ez-wallet';
import { MpgsDialect } from './json/mpgs';
import { PomeloDialect } from './json/pomelo';

/**
 * The built-in message spec of an ISO format (`PRESETS` of `@app/iso8583`); throws
 * `HostProtocolError` when there is none. An operator's replacement spec file
 * (`presetsWithFiles`) is spoken with `new IsoHostDialect(format, spec)`.
 */
export function specFor(format: IsoHostFormat): MessageSpec {
  const spec = Object.prototype.hasOwnProperty.call(PRESETS, format) ? PRESETS[format] : undefined;
  if (spec === undefined) throw new HostProtocolError(format, 'no message spec of that name in @app/iso8583');
  return spec;
}

const dialects = new Map<string, HostDialect>();

function create(format: HostMessageFormat): HostDialect {
  if (isIsoHostFormat(format)) return new IsoHostDialect(format, specFor(format));
  switch (format) {
    case 'MPGS_AP':
      return new MpgsDialect();
    case 'POMELO_JSON':
      return new PomeloDialect();
    case 'EZ_AIO':
      return new EzAioDialect();
    case 'EZ_WALLET':
      return new EzWalletDialect();
    case 'MOCK':
      throw new HostProtocolError(format, 'MOCK has no wire format: the connector answers it in process');
    default:
      throw new HostProtocolError(String(format), 'unknown host message format');
  }
}

/**
 * The dialect of a host format (one instance per format, stateless). Throws `HostProtocolError`
 * for `MOCK` (answered in process by the connector) and for any name that is not a format.
 */
export function dialectFor(format: HostMessageFormat): HostDialect {
  if (!isHostMessageFormat(format)) throw new HostProtocolError(String(format), 'unknown host message format');
  let dialect = dialects.get(format);
  if (dialect === undefined) {
    dialect = create(format);
    dialects.set(format, dialect);
  }
  return dialect;
}

/** `dialectFor` narrowed to the ISO family; throws `HostProtocolError` for a JSON format. */
export function isoDialectFor(format: HostMessageFormat): IsoDialect {
  const dialect = dialectFor(format);
  if (dialect.kind !== 'iso') throw new HostProtocolError(format, 'not an ISO 8583 format');
  return dialect;
}

/** `dialectFor` narrowed to the JSON family; throws `HostProtocolError` for an ISO format. */
export function jsonDialectFor(format: HostMessageFormat): JsonDialect {
  const dialect = dialectFor(format);
  if (dialect.kind !== 'json') throw new HostProtocolError(format, 'not a JSON format');
  return dialect;
}
