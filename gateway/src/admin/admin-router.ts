import { Router } from 'express';
import { assignRequestId } from '../http/request-context.ts';
import { type AdminDeps, createAdminApiRouter } from './admin-api-router.ts';
import { requestScheme } from './request-origin.ts';
import { isSecureCookie } from './session-cookie.ts';
import { createStaticUi } from './static-ui.ts';

/** The admin interface at `/admin` (static files) and its API at `/admin/api` (admin session only). */
export function createAdminRouter(deps: AdminDeps): Router {
  const { config, trustedProxies } = deps;
  const router = Router({ caseSensitive: true, strict: false });
  router.use(assignRequestId);
  router.use('/api', createAdminApiRouter(deps));
  router.use(
    createStaticUi({
      uiDir: config.adminUiDir,
      logger: deps.logger,
      isSecure: (req) => isSecureCookie(config.adminCookieSecure, requestScheme(req, trustedProxies)),
    }),
  );
  return router;
}
