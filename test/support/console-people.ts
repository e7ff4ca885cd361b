// A person of a new Account in the console: invited through the operator's GraphQL `inviteUser`
// (the link a person opens), and, for suites that start signed in, with the password already set
// through the domain's acceptInvitation. Each console suite used to write these steps again.
import { randomUUID } from 'node:crypto';
import { acceptInvitation } from '../../src/domain/users/invitations.service.js';
import { ADMIN_TOKEN, type TestServer } from './test-server.js';

export const CONSOLE_PASSWORD = 'a console password, long enough';

/** A new Account with a key, and an invitation of a new email into it (its one-time path). */
export async function invitedPerson(server: TestServer, account: Parameters<TestServer['createAccount']>[0] = {}) {
  const { accountId, apiKey } = await server.createAccount(account);
  const email = `p${randomUUID().slice(0, 8)}@example.com`;
  const res = await server.request(ADMIN_TOKEN, 'POST', '/graphql', {
    query: 'mutation ($a: String!, $e: String!) { inviteUser(accountId: $a, email: $e) { path } }',
    variables: { a: accountId, e: email },
  });
  return { accountId, apiKey, email, path: res.json.data.inviteUser.path as string };
}

/** An invited person whose password is set (they can sign in with CONSOLE_PASSWORD). */
export async function personWithPassword(server: TestServer, account: Parameters<TestServer['createAccount']>[0] = {}) {
  const person = await invitedPerson(server, account);
  await acceptInvitation(server.service.services, { token: person.path.split('/').pop(), password: CONSOLE_PASSWORD });
  return person;
}
