// One implementation of "a redis-server for this test suite" serves the gateway's tests and these.
export { startRedis, type TestRedis } from '../../gateway/test/support/redis-server.ts';
