<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Integration;

use Keygate\Client\KeygateClient;
use PHPUnit\Framework\TestCase;

/**
 * Tests against the running system (real gateway and both commerce processes), started by
 * tests/e2e/client-php.test.ts, which passes the gateway's URL and keys it made with the operator
 * CLI in the environment. Without them the tests fail: they are never skipped.
 */
abstract class SystemTestCase extends TestCase
{
    protected static function env(string $name): string
    {
        $value = getenv($name);
        if ($value === false || $value === '') {
            self::fail("{$name} is not set: run these tests through tests/e2e/client-php.test.ts");
        }
        return $value;
    }

    protected static function clientFor(string $secret, mixed ...$options): KeygateClient
    {
        return new KeygateClient($secret, self::env('KEYGATE_BASE_URL'), ...$options);
    }

    /** The operator's key (live, `auth:rw` and every resource scope), made with `pnpm keygate keys create`. */
    protected static function admin(): KeygateClient
    {
        return self::clientFor(self::env('KEYGATE_ADMIN_KEY'));
    }

    /** Calls `$check` until it returns a value other than null, for at most `$seconds`. */
    protected static function eventually(callable $check, float $seconds = 20.0): mixed
    {
        $until = microtime(true) + $seconds;
        do {
            $result = $check();
            if ($result !== null) {
                return $result;
            }
            usleep(100_000);
        } while (microtime(true) < $until);
        self::fail("nothing after {$seconds} s");
    }
}
