import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectHostConnectorDataSource } from '../../shared/inject';

/** One terminal at one address the host is reached at. */
export interface TerminalAtAddress {
  format: string;
  address: string;
  mid: string;
  tid: string;
}

@Injectable()
export class TerminalClaimRepository {
  constructor(@InjectHostConnectorDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims the terminals for `groupId`, all or none: true when each is now the PBO's (claimed
   * now or before), false when another PBO holds any of them (nothing is claimed then). The
   * usual case, all already the PBO's, is one read; otherwise the claim is one INSERT … ON
   * CONFLICT DO UPDATE in key order, whose row locks serialise two claimers (the second reads the
   * first's owner), rolled back when one row is another's.
   */
  async claim(groupId: string, terminals: readonly TerminalAtAddress[]): Promise<boolean> {
    const keys = [...terminals].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
    const parameter = JSON.stringify(keys);
    const recordset = `jsonb_to_recordset($1::jsonb) AS v(format text, address text, mid text, tid text)`;
    const held: Array<{ groupId: string }> = await this.dataSource.query(
      `SELECT c.group_id AS "groupId" FROM terminal_claim c JOIN ${recordset}
          ON c.format = v.format AND c.address = v.address AND c.mid = v.mid AND c.tid = v.tid`,
      [parameter],
    );
    if (held.some((row) => row.groupId !== groupId)) return false;
    if (held.length === keys.length) return true;
    try {
      await this.dataSource.transaction(async (manager) => {
        const owners: Array<{ groupId: string }> = await manager.query(
          `INSERT INTO terminal_claim (format, address, mid, tid, group_id)
           SELECT v.format, v.address, v.mid, v.tid, $2 FROM ${recordset} ORDER BY v.format, v.address, v.mid, v.tid
           ON CONFLICT (format, address, mid, tid) DO UPDATE SET group_id = terminal_claim.group_id
           RETURNING group_id AS "groupId"`,
          [parameter, groupId],
        );
        if (owners.some((row) => row.groupId !== groupId)) throw new TakenTerminal();
      });
      return true;
    } catch (error) {
      if (error instanceof TakenTerminal) return false;
      throw error;
    }
  }
}

/** Rolls a claim back when one of its terminals is another PBO's. */
class TakenTerminal extends Error {}

const keyOf = (terminal: TerminalAtAddress): string => JSON.stringify([terminal.format, terminal.address, terminal.mid, terminal.tid]);
