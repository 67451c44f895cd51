import { defineConfig } from 'drizzle-kit';

/** drizzle-kit: `pnpm db:generate` writes a new migration into ./drizzle from the schema. */
export default defineConfig({
  dialect: 'sqlite',
  schema: [
    './src/db/schema.ts',
    './src/db/order-schema.ts',
    './src/db/webhook-schema.ts',
    './src/db/idempotency-schema.ts',
  ],
  out: './drizzle',
});
