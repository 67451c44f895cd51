export { assertTestKey, CliError } from './api.ts';
export { type ListenOptions, listen } from './listen.ts';
export { matchesStatus, tailLogs } from './logs-tail.ts';
export { type CliIo, HELP, runCli } from './run-cli.ts';
export { readServerSentEvents, type ServerSentEvent } from './sse.ts';
export { triggerEvent } from './trigger.ts';
