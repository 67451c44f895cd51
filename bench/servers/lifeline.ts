/**
 * Exits when the bench process goes away: the parent holds this child's stdin open, so its end
 * (the parent exited, even by SIGKILL) stops a server nobody would stop otherwise.
 */
export function exitWithParent(): void {
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.stdin.resume();
}

/** The port given as the first argument (0 = any free one). */
export function portArgument(): number {
  const port = Number(process.argv[2] ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`bad port ${process.argv[2]}`);
  return port;
}
