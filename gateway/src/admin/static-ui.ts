import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { writeProblem } from '@keygate/problem';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { Logger } from 'pino';
import { GatewayError } from '../errors.ts';

/** The page policy: nothing but this origin, no framing, no inline script or style. */
export const ADMIN_UI_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** HSTS for pages reached over TLS: a year, this host only (other hosts of the domain may still speak HTTP). */
export const ADMIN_UI_HSTS = 'max-age=31536000';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** What the static interface needs. */
export interface StaticUiOptions {
  /** The Vite build output (`config.adminUiDir`). */
  uiDir: string;
  logger: Pick<Logger, 'warn'>;
  /** True when the request came over TLS (the same decision as the session cookie's `Secure`). */
  isSecure(req: Request): boolean;
}

/** True for a path naming a file (its last segment has an extension): never answered with index.html. */
function isAssetPath(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last.includes('.');
}

/** 503 ADMIN_UI_NOT_BUILT, answered here: a missing build is the operator's setup, not a server fault. */
function answerNotBuilt(res: Response): void {
  const error = new GatewayError(
    'ADMIN_UI_NOT_BUILT',
    'The admin interface is not built: run pnpm build (or pnpm build:ui) and reload.',
  );
  writeProblem(res, error.toProblem(res.locals.requestId as string | undefined));
}

/**
 * Whether the build is there: checked once at start, then again only while it is missing (and
 * after index.html could not be read), so a present build costs no file-system check per request.
 * The first miss is logged at warn with the directory; clients never see the path.
 */
function createBuildCheck(indexFile: string, uiDir: string, logger: Pick<Logger, 'warn'>) {
  let built = existsSync(indexFile);
  let warned = false;
  return {
    isBuilt(): boolean {
      if (!built) built = existsSync(indexFile);
      if (!built && !warned) {
        warned = true;
        logger.warn({ uiDir }, 'admin interface not built: answering 503 until pnpm build writes it');
      }
      return built;
    },
    markMissing(): void {
      built = false;
    },
  };
}

/**
 * The built admin interface (Vite output, `base: '/admin/'`) served from `uiDir` for GET and HEAD:
 * files as they are (hashed files under `assets/` cached immutable, the rest `no-cache`), and
 * index.html for any other path without an extension (client-side routing). Every answer carries
 * the CSP, nosniff, no-referrer and, over TLS, HSTS. Without `uiDir/index.html`: 503 ADMIN_UI_NOT_BUILT.
 */
export function createStaticUi({ uiDir, logger, isSecure }: StaticUiOptions): Router {
  const indexFile = join(uiDir, 'index.html');
  const assetsDir = join(uiDir, 'assets') + sep;
  const build = createBuildCheck(indexFile, uiDir, logger);
  const router = Router({ caseSensitive: true, strict: false });
  router.use((req, _res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') next();
    else next('router');
  });
  router.use((req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', ADMIN_UI_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (isSecure(req)) res.setHeader('Strict-Transport-Security', ADMIN_UI_HSTS);
    if (build.isBuilt()) next();
    else answerNotBuilt(res);
  });
  router.use(
    express.static(uiDir, {
      index: false,
      redirect: false,
      dotfiles: 'ignore',
      cacheControl: false,
      setHeaders(res, path) {
        res.setHeader('Cache-Control', path.startsWith(assetsDir) ? IMMUTABLE : 'no-cache');
      },
    }),
  );
  router.use((req, res, next) => {
    if (isAssetPath(req.path)) return next('router');
    res.sendFile(indexFile, { cacheControl: false, headers: { 'Cache-Control': 'no-cache' } }, (error) => {
      if (!error) return;
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || res.headersSent) return next(error);
      build.markMissing();
      if (build.isBuilt()) next(error);
      else answerNotBuilt(res);
    });
  });
  return router;
}
