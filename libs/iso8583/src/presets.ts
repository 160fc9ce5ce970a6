import iso8583Json from '../specs/iso8583.json';
import { compileSpec, MessageSpec } from './spec';

/** ISO 8583:1987: ASCII MTI and numerics, binary bitmap, field 55 LLL binary (specs/iso8583.json). */
export const ISO8583: MessageSpec = compileSpec(iso8583Json);
