/** An ISO 8583 message: its MTI and its data elements by number (text for n/an/ans/z, bytes for b). */
export interface Iso8583Message {
  mti: string;
  fields: Record<number, string | Buffer>;
}
