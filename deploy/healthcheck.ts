// Container health probe (the slim images have no curl): exits 0 when the URL answers 2xx in time.
//   node deploy/healthcheck.ts http://127.0.0.1:8080/healthz
const TIMEOUT_MS = 4000;

const url = process.argv[2];
if (!url) {
  process.stderr.write('usage: node deploy/healthcheck.ts <url>\n');
  process.exit(2);
}
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  await response.body?.cancel();
  if (!response.ok) process.stderr.write(`${url}: status ${response.status}\n`);
  process.exit(response.ok ? 0 : 1);
} catch (error) {
  process.stderr.write(`${url}: ${(error as Error).message}\n`);
  process.exit(1);
}
