// The demo account a brand-new embedded database starts with, so a first user can call the
// API at once. Never created on PostgreSQL.
import type { Services } from './domain/context.js';
import { generateSecret, hashSecret } from './domain/api-keys/api-keys.service.js';
import { CreateAgentSchema } from './domain/agents/agents.service.js';
import { hashPassword } from './domain/users/password-hash.js';
import { randomToken } from './domain/shared/tokens.js';

export interface DemoAccount {
  accountId: string;
  userId: string;
  workflowId: string;
  agentId: string;
  apiKey: string;
  /** The demo user's console sign-in (the password is printed once, like the key). */
  consoleEmail: string;
  consolePassword: string;
}

export async function seedDemoAccount(services: Pick<Services, 'db' | 'clock'>): Promise<DemoAccount> {
  const prisma = services.db.prisma;
  const now = services.clock.now();
  const account = await prisma.account.create({
    data: { name: 'Demo account', defaultLocation: 'US', createdAt: now },
  });
  const consolePassword = randomToken().slice(0, 20);
  const user = await prisma.user.create({
    data: {
      accountId: account.id,
      email: 'demo@example.com',
      name: 'Demo user',
      createdAt: now,
      passwordHash: await hashPassword(consolePassword),
      passwordSetAt: now,
    },
  });
  const apiKey = generateSecret();
  await prisma.apiKey.create({
    data: {
      accountId: account.id,
      userId: user.id,
      name: 'demo key',
      secretHash: hashSecret(apiKey),
      lastFour: apiKey.slice(-4),
      createdAt: now,
    },
  });
  // A live agent that calls new contacts at once, so a demo enrollment is called in seconds.
  // The agent defaults (language, attempts, working hours, retry delay) are the schema's.
  const agentData = CreateAgentSchema.parse({
    accountId: account.id,
    name: 'Demo agent',
    status: 'live',
    timezone: 'America/New_York',
    callNewContactsImmediately: true,
  });
  const agent = await prisma.agent.create({
    data: { ...agentData, workingHours: agentData.workingHours as object, createdAt: now, updatedAt: now },
  });
  const workflow = await prisma.workflow.create({
    data: {
      accountId: account.id,
      agentId: agent.id,
      name: 'Demo outreach',
      status: 'published',
      createdAt: now,
      updatedAt: now,
    },
  });
  return {
    accountId: account.id,
    userId: user.id,
    workflowId: workflow.id,
    agentId: agent.id,
    apiKey,
    consoleEmail: user.email,
    consolePassword,
  };
}
