import { defineConfig } from 'drizzle-kit';

/** `npx drizzle-kit generate` (from gateway/) writes SQL migrations for the key store into ./drizzle. */
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/store/sqlite/schema.ts',
  out: './drizzle',
});
