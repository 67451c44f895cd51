import { registerHooks } from 'node:module';

/**
 * Loaded with `node --import` before commerce's own modules: drizzle-orm resolves to its CommonJS
 * build instead of its ES modules. drizzle's ES build re-exports hundreds of modules through
 * `export *` chains, and linking those made V8 hold a large heap while the app loaded, which the
 * process then kept for its whole life: idle RSS about twice that of the CommonJS build.
 * The CommonJS build is the same code; nothing else changes, and without this hook commerce runs
 * the same, only bigger.
 */
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
      return nextResolve(specifier, { ...context, conditions: ['node', 'require', 'default'] });
    }
    return nextResolve(specifier, context);
  },
});
