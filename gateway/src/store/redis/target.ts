import { z } from 'zod';

/** A `host:port` of a Sentinel or a Cluster node. */
export interface RedisNode {
  host: string;
  port: number;
}

/** A Redis behind Sentinel: the sentinels to ask and the name of the monitored master. */
export interface SentinelTarget {
  sentinels: RedisNode[];
  name: string;
}

/** A Redis Cluster: seed nodes (any reachable one is enough; the rest are discovered). */
export interface ClusterTarget {
  clusterNodes: RedisNode[];
}

/** Where the shared Redis is: a standalone server's URL, a Sentinel-monitored master, or a Cluster. */
export type RedisTarget = string | SentinelTarget | ClusterTarget;

export function isClusterTarget(target: RedisTarget): target is ClusterTarget {
  return typeof target === 'object' && 'clusterNodes' in target;
}

export function isSentinelTarget(target: RedisTarget): target is SentinelTarget {
  return typeof target === 'object' && 'sentinels' in target;
}

/** One line naming the target without secrets (a URL's password is dropped). */
export function describeRedisTarget(target: RedisTarget): string {
  const list = (nodes: RedisNode[]) => nodes.map((n) => `${n.host}:${n.port}`).join(',');
  if (isClusterTarget(target)) return `cluster ${list(target.clusterNodes)}`;
  if (isSentinelTarget(target)) return `sentinel ${target.name}@${list(target.sentinels)}`;
  const url = new URL(target);
  url.password = '';
  url.username = '';
  return url.toString();
}

const NODE_PATTERN = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/** `host:port,host:port` → nodes; host names, IPv4, or `[IPv6]`. */
const NodeListSchema = z.string().transform((text, ctx) => {
  const nodes: RedisNode[] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    const match = NODE_PATTERN.exec(part);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535) {
      ctx.addIssue({
        code: 'custom',
        message: `'${part}' is not a host:port (comma-separated list expected)`,
      });
      return z.NEVER;
    }
    nodes.push({ host: match[1]!.replace(/^\[|\]$/g, ''), port });
  }
  return nodes;
});

/** The Redis variables of the gateway and the CLI; an empty variable counts as unset. */
export const RedisEnvSchema = z
  .object({
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
    KEYGATE_REDIS_CLUSTER_NODES: NodeListSchema.optional(),
    KEYGATE_REDIS_SENTINELS: NodeListSchema.optional(),
    KEYGATE_REDIS_SENTINEL_NAME: z
      .string()
      .regex(/^[\w.-]{1,64}$/, 'must be 1-64 letters, digits, `_`, `-` or `.`')
      .optional(),
  })
  .superRefine((vars, ctx) => {
    const chosen = [
      vars.REDIS_URL && 'REDIS_URL',
      vars.KEYGATE_REDIS_CLUSTER_NODES && 'KEYGATE_REDIS_CLUSTER_NODES',
      vars.KEYGATE_REDIS_SENTINELS && 'KEYGATE_REDIS_SENTINELS',
    ].filter(Boolean);
    if (chosen.length > 1)
      ctx.addIssue({
        code: 'custom',
        path: [chosen[1] as string],
        message: `set only one of REDIS_URL, KEYGATE_REDIS_CLUSTER_NODES, KEYGATE_REDIS_SENTINELS (got ${chosen.join(' and ')})`,
      });
    if (vars.KEYGATE_REDIS_SENTINELS && !vars.KEYGATE_REDIS_SENTINEL_NAME)
      ctx.addIssue({
        code: 'custom',
        path: ['KEYGATE_REDIS_SENTINEL_NAME'],
        message: 'is required with KEYGATE_REDIS_SENTINELS (the name of the monitored master)',
      });
    if (vars.KEYGATE_REDIS_SENTINEL_NAME && !vars.KEYGATE_REDIS_SENTINELS)
      ctx.addIssue({
        code: 'custom',
        path: ['KEYGATE_REDIS_SENTINEL_NAME'],
        message: 'needs KEYGATE_REDIS_SENTINELS (the sentinels to ask for that master)',
      });
  });

/** The target the parsed variables name, or null (SQLite). */
export function redisTargetOf(vars: z.infer<typeof RedisEnvSchema>): RedisTarget | null {
  if (vars.KEYGATE_REDIS_CLUSTER_NODES) return { clusterNodes: vars.KEYGATE_REDIS_CLUSTER_NODES };
  if (vars.KEYGATE_REDIS_SENTINELS && vars.KEYGATE_REDIS_SENTINEL_NAME)
    return { sentinels: vars.KEYGATE_REDIS_SENTINELS, name: vars.KEYGATE_REDIS_SENTINEL_NAME };
  return vars.REDIS_URL ?? null;
}
