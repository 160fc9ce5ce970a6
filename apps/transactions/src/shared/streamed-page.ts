import { StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import { StreamedRows } from './persistence/snapshot-stream';

/**
 * The success envelope of a list with every record (`pageSize=-1`), written as the rows come:
 * `{"msg":"SUCCESS","code":0,"data":{"total":…,"current":1,"hasNext":false,…,"records":[…]}}`.
 * `extra` adds page fields (the settlement list's `pages` and `size`). The same JSON a page
 * would be, without holding the records in memory.
 */
export function streamedPage<T, R>(rows: StreamedRows<T>, map: (row: T) => R, extra: Record<string, number> = {}): StreamableFile {
  const head = JSON.stringify({ total: rows.total, current: 1, hasNext: false, ...extra }).slice(0, -1);
  async function* json(): AsyncGenerator<string> {
    yield `{"msg":"SUCCESS","code":0,"data":${head},"records":[`;
    let first = true;
    for await (const chunk of rows.chunks) {
      yield chunk.map((row) => `${first ? ((first = false), '') : ','}${JSON.stringify(map(row))}`).join('');
    }
    yield ']}}';
  }
  return new StreamableFile(Readable.from(json()), { type: 'application/json; charset=utf-8' });
}
