import fc from 'fast-check';
import { QueryFailedError } from 'typeorm';
import { ErrorCode } from '../errors';
import { classifyError } from './classify-error';

/** A PostgreSQL failure as TypeORM throws it. */
const pgError = (code: string, detail: string) => new QueryFailedError('INSERT …', [], Object.assign(new Error('pg'), { code, detail }));

const table = fc.stringMatching(/^[a-z]{1,8}(_[a-z]{1,8}){0,2}$/);
const key = fc.stringMatching(/^[0-9a-f-]{1,36}$/);

describe('classifyError: PostgreSQL refusals a concurrent change caused', () => {
  it('should answer a foreign key whose parent is gone as 404 naming the parent, and one still referenced as 409 naming the child', () => {
    fc.assert(
      fc.property(table, key, table, (parent, id, child) => {
        expect(classifyError(pgError('23503', `Key (parent_id)=(${id}) is not present in table "${parent}".`))).toEqual({
          code: ErrorCode.NotFound,
          message: `${parent.replace(/_/g, ' ')} ${id} does not exist (it was deleted meanwhile)`,
        });
        expect(classifyError(pgError('23503', `Key (id)=(${id}) is still referenced from table "${child}".`))).toEqual({
          code: ErrorCode.Conflict,
          message: `the object is still used by a ${child.replace(/_/g, ' ')} (one was added meanwhile)`,
        });
      }),
    );
  });

  it('should answer a unique violation, a serialisation failure and a deadlock as 409, and any other database failure as 500 with an error id only', () => {
    for (const code of ['23505', '40001', '40P01']) expect(classifyError(pgError(code, 'Key (x)=(1) already exists.')).code).toBe(ErrorCode.Conflict);
    expect(classifyError(pgError('22P02', 'invalid input syntax'), () => 'id-1')).toEqual({ code: ErrorCode.Internal, message: 'unexpected error, id id-1' });
  });
});
