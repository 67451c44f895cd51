import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { hashSlotOf } from '../../src/store/redis/keys.ts';
import type { ClusterTarget, SentinelTarget } from '../../src/store/redis/target.ts';
import { findRedisServer, freePort, pingOnce } from './redis-server.ts';

const run = promisify(execFile);
const READY_TIMEOUT_MS = 15_000;

/** One redis-server process of a topology. */
export interface TopologyNode {
  port: number;
  /** The redis-server process id (the bench counts its CPU with its gateway's). */
  pid: number;
  /** Kills the process with SIGKILL, as a crash would. */
  kill(): Promise<void>;
}

/** A Redis Cluster or Sentinel setup started for one suite; `stop()` ends every process it started. */
export interface TestTopology<T> {
  target: T;
  /** A prefix unique to this handle, to keep suites apart. */
  keyPrefix: string;
  /** The processes, masters first. */
  nodes: TopologyNode[];
  stop(): Promise<void>;
}

function requireRedisServer(): string {
  const bin = findRedisServer();
  if (bin) return bin;
  const ci = process.env.CI === 'true' ? ' (CI=true: a missing Redis fails the run)' : '';
  throw new Error(`these tests need redis-server (with redis-cli) on PATH${ci}`);
}

/** Starts processes and remembers them, so a failed start and `stop()` leave nothing running. */
function createProcessGroup(bin: string) {
  const children: ChildProcess[] = [];
  const killAll = () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  const stopChild = async (child: ChildProcess, signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  };
  return {
    async start(port: number, args: string[]): Promise<TopologyNode> {
      const child = spawn(
        bin,
        [...args, '--port', String(port), '--bind', '127.0.0.1', '--daemonize', 'no'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      children.push(child);
      let output = '';
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-4000);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      const deadline = Date.now() + READY_TIMEOUT_MS;
      while (!(await pingOnce(port))) {
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`redis-server on port ${port} did not start:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { port, pid: child.pid ?? 0, kill: () => stopChild(child, 'SIGKILL') };
    },
    /**
     * Starts a node on a free port, with `argsFor` giving its arguments (it may take more free
     * ports). A free port can still be taken before the server binds it (an outgoing connection
     * is given it as its local port): such a start is tried again on new ports.
     */
    async startOnFreePort(argsFor: () => Promise<string[]> | string[]): Promise<TopologyNode> {
      for (let attempt = 1; ; attempt++) {
        const port = await freePort();
        try {
          return await this.start(port, await argsFor());
        } catch (error) {
          if (attempt >= 3 || !String(error).includes('Address already in use')) throw error;
        }
      }
    },
    async stopAll() {
      process.removeListener('exit', killAll);
      await Promise.all(children.map((child) => stopChild(child, 'SIGTERM')));
    },
  };
}

const BASE_ARGS = ['--save', '', '--appendonly', 'no'];

async function waitUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} not ready within ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function infoOf(port: number, command: string[]): Promise<string> {
  const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    return String(await client.call(command[0]!, ...command.slice(1)));
  } finally {
    client.disconnect();
  }
}

/**
 * A Redis Cluster on free loopback ports: `masters` masters (default 3), each with `replicas`
 * replicas (default 0), joined with `redis-cli --cluster create`. A short node timeout makes a
 * killed master's replica take over within a few seconds.
 */
export async function startRedisCluster(
  options: { masters?: number; replicas?: number } = {},
): Promise<TestTopology<ClusterTarget>> {
  const bin = requireRedisServer();
  const masters = options.masters ?? 3;
  const replicas = options.replicas ?? 0;
  const dir = mkdtempSync(join(tmpdir(), 'keygate-cluster-'));
  const group = createProcessGroup(bin);
  try {
    const nodes: TopologyNode[] = [];
    let configFiles = 0;
    for (let i = 0; i < masters * (1 + replicas); i++) {
      nodes.push(
        await group.startOnFreePort(async () => [
          ...BASE_ARGS,
          '--dir',
          dir,
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(await freePort()),
          '--cluster-config-file',
          // A name per attempt: a start that failed may have written its file.
          `nodes-${++configFiles}.conf`,
          '--cluster-node-timeout',
          '1000',
        ]),
      );
    }
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    await run(
      'redis-cli',
      ['--cluster', 'create', ...addresses, '--cluster-replicas', String(replicas), '--cluster-yes'],
      {
        timeout: READY_TIMEOUT_MS,
      },
    );
    for (const node of nodes)
      await waitUntil(`cluster node ${node.port}`, async () =>
        (await infoOf(node.port, ['cluster', 'info'])).includes('cluster_state:ok'),
      );
    return {
      target: { clusterNodes: nodes.map((node) => ({ host: '127.0.0.1', port: node.port })) },
      keyPrefix: `kgtest:${process.pid}:`,
      nodes,
      async stop() {
        await group.stopAll();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await group.stopAll();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A master, one replica and one sentinel (quorum 1) on free loopback ports. The sentinel declares
 * the master down after a second without answers and promotes the replica.
 */
export async function startRedisSentinel(): Promise<TestTopology<SentinelTarget>> {
  const bin = requireRedisServer();
  const dir = mkdtempSync(join(tmpdir(), 'keygate-sentinel-'));
  const group = createProcessGroup(bin);
  const name = 'keygate-test';
  try {
    const master = await group.startOnFreePort(() => [...BASE_ARGS, '--dir', dir]);
    const masterPort = master.port;
    const replica = await group.startOnFreePort(() => [
      ...BASE_ARGS,
      '--dir',
      dir,
      '--replicaof',
      '127.0.0.1',
      String(masterPort),
    ]);
    await waitUntil('replica', async () =>
      (await infoOf(replica.port, ['info', 'replication'])).includes('master_link_status:up'),
    );
    const config = join(dir, 'sentinel.conf');
    writeFileSync(
      config,
      [
        `sentinel monitor ${name} 127.0.0.1 ${masterPort} 1`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 5000`,
        '',
      ].join('\n'),
    );
    const sentinel = await group.startOnFreePort(() => [config, '--sentinel']);
    const sentinelPort = sentinel.port;
    await waitUntil(
      'sentinel',
      async () => (await infoOf(sentinelPort, ['sentinel', 'replicas', name])).length > 0,
    );
    return {
      target: { sentinels: [{ host: '127.0.0.1', port: sentinelPort }], name },
      keyPrefix: `kgtest:${process.pid}:`,
      nodes: [master, replica, sentinel],
      async stop() {
        await group.stopAll();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await group.stopAll();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The node of `cluster` serving the slot of key name `name`, once every master's writes so far
 * reached a replica (WAIT), so killing it loses nothing acknowledged.
 */
export async function masterOfSynced(
  cluster: TestTopology<ClusterTarget>,
  name: string,
): Promise<TopologyNode> {
  const client = new Cluster(cluster.target.clusterNodes, { lazyConnect: true });
  try {
    await client.connect();
    await Promise.all(client.nodes('master').map((node) => node.call('WAIT', '1', '2000')));
    const owner = client.slots[hashSlotOf(name)]?.[0];
    const node = cluster.nodes.find((candidate) => `127.0.0.1:${candidate.port}` === owner);
    if (!node) throw new Error(`no started node serves ${name} (${owner})`);
    return node;
  } finally {
    client.disconnect();
  }
}
