/** Liveness for process managers and tests: the server answers; the API is not consulted. */
export function GET(): Response {
  return Response.json({ status: 'ok' });
}
