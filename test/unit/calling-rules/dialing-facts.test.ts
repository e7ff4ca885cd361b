// decideForSubjects runs its reads one at a time: the dialer calls it inside its transaction,
// one PostgreSQL connection, where pg deprecates sending a query while another is running (and
// pg@9 refuses it). A client that counts the statements in flight shows it.
import { describe, expect, it } from 'vitest';
import type { SqlClient } from '../../../src/db/sql-client.js';
import { decideForSubjects } from '../../../src/domain/calling-rules/dialing-facts.js';
import { RULE_SET } from '../../../src/domain/calling-rules/rule-set.js';

describe('decideForSubjects', () => {
  it('sends one statement at a time on the client it is given', async () => {
    let inFlight = 0;
    let most = 0;
    let statements = 0;
    const run = async () => {
      statements++;
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return [];
    };
    const client = { $queryRaw: run, $executeRaw: async () => 0 } as unknown as SqlClient;
    const decisions = await decideForSubjects(
      client,
      RULE_SET,
      [
        {
          accountId: '00000000-0000-4000-8000-000000000001',
          contactId: '00000000-0000-4000-8000-000000000002',
          // A US number: its registry (us_national) is asked about too.
          phone: '+13125550143',
          location: null,
          timezone: null,
          dnc: false,
          blocked: false,
          enrollment: null,
        },
      ],
      new Date('2026-11-23T16:00:00.000Z'),
    );
    expect(decisions).toHaveLength(1);
    expect(statements).toBe(4);
    expect(most).toBe(1);
  });
});
