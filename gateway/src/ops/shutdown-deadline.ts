/**
 * Past the grace period (KEYGATE_SHUTDOWN_GRACE_MS), how long closing the store (a flush to Redis,
 * its QUIT) may still take before the process exits anyway: a Redis that died or froze mid-shutdown
 * must not keep a gateway with a closed listener alive. A gateway has exited at the latest this long
 * after the grace period, which is what a container runtime's stop timeout (Kubernetes'
 * terminationGracePeriodSeconds) must exceed.
 */
export const SHUTDOWN_OVERRUN_MS = 3_000;
