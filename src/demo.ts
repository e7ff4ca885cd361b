// The demo account a brand-new embedded database starts with, so a first user can call the
// API at once. Never created on PostgreSQL.
import type { Services } from './domain/context.js';
import { generateSecret, hashSecret } from './domain/api-keys/api-keys.service.js';

export interface DemoAccount {
  accountId: string;
  userId: string;
  workflowId: string;
  apiKey: string;
}

export async function seedDemoAccount(services: Pick<Services, 'db'>): Promise<DemoAccount> {
  const prisma = services.db.prisma;
  const account = await prisma.account.create({ data: { name: 'Demo account', defaultLocation: 'US' } });
  const user = await prisma.user.create({ data: { accountId: account.id, email: 'demo@example.com', name: 'Demo user' } });
  const apiKey = generateSecret();
  await prisma.apiKey.create({
    data: { accountId: account.id, userId: user.id, name: 'demo key', secretHash: hashSecret(apiKey), lastFour: apiKey.slice(-4) },
  });
  const workflow = await prisma.workflow.create({ data: { accountId: account.id, name: 'Demo outreach', status: 'published' } });
  return { accountId: account.id, userId: user.id, workflowId: workflow.id, apiKey };
}
