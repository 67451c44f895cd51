<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Promise\Create;
use Keygate\Client\Exception\ApiConnectionException;
use Keygate\Client\Exception\ApiException;
use Keygate\Client\Exception\RateLimitException;
use Keygate\Client\Model\CreateCartRequest;
use Keygate\Client\Model\UpdateCustomerRequest;
use Psr\Http\Message\RequestInterface;

/** Every POST and PATCH carries an `Idempotency-Key`, and is retried with it after 429, 503 and connection errors. */
final class IdempotencyTest extends MockClientTestCase
{
    private const UUID_V4 = '/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/';

    /** @return array<string, mixed> */
    private static function cart(): array
    {
        return ['id' => 'cart_1', 'channel' => 'WEB_DE', 'currency' => 'EUR', 'pricesIncludeVat' => true, 'customerId' => null,
            'keyId' => 'key_1', 'lines' => [], 'totals' => ['net' => 0, 'vat' => 0, 'gross' => 0, 'currency' => 'EUR'], 'createdAt' => '2026-11-26T12:00:00.000Z',
            'updatedAt' => '2026-11-26T12:00:00.000Z', 'checkedOutAt' => null];
    }

    /** @return array<string, mixed> */
    private static function customer(): array
    {
        return ['id' => 'cus_1', 'name' => 'Ada', 'tier' => 'gold', 'createdAt' => '2026-11-26T12:00:00.000Z', 'updatedAt' => '2026-11-26T12:00:00.000Z'];
    }

    /** @return list<string> the `Idempotency-Key` of each request sent ('' for none) */
    private function keys(): array
    {
        return array_map(static fn (array $entry): string => $entry['request']->getHeaderLine('Idempotency-Key'), $this->history);
    }

    private static function dropped(): callable
    {
        // A rejected promise, as Guzzle's curl handler gives one, so the history middleware sees the attempt.
        return static fn (RequestInterface $request) => Create::rejectionFor(new ConnectException('Connection reset by peer', $request));
    }

    public function testEveryPostAndPatchGetsItsOwnUuidV4AndAGetNone(): void
    {
        $client = $this->client([self::json(201, self::cart()), self::json(201, self::cart()), self::json(200, self::customer()), self::json(200, self::channels())]);
        $client->createCart(new CreateCartRequest(channel: 'WEB_DE'));
        $client->createCart(new CreateCartRequest(channel: 'WEB_DE'));
        $client->updateCustomer('cus_1', new UpdateCustomerRequest(name: 'Ada'));
        $client->listChannels();
        [$first, $second, $patch, $get] = $this->keys();
        foreach ([$first, $second, $patch] as $key) {
            self::assertMatchesRegularExpression(self::UUID_V4, $key);
        }
        self::assertCount(3, array_unique([$first, $second, $patch]), 'one key per call');
        self::assertSame('', $get);
    }

    public function testTheCallersOwnKeyIsSentAsGiven(): void
    {
        $client = $this->client([self::json(201, self::cart()), self::json(201, self::cart())]);
        $client->createCart(new CreateCartRequest(channel: 'WEB_DE'), idempotencyKey: 'order-4711');
        $client->send('POST', '/v2/carts', headers: ['idempotency-key' => 'order-4712'], body: ['channel' => 'WEB_DE']);
        self::assertSame(['order-4711', 'order-4712'], $this->keys());
    }

    public function testAPostIsRetriedAfterA429WithTheSameKeyAndBody(): void
    {
        $client = $this->client([self::problem(429, ['code' => 'RATE_LIMITED'], ['Retry-After' => '7']), self::json(201, self::cart())]);
        self::assertSame('cart_1', $client->createCart(new CreateCartRequest(channel: 'WEB_DE'))->id);
        self::assertSame([7.0], $this->sleeps);
        [$first, $again] = $this->keys();
        self::assertMatchesRegularExpression(self::UUID_V4, $first);
        self::assertSame($first, $again);
        self::assertSame((string) $this->history[0]['request']->getBody(), (string) $this->history[1]['request']->getBody());
    }

    public function testACheckoutIsRetriedAfterConnectionErrorsWithADoublingBackoff(): void
    {
        $order = ['id' => 'ord_1'];
        $client = $this->client([self::dropped(), self::dropped(), self::json(201, $order)]);
        self::assertSame($order, $client->send('POST', '/v2/carts/{id}:checkout', ['id' => 'cart_1'], body: []));
        self::assertSame([1.0, 2.0], $this->sleeps);
        self::assertCount(1, array_unique($this->keys()));
        self::assertCount(3, $this->keys());
    }

    public function testAPatchIsRetriedAfterA503(): void
    {
        $client = $this->client([self::problem(503, ['code' => 'UPSTREAM_UNAVAILABLE']), self::json(200, self::customer())]);
        self::assertSame('Ada', $client->updateCustomer('cus_1', new UpdateCustomerRequest(name: 'Ada'))->name);
        self::assertSame([1.0], $this->sleeps);
        self::assertCount(1, array_unique($this->keys()));
    }

    /** @return iterable<string, array{int}> */
    public static function notRetriedForPost(): iterable
    {
        yield '500' => [500];
        yield '502' => [502];
        yield '504' => [504];
    }

    /** @dataProvider notRetriedForPost */
    public function testAPostIsNotRetriedAfterOtherFailuresSinceTheFirstMayStillAct(int $status): void
    {
        $client = $this->client([self::problem($status, ['code' => 'UPSTREAM']), self::json(201, self::cart())]);
        $this->expectException(ApiException::class);
        try {
            $client->createCart(new CreateCartRequest(channel: 'WEB_DE'));
        } finally {
            self::assertCount(1, $this->history);
        }
    }

    public function testTheConnectionErrorIsThrownOnceTheRetriesAreSpent(): void
    {
        $client = $this->client([self::dropped(), self::dropped(), self::dropped(), self::json(201, self::cart())]);
        try {
            $client->createCart(new CreateCartRequest(channel: 'WEB_DE'));
            self::fail('no exception');
        } catch (ApiConnectionException $e) {
            self::assertStringContainsString('Connection reset by peer', $e->getMessage());
        }
        self::assertCount(3, $this->history, 'the first attempt and two retries');
        self::assertSame([1.0, 2.0], $this->sleeps);
    }

    public function testWithRetriesOffAPostIsSentOnceStillWithAKey(): void
    {
        $client = $this->client([self::problem(429, ['code' => 'RATE_LIMITED'], ['Retry-After' => '1'])], retry: false);
        $this->expectException(RateLimitException::class);
        try {
            $client->createCart(new CreateCartRequest(channel: 'WEB_DE'));
        } finally {
            self::assertCount(1, $this->history);
            self::assertMatchesRegularExpression(self::UUID_V4, $this->keys()[0]);
        }
    }

    public function testAGetIsRetriedAfterAConnectionError(): void
    {
        $client = $this->client([self::dropped(), self::json(200, self::channels())]);
        self::assertSame('WEB_DE', $client->listChannels()->data[0]->code);
        self::assertSame([1.0], $this->sleeps);
    }
}
