import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { GatewayError } from '../errors.ts';

/** The page policy: nothing but this origin, no framing, no inline script or style. */
export const ADMIN_UI_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const IMMUTABLE = 'public, max-age=31536000, immutable';

function setSecurityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', ADMIN_UI_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
}

/** True for a path naming a file (its last segment has an extension): never answered with index.html. */
function isAssetPath(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last.includes('.');
}

/**
 * The built admin interface (Vite output, `base: '/admin/'`) served from `uiDir` for GET and HEAD:
 * files as they are (hashed files under `assets/` cached immutable, the rest `no-cache`), and
 * index.html for any other path without an extension (client-side routing). Every answer carries
 * the CSP, nosniff and no-referrer. Without `uiDir/index.html`: 503 ADMIN_UI_NOT_BUILT.
 */
export function createStaticUi(uiDir: string): Router {
  const indexFile = join(uiDir, 'index.html');
  const assetsDir = join(uiDir, 'assets') + sep;
  const router = Router({ caseSensitive: true, strict: false });
  router.use((req, _res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') next();
    else next('router');
  });
  router.use(setSecurityHeaders);
  router.use((_req, _res, next) => {
    if (!existsSync(indexFile)) {
      throw new GatewayError(
        'ADMIN_UI_NOT_BUILT',
        `The admin interface is not built: run pnpm build (it writes ${uiDir}).`,
      );
    }
    next();
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
      if (error) next(error);
    });
  });
  return router;
}
