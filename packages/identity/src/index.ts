export * from './claims.ts';
export * from './middleware.ts';
export * from './scopes.ts';
export * from './signer.ts';
export * from './verifier.ts';
