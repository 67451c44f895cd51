/**
 * Builds the published package in the current directory from `src/` to `dist/`: ESM JavaScript,
 * `.d.ts` declarations and source maps, as `tsconfig.package.json` says. Each published package runs
 * it as its `build` and `prepack` script, so `pnpm pack` always packs a fresh build.
 *
 * Three things plain `tsc -b` leaves undone:
 * - it rewrites `./x.ts` to `./x.js` in JavaScript but not in declarations (TypeScript #61037), so a
 *   declaration transformer below rewrites relative `.ts` / `.d.ts` specifiers to `.js`;
 * - it never copies hand-written or generated `.d.ts` files of `src/` (the client's `schema.d.ts`);
 * - it trusts its build info even when `dist/` was deleted, so the build is always forced.
 */
import { cpSync, existsSync, globSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const RELATIVE_TS = /^\.\.?\/.*(?<!\.d)\.ts$|^\.\.?\/.*\.d\.ts$/;

/** `./claims.ts` and `./schema.d.ts` become `./claims.js` and `./schema.js`; anything else is kept. */
function toJsSpecifier(specifier: string): string {
  if (!RELATIVE_TS.test(specifier)) return specifier;
  return specifier.replace(/(\.d)?\.ts$/, '.js');
}

function rewriteSpecifiers(context: ts.TransformationContext) {
  const { factory } = context;
  const literal = (node: ts.Expression | undefined) =>
    node && ts.isStringLiteral(node) && toJsSpecifier(node.text) !== node.text
      ? factory.createStringLiteral(toJsSpecifier(node.text))
      : undefined;
  const visit = (node: ts.Node): ts.Node => {
    if (ts.isImportDeclaration(node)) {
      const specifier = literal(node.moduleSpecifier);
      if (specifier)
        return factory.updateImportDeclaration(
          node,
          node.modifiers,
          node.importClause,
          specifier,
          node.attributes,
        );
    } else if (ts.isExportDeclaration(node)) {
      const specifier = literal(node.moduleSpecifier);
      if (specifier)
        return factory.updateExportDeclaration(
          node,
          node.modifiers,
          node.isTypeOnly,
          node.exportClause,
          specifier,
          node.attributes,
        );
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const specifier = literal(node.argument.literal as ts.Expression);
      if (specifier)
        return factory.updateImportTypeNode(
          node,
          factory.updateLiteralTypeNode(node.argument, specifier),
          node.attributes,
          node.qualifier,
          node.typeArguments,
          node.isTypeOf,
        );
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (file: ts.SourceFile | ts.Bundle) => ts.visitNode(file, visit) as ts.SourceFile | ts.Bundle;
}

/** Builds `dir`'s `tsconfig.build.json` (and the builds it references); returns false on errors. */
function buildPackage(dir: string): boolean {
  const config = join(dir, 'tsconfig.build.json');
  if (!existsSync(config)) throw new Error(`${config} is missing: a published package needs one`);
  rmSync(join(dir, 'dist'), { recursive: true, force: true });

  const formatHost: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => dir,
    getNewLine: () => '\n',
  };
  const report = (diagnostic: ts.Diagnostic) =>
    process.stderr.write(ts.formatDiagnosticsWithColorAndContext([diagnostic], formatHost));
  const host = ts.createSolutionBuilderHost(ts.sys, undefined, report, report);
  const builder = ts.createSolutionBuilder(host, [config], { force: true });
  const status = builder.build(undefined, undefined, undefined, () => ({
    afterDeclarations: [rewriteSpecifiers],
  }));
  if (status !== ts.ExitStatus.Success) return false;

  // tsc emits no .d.ts for a .d.ts input: copy them, keeping their place under src/.
  for (const file of globSync('src/**/*.d.ts', { cwd: dir })) {
    const target = join(dir, 'dist', file.slice('src/'.length));
    cpSync(join(dir, file), target);
  }
  return true;
}

if (!buildPackage(resolve(process.argv[2] ?? process.cwd()))) process.exit(1);
