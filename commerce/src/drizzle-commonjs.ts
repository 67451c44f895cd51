import { registerHooks } from 'node:module';

/**
 * Loaded with `node --import` before commerce's own modules: drizzle-orm resolves to its CommonJS
 * build instead of its ES modules. drizzle's ES build re-exports hundreds of modules through
 * `export *` chains, and linking those made V8 hold well over 100 MiB while the app loaded, which the
 * process then kept as heap for its whole life (about 270 MiB RSS at idle against about 130 MiB).
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
