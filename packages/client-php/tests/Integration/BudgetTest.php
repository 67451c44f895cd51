<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Integration;

use Keygate\Client\Exception\ErrorCode;
use Keygate\Client\Exception\RateLimitException;
use Keygate\Client\Model\CreateIdentityRequest;
use Keygate\Client\Model\CreateIdentityRequestCredits;
use Keygate\Client\Model\CreateIdentityRequestQuota;
use Keygate\Client\Model\CreateKeyRequest;
use Keygate\Client\Model\CreatePlanRequest;
use Keygate\Client\Model\CreditsOperation;
use Keygate\Client\Model\PeriodUsage;
use Keygate\Client\Model\PlanQuotaPeriod;

/**
 * Selling a plan, the same scenario as the TypeScript (tests/e2e/client.test.ts) and .NET
 * (BudgetTests.cs) clients: a day quota of 2 refuses the 3rd call with a typed 429, the identity's
 * credits are topped up, its usage of the day shows the calls by outcome.
 */
final class BudgetTest extends SystemTestCase
{
    public function testADayQuotaRefusesTheThirdCallTypedCreditsTopUpAndUsageShowsIt(): void
    {
        $admin = self::admin();
        $plan = $admin->createPlan(new CreatePlanRequest('php-daily-2', [], [new CreateIdentityRequestQuota(PlanQuotaPeriod::Day, 2)]));
        $identity = $admin->createIdentity(new CreateIdentityRequest(
            externalId: 'php-customer-' . bin2hex(random_bytes(4)),
            planId: $plan->id,
            credits: new CreateIdentityRequestCredits(100),
        ));
        $key = $admin->createKey(new CreateKeyRequest('php-budget', ['article:r'], identityId: $identity->id));
        $shop = self::clientFor($key->secret);

        $shop->listProducts('WEB_DE', limit: 1);
        $shop->listProducts('WEB_DE', limit: 1);
        try {
            $shop->listProducts('WEB_DE', limit: 1);
            self::fail('the third call of the day passed a quota of 2');
        } catch (RateLimitException $e) {
            self::assertSame([429, ErrorCode::QUOTA_EXCEEDED, 'day'], [$e->status, $e->errorCode, $e->policy()]);
            self::assertGreaterThan(0, $e->retryAfter, 'the quota resets at the next UTC midnight');
        }

        self::assertSame(98, $admin->getIdentityCredits($identity->id)->remaining);
        $topped = $admin->changeIdentityCredits($identity->id, new CreditsOperation(increment: 50));
        self::assertSame(148, $topped->remaining, 'two admitted calls spent 2 of 100; the refused one none');
        self::assertSame([$key->id], array_map(static fn ($k) => $k->id, $admin->getIdentity($identity->id)->keys));

        $period = gmdate('Y-m-d');
        // Usage is written about once a second: read until the three calls are counted.
        $usage = self::eventually(static function () use ($admin, $identity, $period): ?PeriodUsage {
            $usage = $admin->getIdentityUsage($identity->id, $period);
            return $usage->total->calls === 3 ? $usage : null;
        });
        self::assertSame(2, $usage->outcomes['VALID']['calls']);
        self::assertSame(1, $usage->outcomes['QUOTA_EXCEEDED']['calls']);
    }
}
